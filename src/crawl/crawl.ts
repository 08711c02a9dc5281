/**
 * `crawl()`: seeds in, a deduplicated corpus out. Each fetched page goes
 * fetch → decode → one parse → extract (on the thread that drives crawlee) → fingerprint →
 * check-and-insert → corpus line (the dedup stage, src/crawl/dedup-stage.ts: a worker thread on a
 * machine with two cores or more), and only a page that was stored (or was too short to judge,
 * like a list of articles) has its links followed; a page rejected as a duplicate does not,
 * unless `crawl.followDuplicates` is set.
 *
 * Everything lives in the data folder: neardup.db, corpus.jsonl, and the frontier journal in
 * `crawlee/` (crawlee's request queue itself is in memory, rebuilt from the journal: see
 * frontier-journal.ts). Run again with the same folder, an interrupted crawl resumes: handled
 * requests are not fetched again, requests left in progress by a killed process are pending again,
 * and the page budget (`crawl.maxPages`) counts the pages of earlier runs too.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { LogLevel, log as crawleeLog } from '@crawlee/cheerio';
import type { Configuration } from '@crawlee/cheerio';
import type { CheerioCrawlingContext, Request } from '@crawlee/cheerio';
import type { CheerioAPI } from 'cheerio';
import type { Config } from '../config.js';
import { CrawlError, NeardupError, StorageError, ValidationError } from '../errors.js';
import { extractParsedPage, parsePage } from '../analyze/analyze-page.js';
import type { Decision, ExtractedPage, PageInput, PipelineCounters, SkipReason } from '../types.js';
import { openDedupStage } from './dedup-stage.js';
import type { CommitResult } from '../pipeline.js';
import { createCrawlScope, inCrawlScope, parseHttpUrl } from './crawl-scope.js';
import { crawleeConfiguration } from './crawlee-configuration.js';
import { HostPacer } from './host-pacer.js';
import { PageCrawler } from './page-crawler.js';
import { findPageSkip } from '../errors.js';
import { frontierJournalName } from './frontier-journal.js';
import type { JournalEntry } from './frontier-journal.js';
import { openDurableRequestQueue, type DurableRequestQueue, type FrontierResume } from './durable-request-queue.js';
import { crawleeFolderName as crawleeFolder } from '../store/data-folder.js';
import { RobotsCache, type OriginRobots } from './robots-cache.js';

export { crawleeFolderName } from '../store/data-folder.js';

/** One page's outcome, as it happens. */
export interface CrawlPageEvent {
  readonly url: string;
  /** URL after redirects, or null. */
  readonly finalUrl: string | null;
  /** Link depth from the seeds, or null for a page never fetched (a robots.txt skip). */
  readonly depth: number | null;
  readonly title: string;
  readonly decision: Decision;
  /** Why a skipped page was skipped ('' otherwise). */
  readonly detail: string;
}

/** Counters while crawling. */
export interface CrawlProgress extends PipelineCounters {
  /** Requests fetched (or failed for good) in this run. */
  readonly fetched: number;
  readonly elapsedMs: number;
  /** Fetched pages per second in this run. */
  readonly pagesPerSec: number;
}

/** What a crawl did. */
export interface CrawlSummary extends CrawlProgress {
  readonly dataDir: string;
  readonly seeds: readonly string[];
  /** Requests handled by earlier runs on this data folder (a resumed crawl). */
  readonly handledBefore: number;
  /** In-progress requests of a stopped run, pending again at the start. */
  readonly releasedLocks: number;
  /** 1 when the frontier journal ended in a torn line (a process killed while appending), repaired at the start. */
  readonly repairedRequests: number;
  /** Requests still in the queue: 0 when the crawl finished. */
  readonly pending: number;
  /** Why the crawl ended. */
  readonly stopReason: 'finished' | 'max-pages' | 'aborted';
}

export interface CrawlOptions {
  /** Start URLs (http or https). Their hosts (or domains) make the scope. */
  readonly seeds: readonly string[];
  /** Folder of the database, the corpus and the request queue; created if missing. @default './data' */
  readonly dataDir?: string;
  readonly config: Config;
  /** Aborting stops fetching new pages; pages in flight finish, the queue keeps the rest. */
  readonly signal?: AbortSignal;
  /** Called after each page's decision (and each robots.txt skip). */
  readonly onPage?: (event: CrawlPageEvent) => void;
  /** Called every `progressIntervalMs` while crawling. */
  readonly onProgress?: (progress: CrawlProgress) => void;
  /** @default 1000 */
  readonly progressIntervalMs?: number;
  /**
   * Run deduplication (fingerprints, the index, the corpus) in a worker thread, off the thread
   * that drives the crawl (src/crawl/dedup-stage.ts).
   * @default true when the machine has more than one core
   */
  readonly dedupWorker?: boolean;
}

function lastModifiedIso(header: string | string[] | undefined): string | null {
  if (typeof header !== 'string') return null;
  const ms = Date.parse(header);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

/** The skip of a URL robots.txt does not let us fetch, from what is known of its origin. */
function robotsSkipOf(origin: OriginRobots): { reason: SkipReason; detail: string } {
  if (origin.source === 'fetched') return { reason: 'robots', detail: 'disallowed by robots.txt' };
  if (origin.source.startsWith('unreachable')) return { reason: 'unreachable', detail: `robots.txt ${origin.source}` };
  return { reason: 'robots', detail: `robots.txt ${origin.source}` };
}

function firstLine(message: string): string {
  const line = message.split('\n', 1)[0]!.trim();
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}

/** The first informative line of a fetch error (crawlee prefixes connection errors with a session notice). */
function failureDetail(error: Error): string {
  const lines = String(error.message).split('\n').map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('Detected a session error') && !line.startsWith('at '));
  return firstLine(lines[0] ?? error.name);
}

/** Crawls from the seeds into the data folder; resolves with a summary when the crawl ends. */
export async function crawl(options: CrawlOptions): Promise<CrawlSummary> {
  const { config } = options;
  const settings = config.crawl;
  const dataDir = options.dataDir ?? './data';
  if (!Array.isArray(options.seeds) || options.seeds.length === 0) {
    throw new ValidationError('Expected at least one seed URL');
  }
  const seeds = [...options.seeds];
  const scope = createCrawlScope(seeds, settings.scope);

  const crawleeDir = join(dataDir, crawleeFolder);
  try {
    mkdirSync(crawleeDir, { recursive: true });
  } catch (error) {
    throw new StorageError(`Cannot create \`${crawleeDir}\`: ${(error as Error).message}`, { cause: error });
  }
  const dedup = await openDedupStage({ dataDir, config, worker: options.dedupWorker ?? availableParallelism() > 1 });
  let errors = 0;
  const started = Date.now();
  let fetched = 0;
  let fatal: unknown = null;
  let stopReason: CrawlSummary['stopReason'] = 'finished';

  const progress = (): CrawlProgress => {
    const elapsedMs = Date.now() - started;
    return {
      ...dedup.counters,
      errors: dedup.counters.errors + errors,
      fetched,
      elapsedMs,
      pagesPerSec: elapsedMs > 0 ? (fetched * 1000) / elapsedMs : 0,
    };
  };

  const emit = (event: CrawlPageEvent) => {
    options.onPage?.(event);
  };

  const pacer = new HostPacer({ intervalMs: 60_000 / settings.maxRequestsPerMinutePerHost });
  const robots = new RobotsCache({
    userAgent: settings.userAgent,
    timeoutMs: settings.requestTimeoutSecs * 1000,
    enabled: settings.respectRobots,
    onOrigin: (origin, found) => pacer.setCrawlDelay(hostOf(origin), found.policy.crawlDelaySecs),
  });
  // URLs already recorded as robots skips in this run (a disallowed page is linked from many pages).
  const robotsSkipped = new Set<string>();

  /**
   * Records a URL robots.txt does not let us fetch (once per run): `robots` for a rule of a
   * robots.txt that was read, `unreachable` (with the error) when the host's robots.txt could not
   * be reached, which RFC 9309 also reads as "disallow all".
   */
  const recordRobotsSkip = async (url: string): Promise<void> => {
    if (robotsSkipped.has(url)) return;
    robotsSkipped.add(url);
    const { reason, detail } = robotsSkipOf(await robots.forUrl(url));
    await dedup.recordSkip(url, reason, detail);
    emit({ url, finalUrl: null, depth: null, title: '', decision: { kind: 'skipped', reason }, detail });
  };

  /**
   * The links of a page to enqueue: in scope and not disallowed by a robots.txt already read (one
   * URL parse each). A link whose origin's robots.txt is not known yet is enqueued too, and checked
   * when the crawler takes it (page-crawler.ts): the handler never waits for another host's
   * robots.txt, which for an unreachable host can take a DNS or connect timeout.
   */
  const linksToFollow = async (links: readonly string[], depth: number): Promise<{ url: string; crawlDepth: number }[]> => {
    const follow: { url: string; crawlDepth: number }[] = [];
    for (const link of links) {
      const url = parseHttpUrl(link);
      if (url === null || !inCrawlScope(scope, url)) continue;
      if (robots.allows(url) === false) await recordRobotsSkip(link);
      else follow.push({ url: link, crawlDepth: depth });
    }
    return follow;
  };

  let crawleeConfig: Configuration;
  let queue: DurableRequestQueue;
  let resume: FrontierResume;
  try {
    crawleeConfig = crawleeConfiguration(crawleeDir);
    ({ queue, resume } = await openDurableRequestQueue(crawleeConfig, join(crawleeDir, frontierJournalName)));
  } catch (error) {
    await dedup.close();
    throw new CrawlError(`Cannot open the request queue in \`${crawleeDir}\`: ${(error as Error).message}`, { cause: error });
  }
  const { handledBefore, interrupted: releasedLocks, tornLines: repairedRequests } = resume;
  const budget = Math.max(0, settings.maxPages - handledBefore);

  /** The database or the corpus failed: nothing more can be stored, so the crawl stops. */
  /**
   * A failed write stops the crawl. The request is left to crawlee's retry (not `noRetry`): it goes
   * back to the queue, pending, and the crawler, stopping, does not take it again. The next run
   * processes it again, and gets what this one could not write: the corpus line of a page whose
   * insert committed before the append failed (corpus-writer.ts, invariant 4), and its links. With
   * `noRetry` crawlee would mark it handled, and both would be lost for good.
   */
  const stopOnStorageFailure = (error: unknown): never => {
    fatal ??= error;
    crawler.stop('storage failed');
    throw error;
  };

  /** Journalled first, then queued, by the queue itself: see durable-request-queue.ts. */
  const enqueue = async (requests: readonly JournalEntry[]): Promise<void> => {
    await crawler.addRequests([...requests], { waitForAllRequestsToBeAdded: true });
  };

  const recordFailure = async (url: string, depth: number | null, reason: SkipReason, detail: string): Promise<void> => {
    await dedup.recordSkip(url, reason, detail);
    emit({ url, finalUrl: null, depth, title: '', decision: { kind: 'skipped', reason }, detail });
  };

  const crawler: PageCrawler = new PageCrawler({
    requestQueue: queue,
    maxConcurrency: settings.concurrency,
    minConcurrency: settings.concurrency,
    maxRequestRetries: 2,
    // Connection errors count as "session" errors in crawlee, retried up to 10 times by default.
    maxSessionRotations: 2,
    navigationTimeoutSecs: settings.requestTimeoutSecs,
    requestHandlerTimeoutSecs: 60,
    useSessionPool: false,
    persistCookiesPerSession: false,
    ignoreSslErrors: false,
    respectRobotsTxtFile: false, // robots.txt is obeyed by RobotsCache, see robots-cache.ts
    statisticsOptions: { persistenceOptions: { enable: false } },
    // Off: its warnings are retries (whose outcome is recorded) and a Ctrl-C hint naming crawlee's
    // environment variables; its errors repeat what is recorded as a skip (onFailed) or, for a
    // storage failure, what stops the crawl and reaches the user as one line from the CLI.
    log: crawleeLog.child({ prefix: 'neardup', level: LogLevel.OFF }),
    requestHandler: async (context) => {
      fetched++;
      const { request, response } = context;
      const depth = request.crawlDepth;
      const input: PageInput = {
        url: request.url,
        finalUrl: request.loadedUrl ?? request.url,
        fetchedAt: Date.now(),
        lastModified: lastModifiedIso(response.headers['last-modified']),
        depth,
      };
      let page: ExtractedPage;
      try {
        page = extractParsedPage(context.$ as unknown as CheerioAPI, input);
      } catch (error) {
        // A page that breaks the extractor is recorded, never allowed to stop the crawl.
        errors++;
        await recordFailure(request.url, depth, 'parse-error', firstLine((error as Error).message)).catch((e: unknown) => stopOnStorageFailure(e));
        return;
      }
      let committed: CommitResult;
      try {
        // Fingerprint, check-and-insert, corpus line: answered once written.
        committed = await dedup.commitPage(input, page);
      } catch (error) {
        return stopOnStorageFailure(error);
      }
      const { decision } = committed;
      emit({ url: request.url, finalUrl: committed.finalUrl, depth, title: committed.title, decision, detail: committed.detail });
      const isDuplicate = decision.kind === 'exact' || decision.kind === 'near';
      if ((isDuplicate && !settings.followDuplicates) || depth >= settings.maxDepth) return;
      const links = await linksToFollow(page.links, depth + 1);
      // Added before the handler returns, so that a request marked handled always has its links queued.
      if (links.length > 0) await enqueue(links);
    },
  }, crawleeConfig, {
    userAgent: settings.userAgent,
    maxPageBytes: settings.maxPageBytes,
    maxRedirects: settings.maxRedirects,
    allowRedirect: (url) => inCrawlScope(scope, url),
    robotsAllowRedirect: (url) => robots.allows(url),
    robotsAllow: (url) => robots.allows(url),
    onDisallowed: (request) => recordRobotsSkip(request.url),
    parse: parsePage as (html: string) => CheerioAPI,
    pacer,
    budget,
    onFailed: async (context: CheerioCrawlingContext, error: Error) => {
      const request: Request = context.request;
      fetched++;
      if (fatal !== null) return;
      const skip = findPageSkip(error);
      try {
        if (skip !== null) await recordFailure(request.url, request.crawlDepth, skip.reason, skip.detail);
        else await recordFailure(request.url, request.crawlDepth, 'fetch-error', failureDetail(error));
      } catch (failure) {
        fatal ??= failure;
        crawler.stop('storage failed');
      }
    },
  });

  const onAbort = () => {
    stopReason = 'aborted';
    crawler.stop('aborted');
  };
  if (options.signal?.aborted === true) onAbort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const ticker = options.onProgress === undefined
    ? null
    : setInterval(() => options.onProgress!(progress()), options.progressIntervalMs ?? 1000);
  ticker?.unref();

  try {
    const admitted = await linksToFollow(seeds, 0);
    if (admitted.length > 0) await enqueue(admitted);
    if (budget > 0 && options.signal?.aborted !== true) await crawler.run();
    await crawler.settled();
    if (crawler.budgetReached && stopReason === 'finished') stopReason = 'max-pages';
    if (budget === 0 && stopReason === 'finished') stopReason = 'max-pages';
  } catch (error) {
    fatal ??= error;
  } finally {
    if (ticker !== null) clearInterval(ticker);
    options.signal?.removeEventListener('abort', onAbort);
  }

  const pending = queue.pendingCount;
  try {
    await dedup.close();
  } catch (error) {
    fatal ??= error;
  }
  if (fatal !== null) {
    if (fatal instanceof NeardupError) throw fatal;
    throw new CrawlError(`Crawl failed: ${firstLine((fatal as Error).message ?? String(fatal))}`, { cause: fatal });
  }
  if (stopReason === 'finished' && pending > 0) stopReason = 'max-pages';
  return { ...progress(), dataDir, seeds, handledBefore, releasedLocks, repairedRequests, pending, stopReason };
}
