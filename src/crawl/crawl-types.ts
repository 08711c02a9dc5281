/**
 * The types of `crawl()`'s API: its options, the page events and progress it reports, and the
 * summary it resolves with (crawl.ts re-exports them).
 */
import type { Config } from '../config.js';
import type { Decision, PipelineCounters } from '../types.js';
import type { CrawlWaiting, HostRate } from './crawl-activity.js';
import type { SeedOutcome } from './seed-outcomes.js';
import type { LinksNotFollowed, MappedMirror } from './mirror-map.js';

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
  /** A partitioned crawl's share and what it left in the shared frontier; null for a lone crawl. */
  readonly partition: PartitionSummary | null;
  /** In-scope links this run did not follow, by reason (duplicate pages, confirmed mirrors: mirror-map.ts). */
  readonly linksNotFollowed: LinksNotFollowed;
  /** Hosts this run confirmed mirrors of another host, and the queued requests to them it did not fetch. */
  readonly hostMirrors: readonly MappedMirror[];
}

/** The end of one process of a partitioned crawl. */
export interface PartitionSummary {
  readonly index: number;
  readonly count: number;
  /** Frontier rows not done in partitions with no crawler running when this one ended, by partition number. */
  readonly orphaned: Readonly<Record<string, number>>;
}

/** One process's share of a crawl split across processes and machines (`--partition i/N`). */
export interface CrawlPartitionOptions {
  /** This process's partition, 0 ≤ index < count. */
  readonly index: number;
  /** Partitions of the crawl (the same in every process of it). */
  readonly count: number;
  /**
   * How long work left in partitions with no crawler running (one killed and not restarted yet)
   * keeps this process waiting before it ends. @default 600000
   */
  readonly waitMs?: number;
  /** One-line notices (waiting for a partition, the server gone and back). @default a line on stderr */
  readonly onNotice?: (message: string) => void;
}

export interface CrawlOptions {
  /** Start URLs (http or https). Their hosts (or domains) make the scope. */
  readonly seeds: readonly string[];
  /** Folder of the database, the corpus and the request queue; created if missing. @default './data' */
  readonly dataDir?: string;
  /** A PostgreSQL index shared with other crawler processes instead of dataDir's neardup.db. @default null */
  readonly indexUrl?: string | null;
  /**
   * Crawl one partition of the hosts, the frontier shared through the PostgreSQL index (needs
   * `indexUrl`); the data folder then holds this process's corpus only. @default null (the whole crawl)
   */
  readonly partition?: CrawlPartitionOptions | null;
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
  /** Back-off before each retry of a failed seed within the run (seed-retry.ts). @default [1000, 4000] */
  readonly seedRetryDelaysMs?: readonly number[];
}
