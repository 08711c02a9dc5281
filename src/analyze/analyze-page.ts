/**
 * A page or document in, analysed: extraction (src/extract/) when HTML is given, then
 * analyzeText, and whether the index should judge it at all (too little text gives a skip reason).
 * Pure, plain data out (structured-clone-able), so it runs in worker threads too.
 */
import type { CheerioAPI } from 'cheerio';
import type { Config } from '../config.js';
import { extractPage, parseHtml } from '../extract/extract-page.js';
import type { DocumentMeta, ExtractedPage, PageInput, SkipReason, TextAnalysis } from '../types.js';
import { analyzeText, fingerprintParamsFrom, type AnalyzeOptions } from './analyze-text.js';

/**
 * One page after the pure half of the pipeline: extracted and fingerprinted, or marked to skip.
 * Plain data (structured-clone-able), so it can cross worker threads.
 */
export interface AnalyzedPage {
  readonly url: string;
  /** URL after redirects, or null when none happened. */
  readonly finalUrl: string | null;
  /** What extraction found; kept for skipped pages too (their links may still be followed). Null for text input. */
  readonly page: ExtractedPage | null;
  /** Null when the page is skipped before fingerprinting (no text, too short, parse error). */
  readonly analysis: TextAnalysis | null;
  /** Why the page is not judged, or null when it goes to the index. */
  readonly skip: { readonly reason: SkipReason; readonly detail: string } | null;
  readonly meta: DocumentMeta;
  /** The main text (what corpus.jsonl stores); '' when it is given as `textJson`. */
  readonly text: string;
  /**
   * The main text as the UTF-8 bytes of its JSON string, instead of `text`: batch dedup's workers
   * send texts back so, as the main thread only writes them to corpus.jsonl.
   */
  readonly textJson?: Uint8Array;
  /** The input's fields neardup does not read (PageInput.extra, less a `title` used as the title), for the corpus line. */
  readonly fields?: Readonly<Record<string, unknown>>;
}

/** Parses a page's HTML once; hand the result to {@link analyzeParsedPage}. @internal */
export function parsePage(html: string): CheerioAPI {
  return parseHtml(html);
}

function skippedPage(input: PageInput, reason: SkipReason, detail: string, page: ExtractedPage | null = null): AnalyzedPage {
  const finalUrl = input.finalUrl !== undefined && input.finalUrl !== null && input.finalUrl !== input.url ? input.finalUrl : null;
  return {
    url: input.url,
    finalUrl,
    page,
    analysis: null,
    skip: { reason, detail },
    meta: {
      url: input.url,
      finalUrl,
      title: page?.title ?? '',
      fetchedAt: input.fetchedAt ?? Date.now(),
      lastModified: input.lastModified ?? null,
      depth: input.depth ?? null,
    },
    text: page?.text ?? '',
  };
}

/** Fingerprints a page's main text (extracted already, or given as text) and decides whether the index should judge it. */
function analyzeExtracted(input: PageInput, page: ExtractedPage | null, text: string, title: string, config: Config, options: AnalyzeOptions): AnalyzedPage {
  if (text.trim() === '') return skippedPage(input, 'no-text', page === null ? 'empty text' : 'no main text found', page);
  const sketchSize = options.sketchSize ?? (config.verify.enabled ? config.verify.sketchSize : 0);
  const analysis = analyzeText(text, fingerprintParamsFrom(config.fingerprint), { ...options, sketchSize });
  const minTokens = config.fingerprint.minTokens;
  if (analysis.tokenCount < minTokens) {
    return { ...skippedPage(input, 'too-short', `${analysis.tokenCount} tokens, fewer than minTokens ${minTokens}`, page), text };
  }
  if (analysis.fingerprint === null) return { ...skippedPage(input, 'no-text', 'no features to fingerprint', page), text };
  const finalUrl = input.finalUrl !== undefined && input.finalUrl !== null && input.finalUrl !== input.url ? input.finalUrl : null;
  return {
    url: input.url,
    finalUrl,
    page,
    analysis,
    skip: null,
    meta: {
      url: input.url,
      finalUrl,
      title,
      language: analysis.language,
      textLength: text.length,
      fetchedAt: input.fetchedAt ?? Date.now(),
      canonicalUrl: page?.canonicalUrl ?? null,
      publishedAt: page?.publishedAt ?? null,
      lastModified: input.lastModified ?? null,
      depth: input.depth ?? null,
    },
    text,
    ...fieldsOf(input),
  };
}

/** The input's fields to carry into its corpus line: `extra`, less a `title` that text input used as its title. */
function fieldsOf(input: PageInput): { fields?: Readonly<Record<string, unknown>> } {
  if (input.extra === undefined) return {};
  if (typeof input.html === 'string' || typeof input.extra.title !== 'string') return { fields: input.extra };
  const { title: _used, ...rest } = input.extra;
  return Object.keys(rest).length === 0 ? {} : { fields: rest };
}

/**
 * The crawl's path: a page parsed once (by {@link parsePage}, or crawlee's `$`) → extraction →
 * fingerprint. Pure. Links resolve against the final URL. @internal
 */
export function analyzeParsedPage($: CheerioAPI, input: PageInput, config: Config, options: AnalyzeOptions = {}): AnalyzedPage {
  let page: ExtractedPage;
  try {
    page = extractParsedPage($, input);
  } catch (error) {
    return skippedPage(input, 'parse-error', (error as Error).message);
  }
  return analyzeExtractedPage(input, page, config, options);
}

/** Extraction alone, from a parsed page (links resolve against the final URL). Throws what the extractor throws. @internal */
export function extractParsedPage($: CheerioAPI, input: PageInput): ExtractedPage {
  return extractPage($, input.finalUrl ?? input.url);
}

/**
 * The half after extraction: fingerprints an extracted page's text and decides whether the index
 * should judge it. Plain data in and out, so it can run in a worker thread while the thread that
 * parsed the page goes on (the crawl's dedup stage, src/crawl/dedup-stage.ts).
 */
export function analyzeExtractedPage(input: PageInput, page: ExtractedPage, config: Config, options: AnalyzeOptions = {}): AnalyzedPage {
  return analyzeExtracted(input, page, page.text, page.title, config, options);
}

/**
 * A page or document in, analysed: extracts the main text when `html` is given, otherwise uses
 * `text`; then fingerprints it. Pure (no I/O), so safe in worker threads. Too little text gives a
 * skip reason (`no-text`, `too-short` below `fingerprint.minTokens`) rather than a fingerprint
 * that would match every other empty page.
 */
export function analyzePage(input: PageInput, config: Config, options: AnalyzeOptions = {}): AnalyzedPage {
  if (typeof input.html === 'string') {
    let $: CheerioAPI;
    try {
      $ = parseHtml(input.html);
    } catch (error) {
      return skippedPage(input, 'parse-error', (error as Error).message);
    }
    return analyzeParsedPage($, input, config, options);
  }
  if (typeof input.text === 'string') {
    const title = typeof input.extra?.title === 'string' ? input.extra.title : '';
    return analyzeExtracted(input, null, input.text, title, config, options);
  }
  return skippedPage(input, 'no-text', 'neither html nor text given');
}
