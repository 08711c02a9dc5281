/**
 * The request queue a crawl run opens: the data folder's, filled from its frontier journal
 * (durable-request-queue.ts), or, for a partitioned crawl, this process's partition of the shared
 * PostgreSQL frontier (partitioned-queue.ts).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Configuration } from '@crawlee/cheerio';
import { CrawlError, NeardupError, StorageError } from '../errors.js';
import { crawleeFolderName as crawleeFolder } from '../store/data-folder.js';
import type { CrawlOptions } from './crawl-types.js';
import { crawleeConfiguration } from './crawlee-configuration.js';
import type { DedupStage } from './dedup-stage.js';
import { openDurableRequestQueue, type DurableRequestQueue, type FrontierResume } from './durable-request-queue.js';
import { frontierJournalName } from './frontier-journal.js';
import { openPartitionedQueue, type PartitionedQueue } from './partitioned-queue.js';

/** `<dataDir>/crawlee`, created. */
export function crawleeDirOf(dataDir: string): string {
  const crawleeDir = join(dataDir, crawleeFolder);
  try {
    mkdirSync(crawleeDir, { recursive: true });
  } catch (error) {
    throw new StorageError(`Cannot create \`${crawleeDir}\`: ${(error as Error).message}`, { cause: error });
  }
  return crawleeDir;
}

/** The request queue of a run: the data folder's journal, or a partition of the shared PostgreSQL frontier. */
export interface OpenQueue {
  readonly crawleeConfig: Configuration;
  readonly queue: DurableRequestQueue | PartitionedQueue['queue'];
  readonly resume: FrontierResume;
  /** Set for a partitioned crawl. */
  readonly partitioned: PartitionedQueue | null;
  /** Requests pending at the start (the link budget counts them). */
  readonly pendingAtStart: number;
}

/**
 * crawlee's configuration and request queue of the data folder, the queue filled from the
 * frontier journal, or fed from the PostgreSQL frontier's partition (the dedup stage closed if
 * they fail).
 */
export async function openCrawlQueue(crawleeDir: string, dedup: DedupStage, options: CrawlOptions): Promise<OpenQueue> {
  try {
    const crawleeConfig = crawleeConfiguration(crawleeDir);
    if (options.partition != null) {
      const partitioned = await openPartitionedQueue(crawleeConfig, options.indexUrl!, options.partition);
      return { crawleeConfig, queue: partitioned.queue, resume: partitioned.resume, partitioned, pendingAtStart: partitioned.pendingAtStart };
    }
    const { queue, resume } = await openDurableRequestQueue(crawleeConfig, join(crawleeDir, frontierJournalName));
    return { crawleeConfig, queue, resume, partitioned: null, pendingAtStart: queue.pendingCount };
  } catch (error) {
    await dedup.close();
    if (error instanceof NeardupError) throw error;
    throw new CrawlError(`Cannot open the request queue in \`${crawleeDir}\`: ${(error as Error).message}`, { cause: error });
  }
}
