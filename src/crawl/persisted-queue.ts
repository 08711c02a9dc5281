/**
 * crawlee's request queue as persisted on disk by @crawlee/memory-storage 3.18: one JSON file per
 * request in `<storage>/request_queues/default/`, whose `orderNo` is null once the request is
 * handled, its queue position while pending (negative for forefront requests), and the expiry
 * time of its lock while a crawler processes it.
 *
 * Read directly, because the storage client does not persist its counts: a new process starts
 * with `handledCount() === 0` whatever the files say.
 *
 * Resume after a hard stop: a process killed mid-crawl leaves its in-flight requests locked for a
 * minute or more, and a resumed crawl would skip them until then, or end without them. At the
 * start of a crawl every lock is stale (neardup runs one crawler per data folder at a time; if two
 * ran at once, releasing each other's locks would cost duplicate fetches, never a wrong result:
 * the index answers a URL seen before with its earlier decision), so `releaseLocks` puts each
 * locked request back at the head of the queue.
 */
import { readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What the queue folder holds. */
export interface PersistedQueueState {
  /** Requests handled (fetched, or failed for good). */
  readonly handled: number;
  /** Requests waiting (including those just released). */
  readonly pending: number;
  /** Locked requests put back in the queue by this scan. */
  readonly released: number;
  /**
   * Request files that do not parse: torn by a process killed while crawlee rewrote them (it
   * truncates, then writes). Removed by a `releaseLocks` scan; their requests are lost to crawlee
   * (see frontier-journal.ts for how a crawl gets them back).
   */
  readonly torn: number;
}

export interface ScanOptions {
  /**
   * Release every lock found: requests locked by a crawler are put back in the queue, file locks
   * left by a killed process (proper-lockfile's `<file>.lock` folders) are removed, torn request
   * files are removed. Only safe before crawlee opens the queue. @default false
   */
  readonly releaseLocks?: boolean;
  /** @default Date.now() */
  readonly now?: number;
}

/** Counts (and optionally unlocks) the requests of a queue folder; a missing folder is an empty queue. */
export function scanPersistedQueue(queueDir: string, options: ScanOptions = {}): PersistedQueueState {
  const now = options.now ?? Date.now();
  let names: string[];
  try {
    names = readdirSync(queueDir);
  } catch {
    return { handled: 0, pending: 0, released: 0, torn: 0 };
  }
  let handled = 0;
  let pending = 0;
  let released = 0;
  let torn = 0;
  for (const name of names) {
    const path = join(queueDir, name);
    if (name.endsWith('.lock') && options.releaseLocks === true) {
      rmSync(path, { recursive: true, force: true });
      continue;
    }
    if (!name.endsWith('.json') || name.startsWith('__')) continue;
    let entry: { orderNo?: unknown };
    try {
      entry = JSON.parse(readFileSync(path, 'utf8')) as { orderNo?: unknown };
    } catch {
      torn++;
      if (options.releaseLocks === true) rmSync(path, { force: true });
      continue;
    }
    const orderNo = entry.orderNo;
    if (orderNo === null) {
      handled++;
      continue;
    }
    if (typeof orderNo !== 'number') continue;
    pending++;
    if (options.releaseLocks !== true || Math.abs(orderNo) <= now) continue;
    // Smallest magnitude: first in its part of the queue (it was in progress, so it is the oldest).
    entry.orderNo = orderNo > 0 ? 1 : -1;
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(entry, null, '\t'));
    renameSync(temporary, path);
    released++;
  }
  return { handled, pending, released, torn };
}
