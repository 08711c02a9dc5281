/**
 * What a crawlee handler has of a page, read into the pipeline's input: from a crawling context
 * (CheerioCrawler's `$`, PlaywrightCrawler's or PuppeteerCrawler's `page`, JSDOMCrawler's
 * `window`, HttpCrawler's `body`), or from a plain `{ url, html }` / `{ url, text }`. Contexts are
 * read by shape, so neardup depends on no crawler package and any crawlee 3 crawler works.
 */
import type { CheerioAPI } from 'cheerio';
import { pageLikeExtra } from '../input/carried-fields.js';
import { decodeHtmlBytes, looksBinary } from '../input/decode-html-bytes.js';
import { ValidationError, describeValue } from '../errors.js';
import type { PageInput, SkipReason } from '../types.js';

/** The parts of a crawlee request read here. */
export interface CrawleeRequestLike {
  readonly url: string;
  /** URL after redirects (crawlee sets it once the page loaded). */
  readonly loadedUrl?: string | undefined;
  readonly crawlDepth?: number | undefined;
}

/** The parts of a crawlee crawling context read here (all but `request` optional: crawlers differ). */
export interface CrawlingContextLike {
  readonly request: CrawleeRequestLike;
  /** CheerioCrawler: the page, parsed once already. */
  readonly $?: unknown;
  /** PlaywrightCrawler / PuppeteerCrawler: the browser page. */
  readonly page?: { content(): Promise<string>; url(): string } | unknown;
  /** JSDOMCrawler: the page's window. */
  readonly window?: unknown;
  /** HttpCrawler (and the HTTP crawlers above): the body, as fetched. */
  readonly body?: unknown;
  readonly contentType?: { readonly type?: string; readonly encoding?: string } | undefined;
  /** got's IncomingMessage (HTTP crawlers) or the browser's Response (browser crawlers). */
  readonly response?: unknown;
}

/** A page given directly: its HTML (main text extracted) or its text (used as is). */
export interface PageLike {
  readonly url: string;
  /** URL after redirects, when it differs. */
  readonly finalUrl?: string | null;
  readonly html?: string;
  readonly text?: string;
  readonly title?: string;
  /** Last-Modified as an ISO date, if known (a signal for the cluster's primary). */
  readonly lastModified?: string | null;
  readonly depth?: number | null;
  /** Any other field is carried into the page's corpus line unchanged (a JSON value). */
  readonly [field: string]: unknown;
}

/** A page read for the pipeline: its input, the parsed page when the crawler parsed it, or why it cannot be judged. @internal */
export type PageSource =
  | { readonly input: PageInput; readonly $: CheerioAPI | null; readonly skip: null }
  | { readonly input: PageInput; readonly $: null; readonly skip: { readonly reason: SkipReason; readonly detail: string } };

const HTML_TYPES: ReadonlySet<string> = new Set(['text/html', 'application/xhtml+xml']);

export function isCrawlingContext(source: unknown): source is CrawlingContextLike {
  if (typeof source !== 'object' || source === null) return false;
  const request = (source as { request?: unknown }).request;
  return typeof request === 'object' && request !== null && typeof (request as { url?: unknown }).url === 'string';
}

function lastModifiedIso(header: unknown): string | null {
  if (typeof header !== 'string') return null;
  const ms = Date.parse(header);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** A response header from got's IncomingMessage (`headers` object) or a browser Response (`headers()`). */
function responseHeader(response: unknown, name: string): unknown {
  if (typeof response !== 'object' || response === null) return undefined;
  const headers = (response as { headers?: unknown }).headers;
  const table = typeof headers === 'function' ? (headers as () => unknown).call(response) : headers;
  return typeof table === 'object' && table !== null ? (table as Record<string, unknown>)[name] : undefined;
}

/** The HTTP status of got's IncomingMessage (`statusCode`) or a browser Response (`status()`), or null. */
function statusOf(response: unknown): number | null {
  if (typeof response !== 'object' || response === null) return null;
  const { statusCode, status } = response as { statusCode?: unknown; status?: unknown };
  const value = typeof status === 'function' ? (status as () => unknown).call(response) : statusCode;
  return typeof value === 'number' ? value : null;
}

function hasMethod<K extends string>(value: unknown, name: K): value is Record<K, (...args: never[]) => unknown> {
  return typeof value === 'object' && value !== null && typeof (value as Record<string, unknown>)[name] === 'function';
}

/** `text/html` of `text/html; charset=utf-8`, or null when absent. */
function mediaType(contentType: unknown): string | null {
  if (typeof contentType !== 'string') return null;
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return type === '' ? null : type;
}

/** The HTML of a context's page, however its crawler holds it; null when it holds none (with why). */
async function htmlOf(context: CrawlingContextLike): Promise<{ html: string } | { skip: SkipReason; detail: string }> {
  const { page, window, body } = context;
  if (hasMethod(page, 'content')) return { html: String(await page.content()) };
  const documentElement = (window as { document?: { documentElement?: { outerHTML?: unknown } } } | undefined)?.document?.documentElement;
  if (typeof documentElement?.outerHTML === 'string') return { html: documentElement.outerHTML };
  if (typeof body === 'string' || body instanceof Uint8Array) {
    if (typeof body === 'string') return { html: body };
    if (looksBinary(body)) return { skip: 'not-html', detail: 'binary body' };
    const header = responseHeader(context.response, 'content-type');
    return { html: decodeHtmlBytes(body, typeof header === 'string' ? header : null).html };
  }
  throw new ValidationError('Expected a crawling context with `$` (CheerioCrawler), `page` (PlaywrightCrawler), `window` (JSDOMCrawler) or `body` (HttpCrawler), got none of them');
}

/** Reads a crawling context. CheerioCrawler's `$` is used as parsed (one parse per page). @internal */
export async function readCrawlingContext(context: CrawlingContextLike): Promise<PageSource> {
  const { request } = context;
  const finalUrl = hasMethod(context.page, 'url') ? String(context.page.url()) : (request.loadedUrl ?? request.url);
  const input: PageInput = {
    url: request.url,
    finalUrl,
    fetchedAt: Date.now(),
    lastModified: lastModifiedIso(responseHeader(context.response, 'last-modified')),
    depth: typeof request.crawlDepth === 'number' ? request.crawlDepth : null,
  };
  // crawlee hands 4xx pages other than 401/403/429 to the handler: an error page is no document.
  const status = statusOf(context.response);
  if (status !== null && status >= 400) return { input, $: null, skip: { reason: 'http-error', detail: `HTTP ${status}` } };
  const type = mediaType(responseHeader(context.response, 'content-type')) ?? mediaType(context.contentType?.type);
  if (type !== null && !HTML_TYPES.has(type)) return { input, $: null, skip: { reason: 'not-html', detail: type } };
  if (typeof context.$ === 'function' && typeof (context.$ as { root?: unknown }).root === 'function') {
    return { input, $: context.$ as CheerioAPI, skip: null };
  }
  const read = await htmlOf(context);
  if ('skip' in read) return { input, $: null, skip: { reason: read.skip, detail: read.detail } };
  return { input: { ...input, html: read.html }, $: null, skip: null };
}

/** Reads a `{ url, html }` or `{ url, text }` page, checking its fields. @internal */
export function readPageLike(page: PageLike): PageSource {
  if (typeof page.url !== 'string' || page.url === '') throw new ValidationError(`Expected \`url\` to be a non-empty string, got ${describeValue(page.url)}`);
  const hasHtml = typeof page.html === 'string';
  if (!hasHtml && typeof page.text !== 'string') {
    throw new ValidationError(`Expected \`html\` or \`text\` to be a string, got ${describeValue(page.html ?? page.text)}`);
  }
  const input: PageInput = {
    url: page.url,
    finalUrl: page.finalUrl ?? null,
    fetchedAt: Date.now(),
    lastModified: page.lastModified ?? null,
    depth: page.depth ?? null,
    ...(hasHtml ? { html: page.html! } : { text: page.text! }),
    ...pageLikeExtra(page),
  };
  return { input, $: null, skip: null };
}
