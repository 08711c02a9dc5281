/**
 * Four `neardup dedup` processes writing into one --data at the same time, on overlapping inputs
 * (concurrent-writers-run.ts): every cluster of copies ends with exactly one stored document,
 * every URL is judged once, corpus.jsonl has each stored document once, and no "database is
 * locked" failure reaches a user.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDataDir } from '../helpers/fault-crawl.js';
import { CLUSTERS, LIMIT_MS, WRITERS, runConcurrentDedup } from './concurrent-writers-run.js';
import type { ConcurrentDedup } from './concurrent-writers-run.js';

describe('four dedup processes writing one --data at once', () => {
  let c: ConcurrentDedup;

  beforeAll(async () => {
    c = await runConcurrentDedup();
  }, LIMIT_MS + 60_000);

  afterAll(() => {
    c?.cleanup();
  });

  it('builds the clusters it means to (pairwise within k inside, far apart across)', () => {
    expect(c.clusters.length).toBe(CLUSTERS);
  });

  it('every writer exits 0, and no "database is locked" reaches the user', () => {
    for (const run of c.runs) {
      expect(run.killed, `a writer hung: ${run.stderr.slice(-500)}`).toBe(false);
      expect(run.stderr).not.toMatch(/locked|SQLITE_BUSY|unexpected error/i);
      expect(run.code, run.stderr.slice(-1000)).toBe(0);
    }
  });

  it('stores exactly one document per cluster', () => {
    const byUrl = new Map(c.clusters.flat().map((d) => [d.url, d.cluster]));
    const perCluster = new Array<number>(c.clusters.length).fill(0);
    for (const d of c.report.stored) perCluster[byUrl.get(d.url)!]! += 1;
    const wrong = perCluster.flatMap((n, i) => (n === 1 ? [] : [`cluster ${i}: ${n} stored`]));
    expect(wrong).toEqual([]);
    expect(c.report.stored.length).toBe(CLUSTERS);
  });

  it('judges every URL once: stored or rejected against its own cluster', () => {
    const byUrl = new Map(c.clusters.flat().map((d) => [d.url, d.cluster]));
    const storedCluster = new Map(c.report.stored.map((d) => [d.id, byUrl.get(d.url)]));
    expect(c.report.stored.length + c.report.rejected.length).toBe(CLUSTERS * WRITERS);
    const wrong = c.report.rejected.filter((d) => storedCluster.get(d.matchId) !== byUrl.get(d.url)).map((d) => d.url);
    expect(wrong).toEqual([]);
  });

  it('leaves a whole index: one row per URL, no two stored documents within k, every rejection pointing at a stored one', () => {
    expect(checkDataDir(c.report, { corpus: false })).toEqual([]);
  });

  it('writes one corpus.jsonl line per stored document, none twice (appends take the database write lock)', () => {
    expect(checkDataDir(c.report)).toEqual([]);
  });
});
