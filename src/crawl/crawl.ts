/**
 * `crawl()`: seeds in, a deduplicated corpus out. Each fetched page goes
 * fetch → decode (on the thread that drives crawlee) → one parse → extract → fingerprint →
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
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { LogLevel, log as crawleeLog } from '@crawlee/cheerio';
import type { Configuration } from '@crawlee/cheerio';
import type { CheerioCrawlingContext, Request } from '@crawlee/cheerio';
import type { Config } from '../config.js';
import { CrawlError, NeardupError, ValidationError, describeValue } from '../errors.js';
import type { PageInput, SkipReason } from '../types.js';
import { openDedupStage, type DedupStage } from './dedup-stage.js';
import { inCrawlScope, seedScope } from './crawl-scope.js';
import type { CrawlScope } from './crawl-scope.js';
import { hostnameOf, parseHttpUrl } from '../url/url-host.js';
import { CrawlLock } from './crawl-lock.js';
import { removeUnusedDataFolder } from '../store/data-folder.js';
import { LinkBudget, addAllOptions, newRequestCount } from './link-budget.js';
import { HostPacer } from './host-pacer.js';
import { PageCrawler } from './page-crawler.js';
import { findPageSkip } from '../errors.js';
import type { JournalEntry } from './frontier-journal.js';
import type { DurableRequestQueue } from './durable-request-queue.js';
import type { RequestQueue } from '@crawlee/cheerio';
import { checkPartitionedCrawl, endPartition, type PartitionedQueue, type PartitionOutcome } from './partitioned-queue.js';
import { crawleeDirOf, openCrawlQueue } from './open-crawl-queue.js';
import { RobotsCache, type OriginRobots } from './robots-cache.js';
import { SeedOutcomes } from './seed-outcomes.js';
import { PendingVerdicts, verdictLimit } from './pending-verdicts.js';
import { HostRates } from './crawl-activity.js';
import { MirrorMap } from './mirror-map.js';
import { RETRY_ON_NEW_RUN, SeedRetry } from './seed-retry.js';
import { randomUUID } from 'node:crypto';

import { urlHost } from '../url/url-host.js';

export { crawleeFolderName } from '../store/data-folder.js';

export type { CrawlOptions, CrawlPageEvent, CrawlPartitionOptions, CrawlProgress, CrawlSummary, PartitionSummary } from './crawl-types.js';
import type { CrawlOptions, CrawlPageEvent, CrawlProgress, CrawlSummary } from './crawl-types.js';
import { failureDetail, firstLine, lastModifiedIso } from './fetch-failure.js';
import { checkUserAgent } from './check-user-agent.js';

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
  readonly scope: CrawlScope;
  readonly robots: RobotsCache;
  /** What the queue may still take (link-budget.ts). */
  readonly linkBudget: LinkBudget;
  readonly dedup: DedupStage;
  /** Where a request's `done` waits for its page's verdict and links (deferDone). */
  readonly queue: Pick<DurableRequestQueue, 'deferDone' | 'settled'>;
  /** The shared frontier of a partitioned crawl, or null. */
  readonly partitioned: PartitionedQueue | null;
  /** Pages handed to the dedup stage whose verdicts have not arrived. */
  readonly verdicts: PendingVerdicts;
  readonly run: CrawlRun;
  readonly emit: (event: CrawlPageEvent) => void;
  /** URLs already recorded as robots skips in this run (a disallowed page is linked from many pages). */
  readonly robotsSkipped: Set<string>;
  /** Mirrors mapped within a budget: which duplicates' links are sampled, which hosts are no longer crawled (mirror-map.ts). */
  readonly mirrors: MirrorMap;
  /** Failed seeds tried again (seed-retry.ts). */
  readonly seedRetry: SeedRetry;
}

/** A failed seed queued again under a new request key, its skip and its origin's unreachable robots.txt forgotten (seed-retry.ts). */
async function retrySeed(ctx: CrawlContext, url: string): Promise<void> {
  if (ctx.run.fatal !== null || ctx.run.stopReason !== 'finished') return;
  ctx.robots.forgetUnreachable(url);
  ctx.robotsSkipped.delete(url);
  await ctx.dedup.forgetSkips([url], RETRY_ON_NEW_RUN, true);
  ctx.linkBudget.addedOutside(await enqueue(ctx, [{ url, crawlDepth: 0, uniqueKey: ctx.seedRetry.retryKey(url) }]));
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
 * The links of a page to enqueue: in scope (one URL parse each), the first `admit(count)` of those
 * (the link budget), not disallowed by a robots.txt already read. A link whose origin's robots.txt
 * is not known yet is enqueued too, and checked when the crawler takes it (page-crawler.ts): the
 * handler never waits for another host's robots.txt, which for an unreachable host can take a DNS
 * or connect timeout.
 */
async function linksToFollow(ctx: CrawlContext, links: readonly string[], depth: number, admit: (count: number) => number): Promise<JournalEntry[]> {
  const inScope: [string, URL][] = [];
  let toMirrors = 0;
  for (const link of links) {
    const url = parseHttpUrl(link);
    if (url === null || !inCrawlScope(ctx.scope, url)) continue;
    if (ctx.mirrors.avoids(url.hostname)) toMirrors++;
    else inScope.push([link, url]);
  }
  if (toMirrors > 0) ctx.mirrors.notQueued(toMirrors);
  const follow: JournalEntry[] = [];
  for (const [link, url] of inScope.slice(0, admit(inScope.length))) {
    if (ctx.robots.allows(url) === false) await recordRobotsSkip(ctx, link);
    else follow.push({ url: link, crawlDepth: depth });
  }
  return follow;
}

/**
 * Journalled first, then queued, by the queue itself (see durable-request-queue.ts), or sent to the
 * shared frontier of a partitioned crawl (pg-frontier-queue.ts); resolves with how many were new to
 * this process's queue.
 */
async function enqueue(ctx: CrawlContext, requests: readonly JournalEntry[]): Promise<number> {
  // Partitioned: every link goes to the shared frontier; the local queue takes only claimed rows.
  if (ctx.partitioned !== null) return ctx.partitioned.queue.enqueue(requests);
  return newRequestCount(await ctx.run.crawler!.addRequests([...requests], addAllOptions(requests.length)));
}

/** A page's links, within the link budget, queued (reserved links are settled whatever happens). */
async function followLinks(ctx: CrawlContext, links: readonly string[], depth: number): Promise<void> {
  const crawler = ctx.run.crawler!;
  let admitted = 0;
  let added = 0;
  try {
    const follow = await linksToFollow(ctx, links, depth, (count) => (admitted = ctx.linkBudget.admit(count, crawler.startedCount)));
    if (follow.length > 0) added = await enqueue(ctx, follow);
  } finally {
    ctx.linkBudget.settle(admitted, added);
  }
}

async function recordFailure(ctx: CrawlContext, url: string, depth: number | null, reason: SkipReason, detail: string): Promise<void> {
  await ctx.dedup.recordSkip(url, reason, detail);
  ctx.emit({ url, finalUrl: null, depth, title: '', decision: { kind: 'skipped', reason }, detail });
}

/**
 * One fetched page: handed to the dedup stage (which parses and extracts it too, in its worker
 * thread) and return; its verdict, and the links it lets the crawl follow, are dealt with when they
 * arrive (pending-verdicts.ts), while this concurrency slot fetches the next page.
 */
async function handlePage(ctx: CrawlContext, context: CheerioCrawlingContext): Promise<void> {
  const { run } = ctx;
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
  // The decoded HTML (page-crawler.ts decodes it and, with no `parse`, leaves it unparsed).
  const html = context.body as string;
  const work = commitAndFollow(ctx, request.url, depth, input, html);
  // The journal records the page done only once its links are journalled (or it was a duplicate).
  ctx.queue.deferDone(request, work);
  await ctx.verdicts.track(work, html.length);
}

/** The dedup stage's verdict on a page, then its links enqueued when it was not a duplicate. */
async function commitAndFollow(ctx: CrawlContext, url: string, depth: number, input: PageInput, html: string): Promise<void> {
  const { settings } = ctx;
  // Parse, extract, fingerprint, check-and-insert, corpus line: answered once written. A failure
  // stops the crawl (PendingVerdicts' onError); the page, never recorded done, is processed again
  // by the next run. A page that breaks the parser or the extractor is recorded (`parse-error`),
  // never allowed to stop the crawl.
  const committed = await ctx.dedup.commitFetched(input, html);
  const { decision } = committed;
  for (const mirror of committed.confirmedMirrors ?? []) ctx.mirrors.confirm(mirror);
  ctx.emit({ url, finalUrl: committed.finalUrl, depth, title: committed.title, decision, detail: committed.detail });
  const isDuplicate = decision.kind === 'exact' || decision.kind === 'near' || decision.kind === 'similar';
  if (depth >= settings.maxDepth) return;
  const host = urlHost(committed.finalUrl ?? url);
  if (!ctx.mirrors.follows(host, isDuplicate, committed.copyOfHost ?? null, inScopeCount(ctx, committed.links))) return;
  await followLinks(ctx, committed.links, depth + 1);
}

/** In-scope links among `links` (what the summary counts as not followed). */
function inScopeCount(ctx: CrawlContext, links: readonly string[]): number {
  let n = 0;
  for (const link of links) {
    const url = parseHttpUrl(link);
    if (url !== null && inCrawlScope(ctx.scope, url)) n++;
  }
  return n;
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
function createCrawler(ctx: CrawlContext, queue: RequestQueue, crawleeConfig: Configuration, pacer: HostPacer, budget: number): PageCrawler {
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
    // A queued request to a host confirmed a mirror is not fetched (mirror-map.ts).
    skipRequest: (request) => {
      const host = urlHost(request.url);
      if (!ctx.mirrors.avoids(host)) return false;
      ctx.mirrors.skipRequest(host!);
      return true;
    },
    pendingWork: () => ctx.verdicts.size + (ctx.partitioned?.queue.waiting ?? 0) + ctx.seedRetry.pending,
    // Not parsed here: the dedup stage parses and extracts each page (commit-fetched-pages.ts).
    parse: null,
    pacer,
    budget,
    onFailed: (context: CheerioCrawlingContext, error: Error) => handleFailure(ctx, context, error),
  });
}

/** Seeds admitted, then the crawl until it ends; sets the run's stop reason (or its fatal error). */
async function runCrawler(ctx: CrawlContext, seeds: readonly string[], budget: number, signal: AbortSignal | undefined): Promise<void> {
  const crawler = ctx.run.crawler!;
  try {
    // A seed an earlier run could not fetch is tried again, under a new request key (seed-retry.ts).
    const retried = new Set(await ctx.dedup.forgetSkips(seeds, RETRY_ON_NEW_RUN));
    // Partitioned: every process may be given every seed; each goes to the shared frontier once.
    const admitted = (await linksToFollow(ctx, seeds, 0, (count) => count))
      .map((entry) => (retried.has(entry.url) ? { ...entry, uniqueKey: ctx.seedRetry.retryKey(entry.url) } : entry));
    if (admitted.length > 0) ctx.linkBudget.addedOutside(await enqueue(ctx, admitted));
    if (budget > 0 && signal?.aborted !== true) {
      ctx.partitioned?.start((error) => stopOnStorageFailure(ctx.run, error));
      await crawler.run();
    }
    ctx.seedRetry.stop();
    await crawler.settled();
    if (crawler.budgetReached && ctx.run.stopReason === 'finished') ctx.run.stopReason = 'max-pages';
    if (budget === 0 && ctx.run.stopReason === 'finished') ctx.run.stopReason = 'max-pages';
  } catch (error) {
    ctx.run.fatal ??= error;
  }
  ctx.seedRetry.stop();
  // A stopped crawler does not wait for the verdicts of the pages it handled; the data folder is
  // closed only after them.
  await ctx.verdicts.settled();
  await ctx.queue.settled();
}

/**
 * Crawls from the seeds into the data folder; resolves with a summary when the crawl ends. Throws
 * CrawlLockedError at once, before touching the folder, while another crawl runs on it
 * (crawl-lock.ts), or, for a partitioned crawl, while another process runs the same partition
 * (pg-frontier.ts). Bad seeds, scope or partition are refused before anything is written.
 */
export async function crawl(options: CrawlOptions): Promise<CrawlSummary> {
  const dataDir = options.dataDir ?? './data';
  checkUserAgent(options.config.crawl.userAgent);
  const { seeds, scope } = seedScope(options.seeds, options.config.crawl.scope);
  checkPartitionedCrawl(options);
  const existed = existsSync(dataDir);
  const lock = CrawlLock.acquire(dataDir);
  let failed = false;
  try {
    return await crawlHoldingLock(options, dataDir, seeds, scope);
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    lock.release();
    if (failed && !existed) removeUnusedDataFolder(dataDir); // e.g. PostgreSQL unreachable: no --data left behind
  }
}

async function crawlHoldingLock(options: CrawlOptions, dataDir: string, seeds: readonly string[], scope: CrawlScope): Promise<CrawlSummary> {
  const { config } = options;
  const settings = config.crawl;
  const crawleeDir = crawleeDirOf(dataDir);
  const dedup = await openDedupStage({ dataDir, config, indexUrl: options.indexUrl ?? null, worker: options.dedupWorker ?? availableParallelism() > 1 });
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
  const { crawleeConfig, queue, resume, partitioned, pendingAtStart } = await openCrawlQueue(crawleeDir, dedup, options);
  const budget = Math.max(0, settings.maxPages - resume.handledBefore);
  // Pending at the start: the journal's requests added and not done (the queue was filled from it).
  const linkBudget = new LinkBudget({
    maxLinksPerPage: settings.maxLinksPerPage, queueBudgetMultiple: settings.queueBudgetMultiple, budget, pendingAtStart,
  });
  const ctx: CrawlContext = {
    settings, scope, robots, linkBudget, dedup, queue, partitioned, run,
    verdicts: new PendingVerdicts(verdictLimit(settings.concurrency), (error) => stopOnStorageFailure(run, error)),
    emit: (event) => {
      seedOutcomes.observe(event.url, event.decision, event.detail);
      if (event.decision.kind === 'skipped') ctx.seedRetry.afterFailure(event.url, event.decision.reason, () => retrySeed(ctx, event.url));
      options.onPage?.(event);
    },
    robotsSkipped: new Set<string>(),
    mirrors: new MirrorMap({ followDuplicates: settings.followDuplicates }),
    seedRetry: new SeedRetry(seeds, { runId: randomUUID().slice(0, 8), ...(options.seedRetryDelaysMs === undefined ? {} : { delaysMs: options.seedRetryDelaysMs }) }),
  };
  const crawler = createCrawler(ctx, queue, crawleeConfig, pacer, budget);
  run.crawler = crawler;
  await runWithSignals(ctx, options, seeds, budget, progress);

  let partitionEnd: PartitionOutcome | null = null;
  try {
    partitionEnd = partitioned === null ? null : await endPartition(partitioned);
  } catch (error) {
    run.fatal ??= error;
  }
  const pending = partitionEnd?.pending ?? (queue as DurableRequestQueue).pendingCount;
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
    linksDropped: linkBudget.dropped, stopReason: run.stopReason, seedOutcomes: seedOutcomes.outcomes(), partition: partitionEnd?.summary ?? null,
    linksNotFollowed: ctx.mirrors.linksNotFollowed, hostMirrors: ctx.mirrors.mirrors,
  };
}

/** runCrawler, stopped by the abort signal, with progress reported while it runs. */
async function runWithSignals(ctx: CrawlContext, options: CrawlOptions, seeds: readonly string[], budget: number, progress: () => CrawlProgress): Promise<void> {
  const { run } = ctx;
  const onAbort = () => {
    run.stopReason = 'aborted';
    run.crawler!.stop('aborted');
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
}
