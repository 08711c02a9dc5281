/**
 * Issue 19, case 3: one page with 100,000 in-scope links and a budget of 50 pages. The crawl
 * enqueues no more than its budget can use: at most `crawl.maxLinksPerPage` links of a page are
 * considered, and the queue never holds more than `crawl.queueBudgetMultiple` times the pages
 * the budget has left; what is left out is counted (`linksDropped`). Enqueuing never times the
 * handler out (the hub is fetched once), and every count of the summary is what is on disk.
 * Bounded memory and disk are asserted as counts of the frontier journal's requests, never as time.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { registerCrawl } from '../../src/cli/crawl-command.js';
import { defaultConfig, loadConfig } from '../../src/config.js';
import { runInProcess } from '../helpers/run-cli.js';
import { crawlInto, freshDataDir, journalRequests, wordsPage } from '../helpers/small-crawl.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface FloodSite {
  readonly origin: string;
  /** Requests per path. */
  readonly hits: Map<string, number>;
}

/** `/` links to `/p/0` … `/p/<links-1>`; each `/p/n` is a distinct page without links. */
async function floodSite(links: number): Promise<FloodSite> {
  const hub = wordsPage(1, { title: 'Hub', links: Array.from({ length: links }, (_, i) => `/p/${i}`) });
  const hits = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const match = /^\/p\/(\d+)$/.exec(path);
    const body = path === '/' ? hub : match !== null ? wordsPage(1000 + Number(match[1]), { words: 80 }) : null;
    if (body === null) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  }));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

describe('a page with 100,000 links and --max-pages 50', () => {
  it('enqueues what the budget can use, fetches the hub once, and reports what is on disk', async () => {
    const site = await floodSite(100_000);
    const { dataDir, remove } = freshDataDir('flood');
    cleanups.push(remove);
    const { summary, results } = await crawlInto(dataDir, [`${site.origin}/`], { maxPages: 50 });
    const multiple = defaultConfig().crawl.queueBudgetMultiple;
    const files = journalRequests(dataDir);

    expect(site.hits.get('/'), 'the hub was fetched more than once (a handler timed out while enqueuing?)').toBe(1);
    // The hub's handler ran with 49 pages of budget left and nothing else queued.
    expect(files.total).toBe(1 + multiple * 49);
    expect(summary.linksDropped).toBe(100_000 - multiple * 49);
    expect(summary.stopReason).toBe('max-pages');
    expect(summary.fetched).toBe(50);
    // Every count of the summary is what the data folder holds.
    expect(summary.stored).toBe(results.stored.size);
    expect(summary.stored).toBe(results.corpus.length);
    expect(summary.stored).toBe(50);
    expect(summary.pending).toBe(files.pending);
    expect(summary.pending).toBe(files.total - 50);
  }, 300_000);

  it('considers at most maxLinksPerPage links of a page, and counts the rest', async () => {
    const site = await floodSite(1000);
    const { dataDir, remove } = freshDataDir('flood');
    cleanups.push(remove);
    const { summary, results } = await crawlInto(dataDir, [`${site.origin}/`], { maxPages: 1000, maxLinksPerPage: 10 });
    expect(journalRequests(dataDir).total).toBe(11);
    expect(summary.linksDropped).toBe(990);
    expect(summary.stopReason).toBe('finished');
    expect(summary.pending).toBe(0);
    expect(results.stored.size).toBe(11);
    expect([...site.hits.keys()].filter((p) => p.startsWith('/p/'))).toHaveLength(10);
  });

  it('says so in the readable summary, and takes both limits as flags', async () => {
    const site = await floodSite(300);
    const { dataDir, remove } = freshDataDir('flood');
    cleanups.push(remove);
    const run = await runInProcess(registerCrawl, ['crawl', `${site.origin}/`, '--data', dataDir, '--max-links-per-page', '20', '--queue-multiple', '1', '--max-pages', '5', '--host-rpm', '1000000', '--no-robots']);
    expect(run.code, run.stderr).toBe(0);
    // The hub: 20 of 300 considered, room for 1 × 4 pages left.
    expect(run.stdout).toContain(`links dropped: ${300 - 4}`);
    expect(journalRequests(dataDir).total).toBe(5);
    const bad = await runInProcess(registerCrawl, ['crawl', `${site.origin}/`, '--data', dataDir, '--max-links-per-page', '0']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/max-links-per-page/);
  });

  it.each([
    ['maxLinksPerPage', 0],
    ['queueBudgetMultiple', 0],
    ['queueBudgetMultiple', 1.5],
  ])('refuses crawl.%s = %s with a message saying what was expected', (key, value) => {
    expect(() => loadConfig({ env: {}, overrides: { crawl: { [key]: value } } })).toThrow(`Expected \`crawl.${key}\` to be`);
  });
});
