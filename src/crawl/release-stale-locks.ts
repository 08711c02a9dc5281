/**
 * Resume after a hard stop. crawlee's file-backed request queue (@crawlee/memory-storage 3.18)
 * locks a request while it is processed by writing the lock's expiry time into the request's
 * file as `orderNo` (negative for forefront requests); `orderNo: null` marks it handled. A process
 * killed mid-crawl leaves its in-flight requests locked for a minute or more, and a resumed crawl
 * would skip them until then, or end without them.
 *
 * At the start of a crawl every lock is stale (neardup runs one crawler per data folder at a
 * time; if two ran at once, releasing each other's locks costs duplicate fetches, never a wrong
 * result: the index answers a URL seen before with its earlier decision). So each locked request
 * is put back at the head of the queue.
 */
import { readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Releases every lock in a request-queue folder; returns how many requests were released. */
export function releaseStaleLocks(queueDir: string, now: number = Date.now()): number {
  let names: string[];
  try {
    names = readdirSync(queueDir);
  } catch {
    return 0; // no queue yet: a fresh crawl
  }
  let released = 0;
  for (const name of names) {
    if (!name.endsWith('.json') || name.startsWith('__')) continue;
    const path = join(queueDir, name);
    let entry: { orderNo?: unknown };
    try {
      entry = JSON.parse(readFileSync(path, 'utf8')) as { orderNo?: unknown };
    } catch {
      continue; // a torn file is crawlee's to judge
    }
    const orderNo = entry.orderNo;
    if (typeof orderNo !== 'number' || Math.abs(orderNo) <= now) continue;
    // Smallest magnitude: first in its part of the queue (it was in progress, so it is the oldest).
    entry.orderNo = orderNo > 0 ? 1 : -1;
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(entry, null, '\t'));
    renameSync(temporary, path);
    released++;
  }
  return released;
}
