/**
 * Opening and closing the queue of a partitioned crawl (`--partition i/N`): the shared frontier in
 * PostgreSQL (pg-frontier.ts) and the local queue it feeds (pg-frontier-queue.ts), as crawl.ts uses
 * them.
 */
import { randomUUID } from 'node:crypto';
import type { Configuration } from '@crawlee/cheerio';
import type { CrawlPartition } from './crawl-partition.js';
import type { FrontierResume } from './durable-request-queue.js';
import { PgFrontier } from './pg-frontier.js';
import { openPgFrontierQueue, type PartitionEnd, type PgFrontierQueue } from './pg-frontier-queue.js';
import type { CrawlOptions, CrawlPartitionOptions, PartitionSummary } from './crawl-types.js';
import { checkPartition } from './crawl-partition.js';
import { ValidationError } from '../errors.js';

export interface PartitionedQueue {
  readonly partition: CrawlPartition;
  readonly queue: PgFrontierQueue;
  readonly resume: FrontierResume;
  /** Rows of this partition pending when it opened. */
  readonly pendingAtStart: number;
  /** Starts claiming rows into the local queue; `onFatal` stops the crawl. */
  start(onFatal: (error: unknown) => void): void;
  /** After the crawler stopped: the last `done`s written, unhandled claims put back, the frontier closed. */
  end(): Promise<PartitionEnd>;
}

/** Connects to the frontier (lock, take-back) and opens the local queue; the frontier is closed if the queue fails. */
export async function openPartitionedQueue(config: Configuration, indexUrl: string, options: CrawlPartitionOptions): Promise<PartitionedQueue> {
  const partition = { index: options.index, count: options.count };
  const notice = options.onNotice ?? ((message: string) => process.stderr.write(`neardup: ${message}\n`));
  const { frontier, opening } = await PgFrontier.open(indexUrl, partition, { runId: randomUUID(), onRetry: notice });
  let queue: PgFrontierQueue;
  try {
    queue = await openPgFrontierQueue(config);
  } catch (error) {
    await frontier.close();
    throw error;
  }
  queue.attach(frontier, { onNotice: notice, orphanWaitMs: options.waitMs ?? 600_000 });
  let ended: Promise<PartitionEnd> | null = null;
  return {
    partition,
    queue,
    resume: { handledBefore: opening.handledBefore, interrupted: opening.takenBack, tornLines: 0 },
    pendingAtStart: opening.pendingBefore,
    start: (onFatal) => queue.start(onFatal),
    end: () => {
      ended ??= queue.finish().finally(() => frontier.close());
      return ended;
    },
  };
}

/** Checks the options a partitioned crawl needs, before anything is touched. */
export function checkPartitionedCrawl(options: Pick<CrawlOptions, 'partition' | 'indexUrl'>): void {
  if (options.partition == null) return;
  checkPartition(options.partition);
  if (options.indexUrl == null || options.indexUrl === '') {
    throw new ValidationError('`partition` needs a shared PostgreSQL index (--index postgres://...): the processes of a partitioned crawl share their frontier through it');
  }
}

/** How a partitioned crawl's process ended: its partition's rows not done, and the summary's part. */
export interface PartitionOutcome {
  readonly pending: number;
  readonly summary: PartitionSummary;
}

/** Ends the partition (see PartitionedQueue.end) and says how the shared frontier stands. */
export async function endPartition(partitioned: PartitionedQueue): Promise<PartitionOutcome> {
  const end = await partitioned.end();
  const orphaned = Object.fromEntries([...end.orphaned].map(([part, n]) => [String(part), n]));
  return { pending: end.pending, summary: { ...partitioned.partition, orphaned } };
}
