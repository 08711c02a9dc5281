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
import { openDedupStage, type DedupStage } from './dedup-stage.js';
import type { CommitResult } from '../pipeline.js';
import { createCrawlScope, inCrawlScope } from './crawl-scope.js';
import { hostnameOf, parseHttpUrl } from '../url/url-host.js';
import { crawleeConfiguration } from './crawlee-configuration.js';
import { HostPacer } from './host-pacer.js';
import { PageCrawler } from './page-crawler.js';
import { findPageSkip } from '../errors.js';
import { frontierJournalName } from './frontier-journal.js';
import type { JournalEntry } from './frontier-journal.js';
import { openDurableRequestQueue, type DurableRequestQueue, type FrontierResume } from './durable-request-queue.js';
import { crawleeFolderName as crawleeFolder } from '../store/data-folder.js';
import { RobotsCache, type OriginRobots } from './robots-cache.js';
import { SeedOutcomes, type SeedOutcome } from './seed-outcomes.js';
import { PendingVerdicts } from './pending-verdicts.js';
import { HostRates, type CrawlWaiting, type HostRate } from './crawl-activity.js';

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
  /** The busiest hosts' requests per second (at most 3). */
  readonly hostRates: readonly HostRate[];
  /** Requests waiting on politeness, robots.txt and the dedup stage. */
  readonly waiting: CrawlWaiting;
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
  /** What became of each seed in this run (a seed that could not be fetched, with its cause). */
  readonly seedOutcomes: readonly SeedOutcome[];
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

/** `<dataDir>/crawlee`, created. */
function crawleeDirOf(dataDir: string): string {
  const crawleeDir = join(dataDir, crawleeFolder);
  try {
    mkdirSync(crawleeDir, { recursive: true });
  } catch (error) {
    throw new StorageError(`Cannot create \`${crawleeDir}\`: ${(error as Error).message}`, { cause: error });
  }
  return crawleeDir;
}

/**
 * crawlee's configuration and request queue of the data folder, the queue filled from the
 * frontier journal (the dedup stage closed if they fail).
 */
async function openQueue(crawleeDir: string, dedup: DedupStage): Promise<{ crawleeConfig: Configuration; queue: DurableRequestQueue; resume: FrontierResume }> {
  try {
    const crawleeConfig = crawleeConfiguration(crawleeDir);
    const { queue, resume } = await openDurableRequestQueue(crawleeConfig, join(crawleeDir, frontierJournalName));
    return { crawleeConfig, queue, resume };
  } catch (error) {
    await dedup.close();
    throw new CrawlError(`Cannot open the request queue in \`${crawleeDir}\`: ${(error as Error).message}`, { cause: error });
  }
}

/** What one run of a crawl changes as it goes. */
interface CrawlRun {
  fetched: number;
  /** Pages that broke the extractor (the dedup stage counts its own errors). */
  errors: number;
  /** The first error that stops the crawl (a failed write), or null. */
  fatal: unknown;
  stopReason: CrawlSummary['stopReason'];
  /** Set once the crawler exists; stopping before that is never needed. */
  crawler: PageCrawler | null;
  readonly hostRates: HostRates;
}

/**
 * A failed write stops the crawl. The request is left to crawlee's retry (not `noRetry`): it goes
 * back to the queue, pending, and the crawler, stopping, does not take it again. The next run
 * processes it again, and gets what this one could not write: the corpus line of a page whose
 * insert committed before the append failed (corpus-writer.ts, invariant 4), and its links. With
 * `noRetry` crawlee would mark it handled, and both would be lost for good.
 */
function stopOnStorageFailure(run: CrawlRun, error: unknown): void {
  run.fatal ??= error;
  run.crawler?.stop('storage failed');
}

/** What the page handler, the failure handler and the link filter share. */
interface CrawlContext {
  readonly settings: Config['crawl'];
  readonly scope: ReturnType<typeof createCrawlScope>;
  readonly robots: RobotsCache;
  readonly dedup: DedupStage;
  readonly queue: DurableRequestQueue;
  /** Pages handed to the dedup stage whose verdicts have not arrived. */
  readonly verdicts: PendingVerdicts;
  readonly run: CrawlRun;
  readonly emit: (event: CrawlPageEvent) => void;
  /** URLs already recorded as robots skips in this run (a disallowed page is linked from many pages). */
  readonly robotsSkipped: Set<string>;
}

/** The skip of a URL robots.txt does not let us fetch, from what is known of its origin. */
function robotsSkipOf(origin: OriginRobots): { reason: SkipReason; detail: string } {
  if (origin.source === 'fetched') return { reason: 'robots', detail: 'disallowed by robots.txt' };
  if (origin.source.startsWith('unreachable')) return { reason: 'unreachable', detail: `robots.txt ${origin.source}` };
  return { reason: 'robots', detail: `robots.txt ${origin.source}` };
}

/**
 * Records a URL robots.txt does not let us fetch (once per run): `robots` for a rule of a
 * robots.txt that was read, `unreachable` (with the error) when the host's robots.txt could not be
 * reached, which RFC 9309 also reads as "disallow all".
 */
async function recordRobotsSkip(ctx: CrawlContext, url: string): Promise<void> {
  if (ctx.robotsSkipped.has(url)) return;
  ctx.robotsSkipped.add(url);
  const { reason, detail } = robotsSkipOf(await ctx.robots.forUrl(url));
  await ctx.dedup.recordSkip(url, reason, detail);
  ctx.emit({ url, finalUrl: null, depth: null, title: '', decision: { kind: 'skipped', reason }, detail });
}

/**
 * The links of a page to enqueue: in scope and not disallowed by a robots.txt already read (one
 * URL parse each). A link whose origin's robots.txt is not known yet is enqueued too, and checked
 * when the crawler takes it (page-crawler.ts): the handler never waits for another host's
 * robots.txt, which for an unreachable host can take a DNS or connect timeout.
 */
async function linksToFollow(ctx: CrawlContext, links: readonly string[], depth: number): Promise<{ url: string; crawlDepth: number }[]> {
  const follow: { url: string; crawlDepth: number }[] = [];
  for (const link of links) {
    const url = parseHttpUrl(link);
    if (url === null || !inCrawlScope(ctx.scope, url)) continue;
    if (ctx.robots.allows(url) === false) await recordRobotsSkip(ctx, link);
    else follow.push({ url: link, crawlDepth: depth });
  }
  return follow;
}

/** Journalled first, then queued, by the queue itself: see durable-request-queue.ts. */
async function enqueue(ctx: CrawlContext, requests: readonly JournalEntry[]): Promise<void> {
  await ctx.run.crawler!.addRequests([...requests], { waitForAllRequestsToBeAdded: true });
}

async function recordFailure(ctx: CrawlContext, url: string, depth: number | null, reason: SkipReason, detail: string): Promise<void> {
  await ctx.dedup.recordSkip(url, reason, detail);
  ctx.emit({ url, finalUrl: null, depth, title: '', decision: { kind: 'skipped', reason }, detail });
}

/**
 * One fetched page: extract, then hand to the dedup stage and return; its verdict, and the links it
 * lets the crawl follow, are dealt with when they arrive (pending-verdicts.ts), while this
 * concurrency slot fetches the next page.
 */
async function handlePage(ctx: CrawlContext, context: CheerioCrawlingContext): Promise<void> {
  const { run, settings } = ctx;
  run.fetched++;
  run.hostRates.record(context.request.url);
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
    run.errors++;
    await recordFailure(ctx, request.url, depth, 'parse-error', firstLine((error as Error).message)).catch((e: unknown) => {
      stopOnStorageFailure(run, e);
      throw e;
    });
    return;
  }
  const work = commitAndFollow(ctx, request.url, depth, input, page);
  // The journal records the page done only once its links are journalled (or it was a duplicate).
  ctx.queue.deferDone(request, work);
  await ctx.verdicts.track(work);
}

/** The dedup stage's verdict on a page, then its links enqueued when it was not a duplicate. */
async function commitAndFollow(ctx: CrawlContext, url: string, depth: number, input: PageInput, page: ExtractedPage): Promise<void> {
  const { settings } = ctx;
  // Fingerprint, check-and-insert, corpus line: answered once written. A failure stops the crawl
  // (PendingVerdicts' onError); the page, never recorded done, is processed again by the next run.
  const committed: CommitResult = await ctx.dedup.commitPage(input, page);
  const { decision } = committed;
  ctx.emit({ url, finalUrl: committed.finalUrl, depth, title: committed.title, decision, detail: committed.detail });
  const isDuplicate = decision.kind === 'exact' || decision.kind === 'near';
  if ((isDuplicate && !settings.followDuplicates) || depth >= settings.maxDepth) return;
  const links = await linksToFollow(ctx, page.links, depth + 1);
  if (links.length > 0) await enqueue(ctx, links);
}

/** A request that failed for good: recorded as a skip with its reason. */
async function handleFailure(ctx: CrawlContext, context: CheerioCrawlingContext, error: Error): Promise<void> {
  const request: Request = context.request;
  ctx.run.fetched++;
  ctx.run.hostRates.record(request.url);
  if (ctx.run.fatal !== null) return;
  const skip = findPageSkip(error);
  try {
    if (skip !== null) await recordFailure(ctx, request.url, request.crawlDepth, skip.reason, skip.detail);
    else await recordFailure(ctx, request.url, request.crawlDepth, 'fetch-error', failureDetail(error));
  } catch (failure) {
    stopOnStorageFailure(ctx.run, failure);
  }
}

/** The crawler of one run: crawlee's options, neardup's fetch policy and the two handlers. */
function createCrawler(ctx: CrawlContext, queue: DurableRequestQueue, crawleeConfig: Configuration, pacer: HostPacer, budget: number): PageCrawler {
  const { settings } = ctx;
  return new PageCrawler({
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
    requestHandler: (context) => handlePage(ctx, context),
  }, crawleeConfig, {
    userAgent: settings.userAgent,
    maxPageBytes: settings.maxPageBytes,
    maxRedirects: settings.maxRedirects,
    allowRedirect: (url) => inCrawlScope(ctx.scope, url),
    robotsAllowRedirect: (url) => ctx.robots.allows(url),
    robotsAllow: (url) => ctx.robots.allows(url),
    onDisallowed: (request) => recordRobotsSkip(ctx, request.url),
    pendingWork: () => ctx.verdicts.size,
    parse: parsePage as (html: string) => CheerioAPI,
    pacer,
    budget,
    onFailed: (context: CheerioCrawlingContext, error: Error) => handleFailure(ctx, context, error),
  });
}

/** Seeds admitted, then the crawl until it ends; sets the run's stop reason (or its fatal error). */
async function runCrawler(ctx: CrawlContext, seeds: readonly string[], budget: number, signal: AbortSignal | undefined): Promise<void> {
  const crawler = ctx.run.crawler!;
  try {
    const admitted = await linksToFollow(ctx, seeds, 0);
    if (admitted.length > 0) await enqueue(ctx, admitted);
    if (budget > 0 && signal?.aborted !== true) await crawler.run();
    await crawler.settled();
    if (crawler.budgetReached && ctx.run.stopReason === 'finished') ctx.run.stopReason = 'max-pages';
    if (budget === 0 && ctx.run.stopReason === 'finished') ctx.run.stopReason = 'max-pages';
  } catch (error) {
    ctx.run.fatal ??= error;
  }
  // A stopped crawler does not wait for the verdicts of the pages it handled; the data folder is
  // closed only after them.
  await ctx.verdicts.settled();
  await ctx.queue.settled();
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
  const crawleeDir = crawleeDirOf(dataDir);
  const dedup = await openDedupStage({ dataDir, config, worker: options.dedupWorker ?? availableParallelism() > 1 });
  const run: CrawlRun = { fetched: 0, errors: 0, fatal: null, stopReason: 'finished', crawler: null, hostRates: new HostRates() };
  const started = Date.now();
  const progress = (): CrawlProgress => {
    const elapsedMs = Date.now() - started;
    return {
      ...dedup.counters,
      errors: dedup.counters.errors + run.errors,
      fetched: run.fetched,
      hostRates: run.hostRates.top(3, elapsedMs),
      waiting: { politeness: run.crawler?.parked ?? 0, robots: run.crawler?.waitingForRobots ?? 0, dedup: ctx.verdicts.size },
      elapsedMs,
      pagesPerSec: elapsedMs > 0 ? (run.fetched * 1000) / elapsedMs : 0,
    };
  };

  const seedOutcomes = new SeedOutcomes(seeds);
  const pacer = new HostPacer({ intervalMs: 60_000 / settings.maxRequestsPerMinutePerHost });
  const robots = new RobotsCache({
    userAgent: settings.userAgent,
    timeoutMs: settings.requestTimeoutSecs * 1000,
    enabled: settings.respectRobots,
    onOrigin: (origin, found) => pacer.setCrawlDelay(hostnameOf(origin), found.policy.crawlDelaySecs),
  });
  const { crawleeConfig, queue, resume } = await openQueue(crawleeDir, dedup);
  const ctx: CrawlContext = {
    settings, scope, robots, dedup, queue, run,
    verdicts: new PendingVerdicts(settings.concurrency, (error) => stopOnStorageFailure(run, error)),
    emit: (event) => {
      seedOutcomes.observe(event.url, event.decision, event.detail);
      options.onPage?.(event);
    },
    robotsSkipped: new Set<string>(),
  };
  const budget = Math.max(0, settings.maxPages - resume.handledBefore);
  const crawler = createCrawler(ctx, queue, crawleeConfig, pacer, budget);
  run.crawler = crawler;

  const onAbort = () => {
    run.stopReason = 'aborted';
    crawler.stop('aborted');
  };
  if (options.signal?.aborted === true) onAbort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const ticker = options.onProgress === undefined
    ? null
    : setInterval(() => options.onProgress!(progress()), options.progressIntervalMs ?? 1000);
  ticker?.unref();
  try {
    await runCrawler(ctx, seeds, budget, options.signal);
  } finally {
    if (ticker !== null) clearInterval(ticker);
    options.signal?.removeEventListener('abort', onAbort);
  }

  const pending = queue.pendingCount;
  try {
    await dedup.close();
  } catch (error) {
    run.fatal ??= error;
  }
  if (run.fatal !== null) {
    if (run.fatal instanceof NeardupError) throw run.fatal;
    throw new CrawlError(`Crawl failed: ${firstLine((run.fatal as Error).message ?? String(run.fatal))}`, { cause: run.fatal });
  }
  if (run.stopReason === 'finished' && pending > 0) run.stopReason = 'max-pages';
  return {
    ...progress(), dataDir, seeds, handledBefore: resume.handledBefore, releasedLocks: resume.interrupted, repairedRequests: resume.tornLines, pending,
    stopReason: run.stopReason, seedOutcomes: seedOutcomes.outcomes(),
  };
}
