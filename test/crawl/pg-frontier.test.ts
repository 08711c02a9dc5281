/**
 * The shared frontier of a partitioned crawl, on a throwaway PostgreSQL cluster: one owner per
 * partition, a URL inserted once whoever finds it, claims in insertion order, rows a dead owner had
 * claimed taken back by the next, and the end-of-crawl status telling partitions with a running owner
 * from those without.
 */
import { expect, it } from 'vitest';
import { CrawlLockedError } from '../../src/errors.js';
import { partitionOfHost } from '../../src/crawl/crawl-partition.js';
import { PgFrontier, type FrontierRow } from '../../src/crawl/pg-frontier.js';
import { requestKey } from '../../src/crawl/frontier-journal.js';
import { describeWithPostgres, freshDatabaseName } from '../helpers/postgres-server.js';

const COUNT = 4;
const quiet = { onRetry: () => undefined };

/** Rows for `n` URLs on `host`, with their partition. */
function rowsOn(host: string, n: number, depth = 1): (FrontierRow & { part: number })[] {
  return Array.from({ length: n }, (_, i) => {
    const url = `http://${host}/p${i}`;
    return { uniqueKey: requestKey(url), url, crawlDepth: depth, part: partitionOfHost(host, COUNT) };
  });
}

describeWithPostgres('the PostgreSQL crawl frontier', (server) => {
  it('inserts a URL once, claims a partition\'s rows in order, and refuses a second owner', async () => {
    const url = await server().createDatabase(freshDatabaseName());
    const host = '127.0.0.3';
    const part = partitionOfHost(host, COUNT);
    const { frontier: owner, opening } = await PgFrontier.open(url, { index: part, count: COUNT }, { runId: 'a', ...quiet });
    const { frontier: other } = await PgFrontier.open(url, { index: (part + 1) % COUNT, count: COUNT }, { runId: 'b', ...quiet });
    try {
      expect(opening).toEqual({ handledBefore: 0, takenBack: 0, pendingBefore: 0 });
      // Found by another partition's process: the rows are the owner's to claim.
      expect(await other.insert(rowsOn(host, 5))).toBe(0);
      expect(await owner.insert(rowsOn(host, 7))).toBe(2);
      const claimed = await owner.claim(4);
      expect(claimed.map((r) => r.url)).toEqual([0, 1, 2, 3].map((i) => `http://${host}/p${i}`));
      expect(await other.claim(10)).toEqual([]);
      await expect(PgFrontier.open(url, { index: part, count: COUNT }, { runId: 'c', ...quiet })).rejects.toThrow(CrawlLockedError);
      await expect(PgFrontier.open(url, { index: 0, count: 2 }, { runId: 'd', ...quiet })).rejects.toThrow(/split in 4 partitions, got 0\/2/);
    } finally {
      await owner.close();
      await other.close();
    }
  }, 60_000);

  it('gives the rows a dead owner had claimed back to the next owner, and counts only running owners as busy', async () => {
    const url = await server().createDatabase(freshDatabaseName());
    const host = '127.0.0.4';
    const part = partitionOfHost(host, COUNT);
    const { frontier: first } = await PgFrontier.open(url, { index: part, count: COUNT }, { runId: 'first', ...quiet });
    await first.insert(rowsOn(host, 6));
    const claimed = await first.claim(3);
    await first.done([claimed[0]!.uniqueKey]);
    // The owner dies: its connection goes, rows 1 and 2 stay claimed.
    await first.close();
    const { frontier: watcher } = await PgFrontier.open(url, { index: (part + 2) % COUNT, count: COUNT }, { runId: 'w', ...quiet });
    try {
      // The server drops a closed session's lock as its backend exits, a moment after the close.
      let idle = await watcher.status();
      for (let tries = 0; idle.openOwned > 0 && tries < 100; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        idle = await watcher.status();
      }
      expect(idle.openOwned).toBe(0);
      expect([...idle.openOrphaned]).toEqual([[part, 5]]);
      const { frontier: second, opening } = await PgFrontier.open(url, { index: part, count: COUNT }, { runId: 'second', ...quiet });
      try {
        expect(opening).toEqual({ handledBefore: 1, takenBack: 2, pendingBefore: 5 });
        const busy = await watcher.status();
        expect(busy.openOwned).toBe(5);
        expect(busy.openOrphaned.size).toBe(0);
        const again = await second.claim(10);
        expect(again.map((r) => r.url)).toEqual([1, 2, 3, 4, 5].map((i) => `http://${host}/p${i}`));
        await second.unclaim([again[4]!.uniqueKey]);
        await second.done(again.slice(0, 4).map((r) => r.uniqueKey));
        expect((await second.claim(10)).map((r) => r.url)).toEqual([`http://${host}/p5`]);
      } finally {
        await second.close();
      }
    } finally {
      await watcher.close();
    }
  }, 60_000);

  it('keeps the smaller depth of a URL still pending', async () => {
    const url = await server().createDatabase(freshDatabaseName());
    const host = '127.0.0.1';
    const part = partitionOfHost(host, COUNT);
    const { frontier } = await PgFrontier.open(url, { index: part, count: COUNT }, { runId: 'x', ...quiet });
    try {
      expect(await frontier.insert(rowsOn(host, 2, 5))).toBe(2);
      expect(await frontier.insert(rowsOn(host, 2, 3))).toBe(0);
      expect(await frontier.insert(rowsOn(host, 2, 4))).toBe(0);
      expect((await frontier.claim(5)).map((r) => r.crawlDepth)).toEqual([3, 3]);
    } finally {
      await frontier.close();
    }
  }, 60_000);

  it('waits out a server restart, takes its partition\'s lock again on the new connection, and goes on', async () => {
    const url = await server().createDatabase(freshDatabaseName());
    const host = '127.0.0.2';
    const part = partitionOfHost(host, COUNT);
    const notices: string[] = [];
    const { frontier } = await PgFrontier.open(url, { index: part, count: COUNT }, { runId: 'r', onRetry: (m) => notices.push(m) });
    try {
      await frontier.insert(rowsOn(host, 3));
      server().stop();
      const claiming = frontier.claim(2);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      server().restart();
      expect((await claiming).map((r) => r.url)).toEqual([`http://${host}/p0`, `http://${host}/p1`]);
      expect(notices.join('\n')).toMatch(/waiting for the server[\s\S]*is back/);
      // The lock is held again: another process for the partition is still refused.
      await expect(PgFrontier.open(url, { index: part, count: COUNT }, { runId: 's', ...quiet })).rejects.toThrow(CrawlLockedError);
    } finally {
      await frontier.close();
    }
  }, 120_000);
});
