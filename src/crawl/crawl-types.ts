/**
 * The types of `crawl()`'s API: its options, the page events and progress it reports, and the
 * summary it resolves with (crawl.ts re-exports them).
 */
import type { Config } from '../config.js';
import type { Decision, PipelineCounters } from '../types.js';
import type { CrawlWaiting, HostRate } from './crawl-activity.js';
import type { SeedOutcome } from './seed-outcomes.js';

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
  /** In-scope links this run left out of the queue (over maxLinksPerPage or the queue bound: link-budget.ts). */
  readonly linksDropped: number;
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
  /** A PostgreSQL index shared with other crawler processes instead of dataDir's neardup.db. @default null */
  readonly indexUrl?: string | null;
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
