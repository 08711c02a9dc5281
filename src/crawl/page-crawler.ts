/**
 * crawlee's CheerioCrawler, adjusted where neardup needs more than it gives (crawlee 3.18.1,
 * pinned; each override below names the method it replaces):
 *
 * - One parse per page. CheerioCrawler parses every page twice (htmlparser2 `parseDocument` for
 *   `dom`, then `cheerio.load`); `_parseHTML` here parses once with the extractor's parser, or not
 *   at all (`parse: null`: neardup's crawl parses in its dedup worker).
 * - Charset. crawlee decodes by the Content-Type header only (and decodes `latin1`-style
 *   charsets as UTF-8); here the body's bytes are decoded by BOM, header, `<meta>`, then
 *   detection, so windows-1251 or Shift_JIS pages declared only in `<meta>` read correctly.
 *   `_encodeResponse` therefore passes the bytes through untouched.
 * - A size cap on the body (Content-Length, then counted while reading), HTML only, HTTP errors
 *   and redirects out of scope, all turned into PageSkipError before the body is read.
 * - Per-host politeness (`delayRequest`): crawlee's `sameDomainDelaySecs` keys on the
 *   registrable domain, which is null for IP addresses and `localhost`, so it never applies there.
 * - Failed requests are reported to `onFailed` without crawlee's error log and stack trace: every
 *   failure is recorded as a skip with its reason instead.
 */
import type { IncomingMessage } from 'node:http';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate, inflateRaw } from 'node:zlib';
import { CheerioCrawler } from '@crawlee/cheerio';
import type { CheerioCrawlerOptions, CheerioCrawlingContext, Configuration, Request } from '@crawlee/cheerio';
import type { CheerioAPI } from 'cheerio';
import { charsetFromContentType, decodeHtmlBytes, looksBinary } from '../input/decode-html-bytes.js';
import type { HostPacer } from './host-pacer.js';
import { HostParking } from './host-parking.js';
import { hostnameOf } from '../url/url-host.js';
import { PageSkipError } from '../errors.js';

const gunzipAsync = promisify(gunzip);
const inflateAsync = promisify(inflate);
const inflateRawAsync = promisify(inflateRaw);
const brotliAsync = promisify(brotliDecompress);

/** Content types fetched as pages; anything else is recorded `not-html` without reading its body. */
const htmlTypes: ReadonlySet<string> = new Set(['text/html', 'application/xhtml+xml']);

/** Statuses worth a retry (the server may answer later); other 4xx are final. */
function isTransientStatus(status: number): boolean {
  return status >= 500 || status === 429 || status === 408;
}

/** What the page crawler needs beyond crawlee's options. */
export interface PageFetchPolicy {
  /** Sent as User-Agent on every request. */
  readonly userAgent: string;
  /** Bodies larger than this are not read (skip `too-large`). */
  readonly maxPageBytes: number;
  /** Redirects followed per request. */
  readonly maxRedirects: number;
  /** Whether a redirect may be followed to this URL (false: skip `out-of-scope`). */
  readonly allowRedirect: (url: string) => boolean;
  /** Whether robots.txt lets a redirect be followed to this URL (false: skip `robots`). */
  readonly robotsAllowRedirect: (url: string) => boolean | Promise<boolean>;
  /**
   * The one HTML parse of a page, or null to leave it unparsed: the handler then reads the decoded
   * HTML as `body` (`$` is undefined), and parses it where it likes (neardup: in the dedup worker).
   */
  readonly parse: ((html: string) => CheerioAPI) | null;
  /**
   * Whether robots.txt lets a queued request be fetched: a boolean once its origin's robots.txt is
   * known, else a promise. A request waiting for it holds no concurrency slot (it is parked).
   */
  readonly robotsAllow: (url: string) => boolean | Promise<boolean>;
  /** Records a queued request robots.txt does not let us fetch (the crawler then marks it handled). */
  readonly onDisallowed: (request: Request) => Promise<void>;
  /** Whether a queued request is not to be fetched at all (a confirmed mirror's): it is marked handled. @default none */
  readonly skipRequest?: (request: Request) => boolean;
  /** Work still to finish for pages already handled (their verdicts); the crawl is not finished before it is 0. @default none */
  readonly pendingWork?: () => number;
  /** Per-host pacing, or null for none. */
  readonly pacer: HostPacer | null;
  /**
   * Most requests this crawler starts (retries of one request count once); then it stops and
   * leaves the rest queued. Enforced here rather than by crawlee's `maxRequestsPerCrawl`, which
   * also drops links found beyond the budget, so a resumed crawl could never reach them.
   */
  readonly budget: number;
  /** Called once for each request that failed for good (after retries), instead of crawlee's error log. */
  readonly onFailed: (context: CheerioCrawlingContext, error: Error) => Promise<void> | void;
}

function mediaType(contentType: string | undefined): string | null {
  if (contentType === undefined) return null;
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return type === '' ? null : type;
}

/** Reads a response body, failing with `too-large` as soon as it passes `maxBytes`. */
async function readBody(response: IncomingMessage, maxBytes: number, request: Request): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response as AsyncIterable<Buffer | string>) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    total += bytes.byteLength;
    if (total > maxBytes) {
      request.noRetry = true;
      response.destroy();
      throw new PageSkipError('too-large', `body exceeds ${maxBytes} bytes`);
    }
    chunks.push(bytes);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
}

/** The Content-Encodings decodeContent reads. */
const acceptEncoding = 'gzip, deflate, br';

/**
 * A body as sent → the page's bytes, by its Content-Encoding (gzip, deflate or br; anything else
 * passes through, as got passes it). Strict where got is lenient: a compressed body that ends
 * before its compressed stream does (a connection cut, a cache that stored half a file, with a
 * Content-Length that matches the cut) is skipped `truncated` and retried (the server may send all
 * of it next time), never decoded to a shorter page that would be stored as whole. The decoded
 * size is capped like the body's.
 */
async function decodeContent(raw: Buffer, contentEncoding: string | string[] | undefined, maxBytes: number, request: Request): Promise<Buffer> {
  const encoding = (Array.isArray(contentEncoding) ? contentEncoding.join(',') : contentEncoding ?? '').trim().toLowerCase();
  if (encoding === '' || encoding === 'identity' || raw.byteLength === 0) return raw;
  const options = { maxOutputLength: maxBytes };
  let decode: ((buffer: Buffer, options: { maxOutputLength: number }) => Promise<Buffer>) | null = null;
  if (encoding === 'gzip' || encoding === 'x-gzip') decode = gunzipAsync;
  // RFC 9110's deflate is zlib-wrapped; some servers send raw deflate (no header: CM bits are not 8).
  else if (encoding === 'deflate') decode = (raw[0]! & 0x0f) === 8 ? inflateAsync : inflateRawAsync;
  else if (encoding === 'br') decode = brotliAsync;
  if (decode === null) return raw;
  try {
    return await decode(raw, options);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_BUFFER_TOO_LARGE') {
      request.noRetry = true;
      throw new PageSkipError('too-large', `decoded body exceeds ${maxBytes} bytes`);
    }
    // zlib's "unexpected end of file", for gzip, deflate and br alike.
    if (code === 'Z_BUF_ERROR') {
      throw new PageSkipError('truncated', `${encoding} body of ${raw.byteLength} bytes ends before its compressed stream (${(error as Error).message})`);
    }
    request.noRetry = true;
    throw new PageSkipError('decode-error', `${encoding} body does not decode (${(error as Error).message})`);
  }
}

/**
 * How far ahead a request may book its host's start slot and wait for it holding a concurrency
 * slot: two intervals keep a busy host's next request ready when its slot comes (a request put
 * back in the queue instead comes back late, by the queue's own latency), and the cap bounds how
 * long a slow host (a long Crawl-delay) can hold a slot that another host could use.
 */
function bookingHorizonMs(intervalMs: number): number {
  return Math.min(1000, Math.max(200, 2 * intervalMs));
}

/** Most requests one fetch takes from the queue and parks before it gives up (an idle pass costs a pool tick). */
const maxParkedPerFetch = 25;

/** What CheerioCrawler._parseHTML returns. */
type ParsedPage = Awaited<ReturnType<CheerioCrawler['_parseHTML']>>;

export class PageCrawler extends CheerioCrawler {
  private readonly policy: PageFetchPolicy;
  /** Ids of the requests started, for the budget. */
  private readonly startedIds = new Set<string>();
  /** Requests put back in the queue later (pacing, budget), awaited by `settled`. */
  private readonly reclaims = new Set<Promise<unknown>>();
  private reachedBudget = false;
  private readonly startAt: WeakMap<Request, number>;
  private readonly parking = new HostParking();
  /** Requests waiting for their origin's robots.txt. */
  private robotsWaiting = 0;

  constructor(options: CheerioCrawlerOptions, config: Configuration, policy: PageFetchPolicy) {
    // Start slots booked by delayRequest, awaited just before the request goes out.
    const startAt = new WeakMap<Request, number>();
    super({
      ...options,
      autoscaledPoolOptions: { maybeRunIntervalSecs: 0.05, ...options.autoscaledPoolOptions },
      preNavigationHooks: [
        async (context, gotOptions) => {
          const { request } = context;
          const at = startAt.get(request);
          if (at !== undefined) {
            startAt.delete(request);
            if (at > Date.now()) await new Promise((resolve) => setTimeout(resolve, at - Date.now()));
          }
          gotOptions.headers = {
            ...gotOptions.headers,
            'user-agent': policy.userAgent,
            accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
            'accept-encoding': acceptEncoding,
          };
          Object.assign(gotOptions, {
            maxRedirects: policy.maxRedirects,
            // got decompresses leniently (a body cut short decodes to a shorter page, no error):
            // `_parseHTML` decompresses strictly instead (decodeContent).
            decompress: false,
            // The generated browser headers would replace our User-Agent.
            useHeaderGenerator: false,
          });
          gotOptions.hooks = {
            ...gotOptions.hooks,
            beforeRedirect: [
              ...(gotOptions.hooks?.beforeRedirect ?? []),
              async (updated) => {
                // A Location with user-info is followed without it (see withoutUserInfo in src/url/url-host.ts).
                updated.username = '';
                updated.password = '';
                const target = String(updated.url);
                if (!policy.allowRedirect(target)) {
                  request.noRetry = true;
                  throw new PageSkipError('out-of-scope', `redirect to ${target}`);
                }
                // got awaits its beforeRedirect hooks: a redirect into a disallowed path is never requested.
                if (!(await policy.robotsAllowRedirect(target))) {
                  request.noRetry = true;
                  throw new PageSkipError('robots', `redirect to ${target} disallowed by robots.txt`);
                }
              },
            ],
          };
        },
        ...(options.preNavigationHooks ?? []),
      ],
    }, config);
    this.policy = policy;
    this.startAt = startAt;
    // Ours first, so that crawlee's own content-type check never sees a page we refuse.
    this.postNavigationHooks.unshift(({ request, response }) => {
      if (response === undefined) return;
      const status = response.statusCode ?? 0;
      const headers = response.headers;
      if (status >= 400) {
        if (!isTransientStatus(status)) request.noRetry = true;
        response.destroy();
        throw new PageSkipError('http-error', `HTTP ${status}`);
      }
      let type = mediaType(headers['content-type']);
      if (type === null && /\.x?html?$/i.test(new URL(response.url ?? request.url).pathname)) type = 'text/html';
      if (type === null || !htmlTypes.has(type)) {
        request.noRetry = true;
        response.destroy();
        throw new PageSkipError('not-html', type === null ? 'no Content-Type' : type);
      }
      // crawlee parses Content-Type again with the strict `content-type` package and takes a header
      // it cannot parse (`text/html; charset=`, an odd label) for application/octet-stream, failing
      // the page: hand it the media type accepted here and a clean charset label.
      const charset = charsetFromContentType(headers['content-type']);
      headers['content-type'] = charset !== null && /^[\w.:-]+$/.test(charset) ? `${type}; charset=${charset}` : type;
      const length = Number(headers['content-length']);
      if (Number.isFinite(length) && length > policy.maxPageBytes) {
        request.noRetry = true;
        response.destroy();
        throw new PageSkipError('too-large', `Content-Length ${length} exceeds ${policy.maxPageBytes} bytes`);
      }
    });
  }

  /** Replaces HttpCrawler._encodeResponse: bytes pass through; `_parseHTML` decodes them. */
  protected override _encodeResponse(_request: Request, response: IncomingMessage): { encoding: BufferEncoding; response: IncomingMessage } {
    return { response, encoding: 'utf8' };
  }

  /** Replaces CheerioCrawler._parseHTML: capped read, charset sniffing, one parse. */
  protected override async _parseHTML(response: IncomingMessage, _isXml: boolean, context: CheerioCrawlingContext): Promise<ParsedPage> {
    const raw = await readBody(response, this.policy.maxPageBytes, context.request);
    const bytes = await decodeContent(raw, response.headers['content-encoding'], this.policy.maxPageBytes, context.request);
    if (looksBinary(bytes)) {
      context.request.noRetry = true;
      throw new PageSkipError('not-html', 'binary body');
    }
    const { html } = decodeHtmlBytes(bytes, response.headers['content-type'] ?? null);
    if (this.policy.parse === null) return { dom: undefined, $: undefined, body: html, enqueueLinks: context.enqueueLinks } as unknown as ParsedPage;
    let $: CheerioAPI;
    try {
      $ = this.policy.parse(html);
    } catch (error) {
      context.request.noRetry = true;
      throw new PageSkipError('parse-error', (error as Error).message);
    }
    // crawlee's typings see cheerio's CommonJS build, ours its ESM build: the same objects at run time.
    return { dom: $.root()[0], $, body: html, enqueueLinks: context.enqueueLinks } as unknown as ParsedPage;
  }

  /** Requests started by this crawler (retries of one request count once). */
  get startedCount(): number {
    return this.startedIds.size;
  }

  /** How long until a request for `host` may book its start slot (0: now). */
  private waitToBook(host: string): number {
    const pacer = this.policy.pacer;
    return pacer === null ? 0 : pacer.waitToBook(host, Date.now(), bookingHorizonMs(pacer.intervalOf(host)));
  }

  /**
   * Replaces BasicCrawler._fetchNextRequest: a parked request whose host can take it comes first;
   * a request taken from the queue for a host that cannot take it yet is parked (host-parking.ts)
   * and the next one taken, so that the concurrency serves the hosts that can be asked now.
   */
  protected override async _fetchNextRequest(): Promise<Request | null> {
    const ready = this.parking.take((host) => this.waitToBook(host));
    if (ready !== null) return ready;
    for (let taken = 0; taken < maxParkedPerFetch; taken++) {
      const request = await super._fetchNextRequest();
      if (request === null) return null;
      if (this.policy.skipRequest?.(request) === true) {
        await this.requestQueue!.markRequestHandled(request);
        continue;
      }
      const allowed = this.policy.robotsAllow(request.url);
      if (allowed === false) {
        await this.skipDisallowed(request);
        continue;
      }
      if (allowed !== true) {
        this.awaitRobots(request, allowed);
        continue;
      }
      if (this.parkIfBusy(request)) continue;
      return request;
    }
    return null;
  }

  /** Parks a request whose host cannot take it yet; false when it may go now (or the parking is full: delayRequest then puts it back). */
  private parkIfBusy(request: Request): boolean {
    const pacer = this.policy.pacer;
    if (pacer === null) return false;
    const host = hostnameOf(request.url);
    return this.waitToBook(host) > 0 && this.parking.park(request, host, pacer.intervalOf(host));
  }

  /**
   * A request whose origin's robots.txt is being read waits for it outside the concurrency (an
   * unreachable host may take a DNS or connect timeout to fail), then is parked or skipped.
   */
  private awaitRobots(request: Request, verdict: Promise<boolean>): void {
    this.robotsWaiting++;
    const done = verdict.then(async (allowed) => {
      if (!allowed) return this.skipDisallowed(request);
      const pacer = this.policy.pacer;
      const host = hostnameOf(request.url);
      if (pacer === null || !this.parking.park(request, host, pacer.intervalOf(host))) {
        this.parking.parkReady(request, host);
      }
    }).catch(() => undefined).finally(() => {
      this.robotsWaiting--;
    });
    this.reclaims.add(done);
    void done.finally(() => this.reclaims.delete(done));
  }

  /** Records a request robots.txt disallows and marks it handled. */
  private async skipDisallowed(request: Request): Promise<void> {
    await this.policy.onDisallowed(request);
    await this.requestQueue!.markRequestHandled(request);
  }

  /** Replaces BasicCrawler._isTaskReadyFunction: a parked request whose host is ready is a task too. */
  protected override async _isTaskReadyFunction(): Promise<boolean> {
    return this.parking.hasReady((host) => this.waitToBook(host)) || super._isTaskReadyFunction();
  }

  /**
   * Replaces BasicCrawler._defaultIsFinishedFunction: not finished while requests are parked or
   * wait for robots.txt, or while handled pages still wait for verdicts whose links may come.
   */
  protected override async _defaultIsFinishedFunction(): Promise<boolean> {
    return this.parking.size === 0 && this.robotsWaiting === 0 && (this.policy.pendingWork?.() ?? 0) === 0 && super._defaultIsFinishedFunction();
  }

  /** Requests parked until their host's next start slot. */
  get parked(): number {
    return this.parking.size;
  }

  /** Requests waiting for their origin's robots.txt. */
  get waitingForRobots(): number {
    return this.robotsWaiting;
  }

  /** Whether the crawl stopped because it started `budget` requests. */
  get budgetReached(): boolean {
    return this.reachedBudget;
  }

  /** Resolves when every request put back by pacing or the budget is in the queue again. */
  async settled(): Promise<void> {
    while (this.reclaims.size > 0) await Promise.all([...this.reclaims]);
  }

  /**
   * Replaces BasicCrawler.delayRequest, which crawlee calls for each request taken from the queue
   * before processing it: enforces the page budget, and paces per host rather than per registrable
   * domain. A request held back stays locked (in progress) until put back, so the crawl does not
   * end meanwhile.
   */
  protected override delayRequest(request: Request, source: Parameters<CheerioCrawler['delayRequest']>[1]): boolean {
    const id = request.id ?? request.uniqueKey;
    if (!this.startedIds.has(id) && this.startedIds.size >= this.policy.budget) {
      this.reachedBudget = true;
      this.putBack(request, source, 0);
      this.stop('page budget reached');
      return true;
    }
    const pacer = this.policy.pacer;
    if (pacer !== null) {
      const host = hostnameOf(request.url);
      const booking = pacer.book(host, Date.now(), bookingHorizonMs(pacer.intervalOf(host)));
      if ('retryInMs' in booking) {
        this.putBack(request, source, booking.retryInMs);
        return true;
      }
      if (booking.startInMs > 0) this.startAt.set(request, Date.now() + booking.startInMs);
    }
    this.startedIds.add(id);
    return false;
  }

  private putBack(request: Request, source: Parameters<CheerioCrawler['delayRequest']>[1], delayMs: number): void {
    const done = new Promise<void>((resolve) => {
      setTimeout(() => {
        // To the head of the queue: a request held back for politeness keeps its turn.
        Promise.resolve(source.reclaimRequest(request, { forefront: true })).catch(() => undefined).finally(() => resolve());
      }, delayMs);
    });
    this.reclaims.add(done);
    void done.finally(() => this.reclaims.delete(done));
  }

  /** Replaces BasicCrawler._handleFailedRequestHandler: no error log, the failure is recorded instead. */
  protected override async _handleFailedRequestHandler(context: CheerioCrawlingContext, error: Error): Promise<void> {
    await this.policy.onFailed(context, error);
  }
}
