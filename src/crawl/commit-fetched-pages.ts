/**
 * The dedup stage's work on fetched pages (dedup-stage.ts): each page's HTML parsed once and its
 * main text extracted, then the pages committed together (Pipeline.commitExtractedMany: fingerprint,
 * one index transaction, one corpus append). It runs where the stage runs: in the dedup worker on a
 * machine with two cores or more, so the thread that drives crawlee only fetches and decodes
 * (scripts/bench-crawl.ts: parsing and extraction were a fifth of that thread's work), else on the
 * crawl's own thread.
 *
 * The links of each page come back with its verdict: the crawl follows them only then (not those
 * of a duplicate), so it never needed them earlier.
 */
import type { CheerioAPI } from 'cheerio';
import { extractParsedPage, parsePage } from '../analyze/analyze-page.js';
import type { CommitResult, Pipeline } from '../pipeline.js';
import type { ExtractedPage, PageInput } from '../types.js';
import { firstLine } from './fetch-failure.js';

/** A fetched page as the crawl hands it over: its input record and its decoded HTML. */
export interface FetchedPage {
  readonly input: PageInput;
  readonly html: string;
}

/** A fetched page's verdict, with the links the page carries (none when it could not be read). */
export interface FetchedPageResult extends CommitResult {
  readonly links: readonly string[];
}

/** A page parsed and extracted, or why it could not be: parse failures are the page's (a skip), extractor failures ours too (an error). */
function extractFetched(page: FetchedPage): ExtractedPage | { readonly detail: string; readonly extractorFailed: boolean } {
  let $: CheerioAPI;
  try {
    $ = parsePage(page.html);
  } catch (error) {
    return { detail: firstLine((error as Error).message), extractorFailed: false };
  }
  try {
    return extractParsedPage($, page.input);
  } catch (error) {
    return { detail: firstLine((error as Error).message), extractorFailed: true };
  }
}

/**
 * Parses, extracts and commits fetched pages; results in input order. A page that cannot be parsed
 * or breaks the extractor is recorded as a `parse-error` skip (an extractor failure also counts as
 * an error), never allowed to stop the crawl; a failed write rejects.
 */
export async function commitFetchedPages(pipeline: Pipeline, pages: readonly FetchedPage[]): Promise<FetchedPageResult[]> {
  const results: (FetchedPageResult | undefined)[] = new Array(pages.length);
  const extracted: { input: PageInput; page: ExtractedPage }[] = [];
  const positions: number[] = [];
  for (const [i, fetched] of pages.entries()) {
    const page = extractFetched(fetched);
    if ('detail' in page) {
      if (page.extractorFailed) pipeline.countError();
      const decision = await pipeline.recordSkip(fetched.input.url, 'parse-error', page.detail);
      results[i] = { decision, finalUrl: null, title: '', detail: page.detail, links: [] };
    } else {
      extracted.push({ input: fetched.input, page });
      positions.push(i);
    }
  }
  if (extracted.length > 0) {
    const committed = await pipeline.commitExtractedMany(extracted);
    positions.forEach((i, j) => {
      results[i] = { ...committed[j]!, links: extracted[j]!.page.links };
    });
  }
  return results as FetchedPageResult[];
}
