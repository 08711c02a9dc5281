/**
 * The one place that wires the stages together:
 *   extract (HTML → ExtractedPage) → text (normalise, tokens, stop words, stems, shingles)
 *   → fingerprint (hash64, simhash) → index (check-and-insert) → store (corpus.jsonl).
 *
 * Two halves, so that batch dedup can run the pure half in worker threads:
 * - analyze*: pure, no I/O, safe in any thread (text or HTML in, AnalyzedPage out).
 * - Pipeline: holds the index and the corpus writer; commits analysed pages in order.
 */
import type { FingerprintParams, TextAnalysis } from './types.js';

// ============================================================ analysis (text → fingerprint)
// Owned by the fingerprint core. Composes src/text/ and src/fingerprint/.

/** Text in, fingerprint out. */
export function analyzeText(text: string, params: FingerprintParams): TextAnalysis {
  void text;
  void params;
  throw new Error('analyzeText: not built yet');
}

// ============================================================ pages and the index
// Owned by the crawl/pipeline work. Composes src/extract/, analyzeText, src/index/, src/store/.
