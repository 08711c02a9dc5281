/**
 * Issue 19, case 4: two `neardup crawl` processes on one --data at once. crawlee's request queue
 * is one process's (its state is cached in memory, and a starting crawl releases the locks of
 * in-flight requests), so neardup's rule is one crawl per --data at a time: the second refuses at
 * once, exit 75 (EX_TEMPFAIL), with one line on stderr naming the lock file, and fetches nothing;
 * the first goes on undisturbed and reports why it really stopped. (Any number of `neardup dedup`
 * processes may still write one --data, beside one crawl.)
 *
 * The overlap is made certain, not timed: the site holds its hub page until the second process
 * has exited, so the first is mid-crawl, holding the folder, the whole time the second runs.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFixtureSite } from '../helpers/fixture-site.js';
import { neardupBin, spawnNeardup } from '../helpers/run-cli.js';
import { freshDataDir, journalRequests, wordsPage } from '../helpers/small-crawl.js';
import { readCrawlResults } from '../helpers/crawl-results.js';
import { loadConfig } from '../../src/config.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('two crawls on one --data', () => {
  it('the second refuses at once with one line naming the lock; the first finishes the work', async () => {
    const site = await startFixtureSite({});
    cleanups.push(() => site.close());
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let hubAsked!: () => void;
    const hubRequested = new Promise<void>((resolve) => (hubAsked = resolve));
    const pages = Array.from({ length: 8 }, (_, i) => `/page/${i}`);
    let hubRequests = 0;
    site.setRoute('127.0.0.1', '/', async () => {
      hubAsked();
      // Asked twice: the second crawl did not refuse. Answer, so the test ends and says so.
      if (++hubRequests > 1) release();
      await gate;
      return { body: wordsPage(300, { title: 'Hub', links: pages }) };
    });
    pages.forEach((path, i) => site.setRoute('127.0.0.1', path, { body: wordsPage(301 + i) }));
    const { dataDir, remove } = freshDataDir('one-data');
    cleanups.push(remove);
    const args = ['crawl', site.url('127.0.0.1', '/'), '--data', dataDir, '--json', '--host-rpm', '1000000', '--timeout', '600'];

    const first = spawnNeardup(args);
    await hubRequested;
    const second = await spawnNeardup(args);
    release();
    const firstRun = await first;

    expect(second.code, second.stderr).toBe(75);
    expect(second.stdout).toBe('');
    const lines = second.stderr.split('\n').filter((l) => l !== '');
    expect(lines, second.stderr).toHaveLength(1);
    expect(lines[0]).toContain(join(dataDir, 'crawl.lock'));
    expect(lines[0]).toMatch(/another crawl/i);
    // The second fetched nothing: the hub was asked for once, by the first.
    expect(site.pathsFetched('127.0.0.1').filter((p) => p === '/')).toHaveLength(1);

    expect(firstRun.code, firstRun.stderr).toBe(0);
    const summary = JSON.parse(firstRun.stdout) as { stopReason: string; stored: number; pending: number };
    expect(summary.stopReason).toBe('finished');
    expect(summary.pending).toBe(0);
    expect(journalRequests(dataDir).pending).toBe(0);
    const results = readCrawlResults(dataDir, loadConfig({ env: {} }));
    expect(results.stored.size).toBe(9);
    expect(summary.stored).toBe(9);
    expect(results.corpus).toHaveLength(9);
  }, 120_000);

  it('a crawl killed with SIGKILL does not hold the folder: the next one runs at once', async () => {
    const site = await startFixtureSite({});
    cleanups.push(() => site.close());
    let stall = true;
    let hubAsked!: () => void;
    const hubRequested = new Promise<void>((resolve) => (hubAsked = resolve));
    site.setRoute('127.0.0.1', '/', async () => {
      hubAsked();
      // The first process is killed while it waits here; later requests are answered.
      if (stall) await new Promise<void>(() => undefined);
      return { body: wordsPage(400, { title: 'Only' }) };
    });
    const { dataDir, remove } = freshDataDir('one-data');
    cleanups.push(remove);
    const args = ['crawl', site.url('127.0.0.1', '/'), '--data', dataDir, '--json', '--host-rpm', '1000000', '--timeout', '600'];
    const child = spawn(process.execPath, [neardupBin, ...args], { env: { ...process.env, NEARDUP_CONFIG: '' }, stdio: 'ignore' });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    await hubRequested;
    child.kill('SIGKILL');
    await exited;
    stall = false;
    const next = await spawnNeardup(args);
    expect(next.code, next.stderr).toBe(0);
    expect((JSON.parse(next.stdout) as { stored: number }).stored).toBe(1);
  }, 120_000);
});
