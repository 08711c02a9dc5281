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

import type { Config as AnalysisConfig } from './config.js';
import { ValidationError as AnalysisValidationError, describeValue as describeAnalysisValue } from './errors.js';
import { extractHtml } from './extract/extract-page.js';
import { fingerprintParagraphs } from './fingerprint/fingerprint-words.js';
import { assertHashName } from './fingerprint/hash64.js';
import { textHash } from './fingerprint/text-hash.js';
import { detectLanguage } from './text/detect-language.js';
import { normalizeText } from './text/normalize-text.js';
import { NORMALIZER_VERSION } from './text/normalizer-version.js';
import { removeStopWordsAndStemParagraphs } from './text/remove-stop-words-and-stem.js';
import type { StemCache } from './text/stem-cache.js';
import { tokenizeParagraphs } from './text/tokenize.js';
import type { ExtractedPage as AnalysisPage } from './types.js';

/** Options of {@link analyzeText} that do not change fingerprint values. */
export interface AnalyzeOptions {
  /**
   * Stems kept across calls; give one per thread to a long run (Snowball stemming dominates the
   * cost). Without it each call memoises its own document's stems.
   */
  readonly stemCache?: StemCache | undefined;
}

/** The fingerprint parameters of a config section, with this build's normaliser version. */
export function fingerprintParamsFrom(settings: AnalysisConfig['fingerprint']): FingerprintParams {
  return {
    distance: settings.distance,
    shingleSize: settings.shingleSize,
    hash: settings.hash,
    weighting: settings.weighting,
    normalizerVersion: NORMALIZER_VERSION,
  };
}

function assertAnalysisParams(params: FingerprintParams): void {
  const { shingleSize, weighting, normalizerVersion } = params;
  if (!Number.isInteger(shingleSize) || shingleSize < 1 || shingleSize > 16) {
    throw new AnalysisValidationError(`Expected \`shingleSize\` to be an integer 1–16, got ${describeAnalysisValue(shingleSize)}`);
  }
  assertHashName(params.hash);
  if (weighting !== 'unit' && weighting !== 'count') {
    throw new AnalysisValidationError(`Expected \`weighting\` to be one of unit|count, got ${describeAnalysisValue(weighting)}`);
  }
  if (normalizerVersion !== NORMALIZER_VERSION) {
    throw new AnalysisValidationError(
      `Expected \`normalizerVersion\` to be ${NORMALIZER_VERSION} (this build's normaliser), got ${describeAnalysisValue(normalizerVersion)}`,
    );
  }
}

/**
 * Text in, fingerprint out: normalise (NFKC, look-alike letters, lower case) → tokens by paragraph
 * → language → stop words and stems → shingles (within paragraphs) → feature hashes → simhash.
 * Pure; safe in any thread.
 */
export function analyzeText(text: string, params: FingerprintParams, options: AnalyzeOptions = {}): TextAnalysis {
  if (typeof text !== 'string') throw new AnalysisValidationError(`Expected \`text\` to be a string, got ${describeAnalysisValue(text)}`);
  assertAnalysisParams(params);
  const normalized = normalizeText(text);
  const paragraphs = tokenizeParagraphs(normalized);
  const tokens = paragraphs.length === 1 ? paragraphs[0]! : paragraphs.flat();
  const language = tokens.length === 0 ? 'und' : detectLanguage(normalized);
  const words = removeStopWordsAndStemParagraphs(paragraphs, language, { stemCache: options.stemCache });
  const { fingerprint, featureCount } = fingerprintParagraphs(words, params);
  return { fingerprint, textHash: textHash(tokens), language, tokenCount: tokens.length, featureCount };
}

/** HTML in: the page's main text (src/extract/) and its analysis. */
export function analyzeHtml(html: string, params: FingerprintParams, url?: string, options: AnalyzeOptions = {}): { page: AnalysisPage; analysis: TextAnalysis } {
  const page = extractHtml(html, url);
  return { page, analysis: analyzeText(page.text, params, options) };
}

// ============================================================ pages and the index
// Owned by the crawl/pipeline work. Composes src/extract/, analyzeText, src/index/, src/store/.
