/**
 * The analysis of a page with the cascade's own half (run-cascade.ts localCascade) added: where a
 * page is analysed for the pipeline (batch dedup's workers, the crawl's dedup stage, Pipeline.process),
 * so that the flags and the record are made in the same thread as the analysis and from its token
 * table (AnalyzeOptions.onTokens), never normalising or tokenising the text again.
 */
import type { AnalyzedPage } from '../analyze/analyze-page.js';
import type { AnalyzeOptions } from '../analyze/analyze-text.js';
import type { Config } from '../config.js';
import type { TokenTable } from '../text/token-table.js';
import type { TokenStems } from '../analyze/analyze-normalized-text.js';
import type { CascadeFlag } from '../types.js';
import { encodeCascadeRecord } from './cascade-record-codec.js';
import { cascadeOn, localCascade } from './run-cascade.js';

/**
 * The cascade's result for a page, as it crosses threads: its own flags, and its record encoded
 * (cascade-record-codec.ts: one buffer to copy, decoded without copying on the committing thread),
 * or null when no comparing stage is on.
 */
export interface PageCascade {
  readonly flags: readonly CascadeFlag[];
  readonly record: Uint8Array | null;
}

/** An analysed page, with its cascade result when the cascade ran (a judged page, cascade on). */
export type CascadedPage = AnalyzedPage & { readonly cascade?: PageCascade };

/**
 * Runs `analyze` (one of analyze-page.ts's functions, given the options to pass on) and, when any
 * cascade stage is on and the page goes to the index, the cascade's own half on its text.
 */
export function analyzeWithCascade(config: Config, options: AnalyzeOptions, analyze: (options: AnalyzeOptions) => AnalyzedPage): CascadedPage {
  if (!cascadeOn(config.cascade)) return analyze(options);
  let table: TokenTable | undefined;
  let tokenStems: TokenStems | undefined;
  // The stop flags are a view of the analysis's scratch buffer: copied.
  const page = analyze({ ...options, onTokens: (_normalized, t, s) => void ((table = t), (tokenStems = { stems: s.stems, stop: s.stop.slice() })) });
  if (page.skip !== null || page.analysis === null) return page;
  const text = page.text !== '' ? page.text : (page.page?.text ?? '');
  const { flags, record } = localCascade(page.analysis, { text, options: config.cascade, stemCache: options.stemCache, table, tokenStems });
  return { ...page, cascade: { flags, record: record === null ? null : encodeCascadeRecord(record) } };
}
