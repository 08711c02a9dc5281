/**
 * The analysis of one batch item — a document (PageInput) or an unparsed JSONL line — the same in
 * a worker thread and on the calling thread: a line is decoded and parsed here, so that the thread
 * reading the input never builds the document's strings.
 */
import { analyzePage, type AnalyzedPage } from '../analyze/analyze-page.js';
import { type AnalyzeOptions } from '../analyze/analyze-text.js';
import type { Config } from '../config.js';
import type { PageInput } from '../types.js';
import { analyzeWithCascade, type CascadedPage } from '../cascade/page-cascade.js';
import type { JsonlLineEntry, ProblemEntry, SkipEntry } from '../input/batch-entry.js';
import { jsonlLineToEntry } from '../input/read-jsonl.js';

/** What goes to analysis: a document, or a JSONL line that becomes one (or a skip, or a problem). */
export type AnalyzeItem = PageInput | JsonlLineEntry;

/**
 * The outcome for one item: an analysed page; a failure of its analysis (`url` when known); or,
 * for a JSONL line, what it was instead of a page (a skip, a problem, or null for a blank line).
 */
export type AnalyzeResult =
  | { readonly ok: true; readonly page: CascadedPage }
  | { readonly ok: false; readonly error: string; readonly url?: string }
  | { readonly ok: false; readonly entry: SkipEntry | ProblemEntry | null };

/** Whether an item is an unparsed JSONL line. */
export function isJsonlLine(item: AnalyzeItem): item is JsonlLineEntry {
  return (item as Partial<JsonlLineEntry>).kind === 'jsonl-line';
}

/** Analyses a document; an exception becomes a failure result. */
export function analyzeInput(input: PageInput, config: Config, options: AnalyzeOptions): AnalyzeResult {
  try {
    return { ok: true, page: analyzeWithCascade(config, options, (o) => analyzePage(input, config, o)) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error), url: input.url };
  }
}

/** Parses a JSONL line's text (as `readJsonl` would) and analyses the document it holds. */
export function analyzeJsonlText(text: string, line: Omit<JsonlLineEntry, 'bytes' | 'kind' | 'size'>, config: Config, options: AnalyzeOptions): AnalyzeResult {
  const entry = jsonlLineToEntry(text, line.file, line.position, line.maxDocumentBytes);
  if (entry === null || entry.kind !== 'page') return { ok: false, entry };
  return analyzeInput(entry.input, config, options);
}

/** Analyses one item on this thread. */
export function analyzeItem(item: AnalyzeItem, config: Config, options: AnalyzeOptions): AnalyzeResult {
  if (!isJsonlLine(item)) return analyzeInput(item, config, options);
  const text = Buffer.from(item.bytes.buffer, item.bytes.byteOffset, item.bytes.byteLength).toString('utf8');
  return analyzeJsonlText(text, item, config, options);
}
