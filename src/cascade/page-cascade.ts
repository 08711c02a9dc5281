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
import { cascadeOn, localCascade, type CascadeResult } from './run-cascade.js';

/** An analysed page, with its cascade result when the cascade ran (a judged page, cascade on). */
export type CascadedPage = AnalyzedPage & { readonly cascade?: CascadeResult };

/**
 * Runs `analyze` (one of analyze-page.ts's functions, given the options to pass on) and, when any
 * cascade stage is on and the page goes to the index, the cascade's own half on its text.
 */
export function analyzeWithCascade(config: Config, options: AnalyzeOptions, analyze: (options: AnalyzeOptions) => AnalyzedPage): CascadedPage {
  if (!cascadeOn(config.cascade)) return analyze(options);
  let table: TokenTable | undefined;
  const page = analyze({ ...options, onTokens: (_normalized, t) => void (table = t) });
  if (page.skip !== null || page.analysis === null) return page;
  const text = page.text !== '' ? page.text : (page.page?.text ?? '');
  return { ...page, cascade: localCascade(page.analysis, { text, options: config.cascade, stemCache: options.stemCache, table }) };
}
