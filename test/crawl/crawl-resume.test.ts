/**
 * Resume: a crawl stopped by its page budget, by an abort, or killed with SIGKILL, then run again
 * with the same data folder, fetches no page twice, stores no page twice, and ends with the same
 * pages decided as a crawl that was never interrupted.
 */
import { execFile, spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dailySamplePage, loadDemoArticles } from '../helpers/demo-site/demo-site.js';
import { startGeneratedSite } from '../helpers/demo-site/generated-site.js';
import type { GeneratedSite } from '../helpers/demo-site/generated-site.js';
import { loadConfig } from '../../src/config.js';
import type { Config } from '../../src/config.js';
import { crawl } from '../../src/crawl/crawl.js';
import type { CrawlSummary } from '../../src/crawl/crawl.js';
import { hammingDistance } from '../../src/fingerprint/fingerprint-codec.js';
import { corpusFileName } from '../../src/store/data-folder.js';
import { readCrawlResults } from '../helpers/crawl-results.js';
import { startFixtureSite } from '../helpers/fixture-site.js';
import { makeTempDir } from '../helpers/temp-dir.js';

let generated: GeneratedSite;
const dirs: string[] = [];
const configWith = (maxPages: number, concurrency = 1): Config =>
  loadConfig({ env: {}, overrides: { crawl: { maxPages, concurrency, maxRequestsPerMinutePerHost: 1_000_000 } } });

beforeAll(async () => {
  generated = await startGeneratedSite({ pages: 40, seed: 7 });
});
afterAll(async () => {
  await generated?.site.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function freshDir(): string {
  const dir = makeTempDir('neardup-crawl-resume-');
  dirs.push(dir);
  return dir;
}

/** Page fetches (not robots.txt) made since `from` in the site's log. */
function fetchesSince(from: number): string[] {
  return generated.site.hits.slice(from).filter((hit) => hit.path !== '/robots.txt').map((hit) => generated.site.url(hit.host, hit.path));
}

function decided(dataDir: string, config: Config) {
  const results = readCrawlResults(dataDir, config);
  const all = [...results.stored.keys(), ...results.rejected.keys(), ...results.skipped.keys()];
  return { results, all: new Set(all), count: all.length };
}

function expectConsistent(dataDir: string, config: Config) {
  const { results, all, count } = decided(dataDir, config);
  // No URL recorded twice, or both stored and rejected.
  expect(all.size).toBe(count);
  // corpus.jsonl: exactly the stored documents, one line each, no torn line.
  expect(results.corpusText === '' || results.corpusText.endsWith('\n')).toBe(true);
  expect(results.corpus.map((r) => r.id).sort((a, b) => a - b)).toEqual([...results.stored.values()].map((d) => d.id).sort((a, b) => a - b));
  // No two stored documents within distance k.
  const stored = [...results.stored.values()];
  for (let i = 0; i < stored.length; i++) {
    for (let j = i + 1; j < stored.length; j++) {
      expect(hammingDistance(stored[i]!.fingerprint, stored[j]!.fingerprint)).toBeGreaterThan(config.fingerprint.distance);
    }
  }
  return { results, all };
}

/**
 * With more than one request in flight, which of two copies is crawled first (and so stored, and
 * has its links followed) depends on timing; every page of the uninterrupted crawl is still decided.
 */
function expectAllDecided(all: ReadonlySet<string>): void {
  for (const url of baseline.all) expect(all.has(url), url).toBe(true);
}

let baseline: { stored: Set<string>; all: Set<string>; fetched: number };

describe('resume', () => {
  beforeAll(async () => {
    const dataDir = freshDir();
    const config = configWith(10_000);
    const start = generated.site.hits.length;
    await crawl({ seeds: generated.seeds, dataDir, config, dedupWorker: false });
    const { results, all } = expectConsistent(dataDir, config);
    baseline = { stored: new Set(results.stored.keys()), all, fetched: fetchesSince(start).length };
  });

  it('a crawl stopped by --max-pages goes on from where it stopped, fetching nothing twice', async () => {
    const dataDir = freshDir();
    const start = generated.site.hits.length;
    const first = await crawl({ seeds: generated.seeds, dataDir, config: configWith(10), dedupWorker: false });
    expect(first).toMatchObject({ fetched: 10, stopReason: 'max-pages', handledBefore: 0 });
    expect(first.pending).toBeGreaterThan(0);
    // The budget counts earlier runs: 15 in all means 5 more.
    const second = await crawl({ seeds: generated.seeds, dataDir, config: configWith(15), dedupWorker: false });
    expect(second).toMatchObject({ fetched: 5, stopReason: 'max-pages', handledBefore: 10 });
    const third = await crawl({ seeds: generated.seeds, dataDir, config: configWith(10_000), dedupWorker: false });
    expect(third).toMatchObject({ stopReason: 'finished', pending: 0, handledBefore: 15 });
    const fetches = fetchesSince(start);
    expect(new Set(fetches).size).toBe(fetches.length);
    expect(fetches.length).toBe(baseline.fetched);
    const { results, all } = expectConsistent(dataDir, configWith(1));
    expect(all).toEqual(baseline.all);
    expect(new Set(results.stored.keys())).toEqual(baseline.stored);
    // Run again: nothing left to do, nothing changes.
    const again = await crawl({ seeds: generated.seeds, dataDir, config: configWith(10_000), dedupWorker: false });
    expect(again).toMatchObject({ fetched: 0, stored: 0, stopReason: 'finished' });
  });

  it('an aborted crawl resumes with the same result', async () => {
    const dataDir = freshDir();
    const controller = new AbortController();
    let seen = 0;
    const start = generated.site.hits.length;
    const first: CrawlSummary = await crawl({
      seeds: generated.seeds,
      dataDir,
      config: configWith(10_000, 3),
      dedupWorker: false,
      signal: controller.signal,
      onPage: () => {
        seen++;
        if (seen === 12) controller.abort();
      },
    });
    expect(first.stopReason).toBe('aborted');
    expect(first.pending).toBeGreaterThan(0);
    const second = await crawl({ seeds: generated.seeds, dataDir, config: configWith(10_000, 3), dedupWorker: false });
    expect(second.stopReason).toBe('finished');
    const fetches = fetchesSince(start);
    expect(new Set(fetches).size).toBe(fetches.length);
    expectAllDecided(expectConsistent(dataDir, configWith(1)).all);
  });

  it('resumes after a kill tore the frontier journal\'s last line: the line is ended, the next appends stay whole', async () => {
    // Pages only the home page links to: a request lost for one of them is never found again.
    const [a, b, c] = loadDemoArticles();
    const site = await startFixtureSite({
      '127.0.0.1': {
        '/': { body: '<a href="/a">a</a> <a href="/b">b</a> <a href="/c">c</a>' },
        '/a': { body: dailySamplePage({ title: 'a', paragraphs: a!.paragraphs }) },
        '/b': { body: dailySamplePage({ title: 'b', paragraphs: b!.paragraphs }) },
        '/c': { body: dailySamplePage({ title: 'c', paragraphs: c!.paragraphs }) },
      },
    });
    try {
      const dataDir = freshDir();
      const seeds = [site.url('127.0.0.1', '/')];
      const config = loadConfig({ env: {}, overrides: { crawl: { maxPages: 2, concurrency: 1, respectRobots: false } } });
      const first = await crawl({ seeds, dataDir, config, dedupWorker: false });
      // Pending: two of /a, /b, /c (crawlee does not promise which sibling comes first). The
      // template's /about.html and /privacy.html, found on the page that spent the last of the
      // budget, are dropped: no budget left, no room in the queue (link-budget.ts).
      expect(first).toMatchObject({ fetched: 2, pending: 2 });
      expect(first.linksDropped).toBeGreaterThanOrEqual(2);
      // What a kill during an append leaves: half a line, which the next run's appends must not
      // continue (a line made of the torn half and a whole entry would lose that entry too).
      const journalPath = join(dataDir, 'crawlee', 'neardup-frontier.jsonl');
      appendFileSync(journalPath, '{"url":"http://127.0.0.1:1/torn","de');
      // A new process, as after a crash (this one keeps crawlee's view of the queue in memory).
      const cli = fileURLToPath(new URL('../../scripts/neardup-from-source.js', import.meta.url));
      const output = await new Promise<string>((resolve, reject) => {
        execFile(process.execPath, [cli, 'crawl', ...seeds, '--data', dataDir, '--no-robots', '--json'], (error, stdout) => {
          if (error === null) resolve(stdout);
          else reject(error);
        });
      });
      expect(JSON.parse(output)).toMatchObject({ stopReason: 'finished', pending: 0, repairedRequests: 1, stored: 2 });
      // The torn line stays one bad line; every line after it parses.
      const lines = readFileSync(journalPath, 'utf8').split('\n').filter((line) => line !== '');
      const bad = lines.filter((line) => { try { JSON.parse(line); return false; } catch { return true; } });
      expect(bad).toEqual(['{"url":"http://127.0.0.1:1/torn","de']);
      const { results } = expectConsistent(dataDir, config);
      expect([...results.stored.keys()].sort()).toEqual(['/a', '/b', '/c'].map((path) => site.url('127.0.0.1', path)));
    } finally {
      await site.close();
    }
  });

  it('a crawl killed with SIGKILL resumes: in-flight requests are put back, no page is stored twice', async () => {
    const dataDir = freshDir();
    // Slow pages, so that the kill lands mid-crawl with requests in flight.
    const slow = generated.allPages.filter((url) => url.includes('/a/'));
    for (const url of slow) {
      const { hostname, pathname } = new URL(url);
      const body = await (await fetch(url)).text();
      generated.site.setRoute(hostname, pathname, { body, delayMs: 150 });
    }
    const cli = fileURLToPath(new URL('../../scripts/neardup-from-source.js', import.meta.url));
    const child = spawn(process.execPath, [cli, 'crawl', ...generated.seeds, '--data', dataDir, '--concurrency', '4', '--host-rpm', '1000000', '--no-progress'], {
      stdio: 'ignore',
    });
    const corpus = join(dataDir, corpusFileName);
    const deadline = Date.now() + 45_000;
    while (Date.now() < deadline) {
      if (existsSync(corpus) && readFileSync(corpus, 'utf8').split('\n').length > 6) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;

    const resumed = await crawl({ seeds: generated.seeds, dataDir, config: configWith(10_000, 4), dedupWorker: false });
    expect(resumed.stopReason).toBe('finished');
    expect(resumed.handledBefore).toBeGreaterThan(0);
    expect(resumed.releasedLocks).toBeGreaterThan(0);
    expectAllDecided(expectConsistent(dataDir, configWith(1)).all);
  });
});
