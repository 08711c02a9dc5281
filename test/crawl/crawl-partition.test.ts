/**
 * `neardup crawl --partition i/N`: hosts dealt to processes by a stable hash, the flag checked at the
 * boundary, and (with a throwaway PostgreSQL cluster) four crawler processes on a generated
 * 2,000-page site with mirrors, on ten host names: the stored set is as large as one process's crawl
 * of the same site, no URL is fetched twice (counted by the site; robots.txt left out), no two stored
 * documents are within k, and each stored document has exactly one corpus line among the four data
 * folders. Then again with one crawler killed (kill -9) mid-crawl and restarted: the same result,
 * and the only URLs fetched twice are rows the killed process had claimed when it died.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePartition, partitionKey, partitionOfHost } from '../../src/crawl/crawl-partition.js';
import { registerCrawl } from '../../src/cli/crawl-command.js';
import { hammingDistance } from '../../src/fingerprint/fingerprint-codec.js';
import { PgFingerprintIndex } from '../../src/fingerprint-index/postgres/pg-fingerprint-index.js';
import type { StoredDocument } from '../../src/types.js';
import { startGeneratedSite, type GeneratedSite } from '../helpers/demo-site/generated-site.js';
import { describeWithPostgres, freshDatabaseName } from '../helpers/postgres-server.js';
import { neardupBin, runInProcess, spawnNeardup, type CliRun } from '../helpers/run-cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

describe('partitions of hosts', () => {
  it('reads i/N and refuses anything else with the expected form', () => {
    expect(parsePartition('0/4')).toEqual({ index: 0, count: 4 });
    expect(parsePartition(' 3 / 4 ')).toEqual({ index: 3, count: 4 });
    for (const bad of ['4/4', '-1/4', '1/0', 'a/4', '1', '1/4/2', '', '1/5000']) {
      expect(() => parsePartition(bad), bad).toThrow(/Expected `partition` to be i\/N/);
    }
  });

  it('deals hosts by registrable domain, the same on every machine (pinned values)', () => {
    expect(partitionKey('blog.Example.co.uk')).toBe('example.co.uk');
    expect(partitionKey('127.0.0.1')).toBe('127.0.0.1');
    expect(partitionOfHost('www.example.co.uk', 4)).toBe(partitionOfHost('blog.example.co.uk', 4));
    expect(['127.0.0.1', '127.0.0.2', '127.0.0.3', '127.0.0.4', 'localhost'].map((h) => partitionOfHost(h, 4))).toEqual([2, 3, 0, 1, 2]);
    expect(partitionOfHost('anything.example.org', 1)).toBe(0);
  });

  it('refuses --partition without a PostgreSQL index, and a bad --partition, in one line', async () => {
    const temp = makeTempDir('neardup-partition-cli-');
    try {
      const data = join(temp, 'data');
      const noIndex = await runInProcess(registerCrawl, ['crawl', 'http://127.0.0.1:9/', '--partition', '1/4', '--data', data]);
      expect(noIndex.code).toBe(2);
      expect(noIndex.stderr.trim().split('\n')).toHaveLength(1);
      expect(noIndex.stderr).toMatch(/`--partition` needs a shared PostgreSQL index/);
      const bad = await runInProcess(registerCrawl, ['crawl', 'http://127.0.0.1:9/', '--partition', '4/4', '--index', 'postgres://u@127.0.0.1:9/db', '--data', data]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/Expected `partition` to be i\/N with 0 ≤ i < N/);
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  });
});

const PARTITIONS = 4;
const MAIN_HOSTS = ['127.0.0.1', '127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6', '127.0.0.7', '127.0.0.8'];
const MIRROR_HOSTS = ['localhost', '127.0.0.9'];
const LIMIT_MS = 600_000;
/** Flags of every crawl here: no pacing (a local site), a timeout longer than the gated page's wait. */
// --follow-duplicates: every page of the site is fetched whatever process meets a copy first (with
// default flags a confirmed mirror stops being crawled once sampled: mirror-map.ts, test/crawl/mirror-map-crawl.test.ts).
const CRAWL_FLAGS = ['--host-rpm', '1000000', '--max-pages', '100000', '--timeout', '300', '--json', '--no-progress', '--follow-duplicates'];

let generated: GeneratedSite;
beforeAll(async () => {
  generated = await startGeneratedSite({ pages: 2000, seed: 5, mainHosts: MAIN_HOSTS, mirrorHosts: MIRROR_HOSTS });
});
afterAll(async () => {
  await generated?.site.close();
});

/** Page requests the site received since `from`, by URL (robots.txt left out). */
function pageFetches(from: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (const hit of generated.site.hits.slice(from)) {
    if (hit.path === '/robots.txt') continue;
    const url = generated.site.url(hit.host, hit.path);
    counts.set(url, (counts.get(url) ?? 0) + 1);
  }
  return counts;
}

/** A crawler process whose pid the test has (to kill it). */
function startCrawler(args: readonly string[]): { pid: number; done: Promise<CliRun & { signal: NodeJS.Signals | null }> } {
  const child = spawn(process.execPath, [neardupBin, ...args], { env: { ...process.env, NEARDUP_CONFIG: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const done = new Promise<CliRun & { signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => resolve({ code: code ?? -1, signal, stdout, stderr }));
  });
  return { pid: child.pid!, done };
}

/** The stored documents of a PostgreSQL index. */
async function storedOf(url: string): Promise<StoredDocument[]> {
  const index = await PgFingerprintIndex.open(url, { params: await PgFingerprintIndex.readParams(url), readonly: true });
  const stored: StoredDocument[] = [];
  try {
    for await (const doc of index.stored()) stored.push(doc);
  } finally {
    await index.close();
  }
  return stored;
}

function pairsWithin(stored: readonly StoredDocument[], k: number): number {
  let pairs = 0;
  for (let i = 0; i < stored.length; i++) {
    for (let j = i + 1; j < stored.length; j++) if (hammingDistance(stored[i]!.fingerprint, stored[j]!.fingerprint) <= k) pairs++;
  }
  return pairs;
}

/** Corpus line ids of the data folders, all together. */
function corpusIds(dataDirs: readonly string[]): number[] {
  return dataDirs.flatMap((dir) =>
    readFileSync(join(dir, 'corpus.jsonl'), 'utf8').split('\n').filter((l) => l !== '').map((l) => (JSON.parse(l) as { id: number }).id),
  ).sort((a, b) => a - b);
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

async function waitFor(what: string, check: () => Promise<boolean>, limitMs = LIMIT_MS): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Every page of the site fetched; beyond them, the URLs fetched differ from the baseline's only
 * where they differ by which copy of a page was stored first (a rejected copy's links are not
 * followed), printed for the record.
 */
function expectSamePages(fetched: ReadonlyMap<string, number>, baseline: ReadonlySet<string>): void {
  expect(generated.allPages.filter((page) => !fetched.has(page))).toEqual([]);
  const extra = [...fetched.keys()].filter((u) => !baseline.has(u));
  const missing = [...baseline].filter((u) => !fetched.has(u));
  if (extra.length + missing.length > 0) console.log(`fetched beyond the baseline: ${extra.join(' ')}; not fetched: ${missing.join(' ')}`);
}

function expectWhole(runs: readonly CliRun[]): void {
  for (const run of runs) expect(run.code, run.stderr).toBe(0);
  for (const run of runs) expect((JSON.parse(run.stdout) as { partition: { orphaned: object } }).partition.orphaned).toEqual({});
}

describeWithPostgres('neardup crawl --partition i/4 with a shared PostgreSQL frontier', (server) => {
  let baselineStored = -1;
  let baselinePages = new Set<string>();

  it('one process crawls the site with the same PostgreSQL backend (the baseline)', async () => {
    const temp = makeTempDir('neardup-partition-base-');
    try {
      const from = generated.site.hits.length;
      const started = Date.now();
      // The same backend as the partitioned crawls (their decisions are the baseline's, whatever the order).
      const url = await server().createDatabase(freshDatabaseName());
      const run = await spawnNeardup(['crawl', ...generated.seeds, '--data', join(temp, 'data'), '--index', url, ...CRAWL_FLAGS]);
      expect(run.code, run.stderr).toBe(0);
      console.log(`one process: ${((Date.now() - started) / 1000).toFixed(1)} s`);
      const summary = JSON.parse(run.stdout) as { stored: number; stopReason: string };
      expect(summary.stopReason).toBe('finished');
      // Rows stored in the end: a primary swap counts in `stored` but leaves the number of rows as it was.
      baselineStored = (await storedOf(url)).length;
      baselinePages = new Set(pageFetches(from).keys());
      // The originals (and nothing of the mirrors but the list pages, too short to judge) are stored.
      expect(baselineStored).toBeGreaterThanOrEqual(generated.originals.length);
      expect(generated.allPages.filter((page) => !baselinePages.has(page))).toEqual([]);
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  }, LIMIT_MS);

  it('four processes store as many, fetch each URL once, store no pair within k, and write each stored document once', async () => {
    expect(baselineStored).toBeGreaterThan(0);
    const temp = makeTempDir('neardup-partition-four-');
    const started = Date.now();
    try {
      const url = await server().createDatabase(freshDatabaseName());
      const from = generated.site.hits.length;
      const dataDirs = Array.from({ length: PARTITIONS }, (_, i) => join(temp, `p${i}`));
      const runs = await Promise.all(dataDirs.map((dir, i) =>
        spawnNeardup(['crawl', ...generated.seeds, '--data', dir, '--index', url, '--partition', `${i}/${PARTITIONS}`, ...CRAWL_FLAGS])));
      expectWhole(runs);
      console.log(`four partitions: ${((Date.now() - started) / 1000).toFixed(1)} s`);
      const fetched = pageFetches(from);
      expect([...fetched].filter(([, n]) => n > 1)).toEqual([]);
      expectSamePages(fetched, baselinePages);
      const stored = await storedOf(url);
      expect(stored.length).toBe(baselineStored);
      expect(pairsWithin(stored, 3)).toBe(0);
      expect(corpusIds(dataDirs)).toEqual(stored.map((d) => d.id).sort((a, b) => a - b));
      const open = await query<{ n: number }>(url, `SELECT count(*)::int AS n FROM neardup_frontier WHERE state <> 'done'`);
      expect(open[0]!.n).toBe(0);
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  }, LIMIT_MS);

  it('one of them killed with kill -9 mid-crawl and restarted: the same result, refetching only what it had claimed', async () => {
    expect(baselineStored).toBeGreaterThan(0);
    const temp = makeTempDir('neardup-partition-kill-');
    // The victim: the partition 127.0.0.5 is dealt to (pg-host-partitions.ts: read from the frontier once
    // the crawl met it). One of its articles answers only once the test opens the gate, so the victim
    // cannot finish before it is killed.
    let victim = -1;
    const gated = generated.originals.find((u) => new URL(u).hostname === '127.0.0.5' && u.endsWith('/a/404.html'))!;
    const gatedUrl = new URL(gated);
    let openGate: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    let gateAsked = false;
    const body = await (await fetch(gated)).text();
    const from = generated.site.hits.length;
    generated.site.setRoute(gatedUrl.hostname, gatedUrl.pathname, async () => {
      gateAsked = true;
      await gate;
      return { body, headers: { 'content-type': 'text/html; charset=utf-8' } };
    });
    try {
      const url = await server().createDatabase(freshDatabaseName());
      const dataDirs = Array.from({ length: PARTITIONS }, (_, i) => join(temp, `p${i}`));
      const argsOf = (i: number) => ['crawl', ...generated.seeds, '--data', dataDirs[i]!, '--index', url, '--partition', `${i}/${PARTITIONS}`, ...CRAWL_FLAGS];
      const crawlers = dataDirs.map((_, i) => startCrawler(argsOf(i)));
      const doneRows = async () => (await query<{ n: number }>(url, `SELECT count(*)::int AS n FROM neardup_frontier WHERE part = $1 AND state = 'done'`, [victim]))[0]!.n;
      await waitFor('127.0.0.5 to be dealt a partition', async () => {
        const rows = await query<{ part: number }>(url, `SELECT part FROM neardup_frontier_hosts WHERE host = '127.0.0.5'`).catch(() => []);
        if (rows.length > 0) victim = rows[0]!.part;
        return victim >= 0;
      });
      await waitFor('the victim to be mid-crawl', async () => gateAsked && (await doneRows()) >= 20);
      process.kill(crawlers[victim]!.pid, 'SIGKILL');
      const killed = await crawlers[victim]!.done;
      expect(killed.signal).toBe('SIGKILL');
      // Its lock goes with its connection; then what it had claimed is what it may fetch again.
      await waitFor('the killed crawler\'s lock to go', async () =>
        (await query(url, `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 2 AND objid = $1::oid AND granted`, [victim])).length === 0);
      const claimedAtKill = new Set((await query<{ url: string }>(url, `SELECT url FROM neardup_frontier WHERE part = $1 AND state = 'claimed'`, [victim])).map((r) => r.url));
      expect(claimedAtKill.has(gated)).toBe(true);
      openGate();
      const restarted = startCrawler(argsOf(victim));
      const runs = await Promise.all([...crawlers.filter((_, i) => i !== victim).map((c) => c.done), restarted.done]);
      expectWhole(runs);
      const restartSummary = JSON.parse(runs[runs.length - 1]!.stdout) as { releasedLocks: number; handledBefore: number };
      expect(restartSummary.releasedLocks).toBe(claimedAtKill.size);
      expect(restartSummary.handledBefore).toBeGreaterThanOrEqual(20);

      const fetched = pageFetches(from);
      const twice = [...fetched].filter(([, n]) => n > 1).map(([u]) => u);
      expect(twice.filter((u) => !claimedAtKill.has(u))).toEqual([]);
      console.log(`kill run: ${claimedAtKill.size} rows claimed at the kill, ${twice.length} URLs fetched twice, ${restartSummary.handledBefore} done before the restart`);
      expectSamePages(fetched, baselinePages);
      const stored = await storedOf(url);
      expect(stored.length).toBe(baselineStored);
      expect(pairsWithin(stored, 3)).toBe(0);
      expect(corpusIds(dataDirs)).toEqual(stored.map((d) => d.id).sort((a, b) => a - b));
    } finally {
      openGate();
      rmSync(temp, { recursive: true, force: true });
    }
  }, LIMIT_MS * 2);

  it('a second process for a partition that has one is refused in one line', async () => {
    const temp = makeTempDir('neardup-partition-twice-');
    const url = await server().createDatabase(freshDatabaseName());
    const holder = new pg.Client({ connectionString: url });
    try {
      // The first run makes the frontier; then a session holds partition 1 as a running crawler would.
      const first = await spawnNeardup(['crawl', generated.seeds[0]!, '--data', join(temp, 'a'), '--index', url, '--partition', '1/4', '--partition-wait', '0', '--max-pages', '1', '--json', '--no-progress']);
      expect(first.code, first.stderr).toBe(0);
      // Its one seed's host is dealt to partition 0 (the first key met: pg-host-partitions.ts), which no
      // crawler runs: partition 1 has no host, says so in one line and ends.
      expect((JSON.parse(first.stdout) as { partition: { orphaned: object } }).partition.orphaned).toEqual({ 0: 1 });
      expect(first.stderr).toMatch(/partition 1\/4: no host of this crawl is in this partition .*nothing to do/);
      await holder.connect();
      await holder.query('SELECT pg_advisory_lock($1::int, $2::int)', [0x6e646670, 1]);
      const second = await spawnNeardup(['crawl', generated.seeds[0]!, '--data', join(temp, 'b'), '--index', url, '--partition', '1/4', '--no-progress']);
      expect(second.code).toBe(75);
      expect(second.stderr.trim().split('\n')).toHaveLength(1);
      expect(second.stderr).toMatch(/another crawler is running partition 1\/4/);
      const otherCount = await spawnNeardup(['crawl', generated.seeds[0]!, '--data', join(temp, 'c'), '--index', url, '--partition', '1/2', '--no-progress']);
      expect(otherCount.code).toBe(2);
      expect(otherCount.stderr).toMatch(/split in 4 partitions, got 1\/2/);
    } finally {
      await holder.end().catch(() => undefined);
      rmSync(temp, { recursive: true, force: true });
    }
  }, LIMIT_MS);
});
