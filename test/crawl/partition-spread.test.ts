/**
 * Issue 26: partitions spread small host sets (pg-host-partitions.ts). Two hosts without a registrable
 * domain (127.0.0.1 and localhost, which both hash to partition 0 of 2) are dealt one to each process:
 * both do work, each URL is fetched once. A process whose partition has no host says so in one line
 * and ends. A partitioned crawl runs again on the same database: resumed (nothing left: nothing
 * fetched), or, finished, split in another count.
 */
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { partitionOfHost } from '../../src/crawl/crawl-partition.js';
import { devTextsById } from '../helpers/dev-texts.js';
import { htmlPage, startFixtureSite, type FixtureResponse, type FixtureSite } from '../helpers/fixture-site.js';
import { describeWithPostgres, freshDatabaseName } from '../helpers/postgres-server.js';
import { spawnNeardup } from '../helpers/run-cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

let site: FixtureSite;
beforeAll(async () => {
  const texts = devTextsById().filter((t) => t.split(/\s+/).length > 150);
  // Different articles on each host (no duplicates): 8 each.
  const routes = (offset: number): Record<string, FixtureResponse> => {
    const out: Record<string, FixtureResponse> = { '/': { body: htmlPage({ title: 'Home', paragraphs: ['Index.'], links: Array.from({ length: 8 }, (_, i) => `/a${i}`) }) } };
    for (let i = 0; i < 8; i++) out[`/a${i}`] = { body: htmlPage({ title: `A${i}`, paragraphs: texts[offset + i]!.split(/\n+/) }) };
    return out;
  };
  site = await startFixtureSite({ '127.0.0.1': routes(0), localhost: routes(8) });
});
afterAll(async () => {
  await site?.close();
});

const FLAGS = ['--no-robots', '--host-rpm', '1000000', '--json', '--no-progress', '--partition-wait', '5'];

describeWithPostgres('partitions spread small host sets', (server) => {
  it('127.0.0.1 and localhost in two processes: both do work, each URL fetched once; a re-run resumes (nothing to fetch); a finished crawl may be split in three', async () => {
    // The hash alone would put both in one partition.
    expect(partitionOfHost('127.0.0.1', 2)).toBe(partitionOfHost('localhost', 2));
    const temp = makeTempDir('neardup-spread-');
    try {
      const url = await server().createDatabase(freshDatabaseName());
      const seeds = [site.url('127.0.0.1', '/'), site.url('localhost', '/')];
      const from = site.hits.length;
      const run = (n: number) => Promise.all(Array.from({ length: n }, (_, i) =>
        spawnNeardup(['crawl', ...seeds, '--data', join(temp, `n${n}-p${i}`), '--index', url, '--partition', `${i}/${n}`, ...FLAGS])));
      const runs = await run(2);
      for (const r of runs) expect(r.code, r.stderr).toBe(0);
      const fetched = runs.map((r) => (JSON.parse(r.stdout) as { fetched: number }).fetched);
      expect(fetched.every((n) => n > 0), `fetched per process: ${fetched}`).toBe(true);
      const hits = site.hits.slice(from).map((h) => `${h.host}${h.path}`);
      expect(hits.length).toBe(18);
      expect(new Set(hits).size).toBe(hits.length);

      const again = site.hits.length;
      const reruns = await run(2);
      for (const r of reruns) expect(r.code, r.stderr).toBe(0);
      expect(site.hits.length).toBe(again);

      // Finished: the same database may be crawled split otherwise (no refusal); one of three has no host.
      const threes = await run(3);
      for (const r of threes) expect(r.code, r.stderr).toBe(0);
      expect(threes.filter((r) => /no host of this crawl is in this partition/.test(r.stderr))).toHaveLength(1);
      expect(threes.every((r) => r.stderr.trim().split('\n').length <= 1)).toBe(true);
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  }, 240_000);
});
