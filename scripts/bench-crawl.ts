/**
 * Crawl throughput with and without deduplication, on a generated local site of 2,000 article
 * pages (a fifth of them mirror copies on a second host name), in one run:
 *
 * 1. plain: crawlee (neardup's CheerioCrawler subclass: same fetching, decoding, one parse) with
 *    the same main-text extraction, following every in-scope link, and no deduplication: no
 *    fingerprint, no index, no corpus;
 * 2. neardup: `crawl()`, i.e. the same plus fingerprinting, the SQLite index, corpus.jsonl, link
 *    records, and not following links on rejected pages.
 * Beside them, for reference, stock crawlee: `CheerioCrawler` as shipped (which parses each page
 * twice) with the same extraction.
 *
 * Both crawls fetch the same pages (every page is reachable through list pages), keep crawlee's
 * request queue on disk, and pace nothing (the per-host limit is lifted), so the ratio of their
 * rates is the cost of deduplication.
 *
 *   npx tsx scripts/bench-crawl.ts [--pages 2000] [--concurrency 8] [--rounds 1] [--no-stock] [--no-worker]
 *
 * --no-worker fingerprints on the crawl's own thread (no worker thread), to see the cost on one core.
 *
 * Last line: `crawl: pages=<..> plain_pages_per_s=<..> neardup_pages_per_s=<..> overhead_ratio=<..>`
 * (overhead_ratio = plain rate / neardup rate; target ≤ 1.10).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheerioCrawler, Configuration, LogLevel, RequestQueue, log } from '@crawlee/cheerio';
import type { CheerioAPI } from 'cheerio';
import { loadConfig } from '../src/config.js';
import type { Config } from '../src/config.js';
import { crawl } from '../src/crawl/crawl.js';
import { createCrawlScope, inCrawlScope } from '../src/crawl/crawl-scope.js';
import { crawleeConfiguration } from '../src/crawl/crawlee-configuration.js';
import { HostPacer } from '../src/crawl/host-pacer.js';
import { PageCrawler } from '../src/crawl/page-crawler.js';
import { extractPage } from '../src/extract/extract-page.js';
import { parsePage } from '../src/pipeline.js';
import { startGeneratedSite } from './demo-site/generated-site.js';

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const value = Number(process.argv[i + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} expects a positive integer`);
  return value;
}

const pages = flag('pages', 2000);
const concurrency = flag('concurrency', 8);
const rounds = flag('rounds', 1);
const withStock = !process.argv.includes('--no-stock');
const analysisWorker = !process.argv.includes('--no-worker');

interface Run {
  readonly pages: number;
  readonly seconds: number;
}

const rate = (run: Run) => run.pages / run.seconds;

function freshDir(): string {
  return mkdtempSync(join(tmpdir(), 'neardup-bench-crawl-'));
}

function stockConfig(dir: string): Configuration {
  return new Configuration({ storageClientOptions: { localDataDirectory: dir, persistStorage: true }, persistStorage: true });
}

/** Plain crawl: neardup's fetch path and extraction, every in-scope link followed, no dedup. */
async function plainRun(seeds: readonly string[], config: Config): Promise<Run> {
  const dir = freshDir();
  const started = performance.now();
  const scope = createCrawlScope(seeds, config.crawl.scope);
  const crawleeConfig = crawleeConfiguration(dir);
  const queue = await RequestQueue.open(null, { config: crawleeConfig });
  let fetched = 0;
  const crawler: PageCrawler = new PageCrawler({
    requestQueue: queue,
    maxConcurrency: config.crawl.concurrency,
    minConcurrency: config.crawl.concurrency,
    maxRequestRetries: 2,
    useSessionPool: false,
    persistCookiesPerSession: false,
    statisticsOptions: { persistenceOptions: { enable: false } },
    log: log.child({ prefix: 'plain', level: LogLevel.ERROR }),
    requestHandler: async (context) => {
      fetched++;
      const page = extractPage(context.$ as unknown as CheerioAPI, context.request.loadedUrl ?? context.request.url);
      const links = page.links.filter((url) => inCrawlScope(scope, url)).map((url) => ({ url, crawlDepth: context.request.crawlDepth + 1 }));
      if (links.length > 0) await crawler.addRequests(links, { waitForAllRequestsToBeAdded: true });
    },
  }, crawleeConfig, {
    userAgent: config.crawl.userAgent,
    maxPageBytes: config.crawl.maxPageBytes,
    maxRedirects: config.crawl.maxRedirects,
    allowRedirect: (url) => inCrawlScope(scope, url),
    parse: parsePage as (html: string) => CheerioAPI,
    pacer: new HostPacer({ intervalMs: 60_000 / config.crawl.maxRequestsPerMinutePerHost }),
    budget: Number.MAX_SAFE_INTEGER,
    onFailed: () => {
      fetched++;
    },
  });
  await crawler.addRequests(seeds.map((url) => ({ url, crawlDepth: 0 })), { waitForAllRequestsToBeAdded: true });
  await crawler.run();
  await crawler.settled();
  const seconds = (performance.now() - started) / 1000;
  rmSync(dir, { recursive: true, force: true });
  return { pages: fetched, seconds };
}

/** Stock crawlee: CheerioCrawler and Configuration as shipped (storage in a temporary folder), the same extraction. */
async function stockRun(seeds: readonly string[], config: Config): Promise<Run> {
  const dir = freshDir();
  const started = performance.now();
  const scope = createCrawlScope(seeds, config.crawl.scope);
  const crawleeConfig = stockConfig(dir);
  let fetched = 0;
  const crawler: CheerioCrawler = new CheerioCrawler({
    maxConcurrency: config.crawl.concurrency,
    minConcurrency: config.crawl.concurrency,
    maxRequestRetries: 2,
    useSessionPool: false,
    persistCookiesPerSession: false,
    statisticsOptions: { persistenceOptions: { enable: false } },
    log: log.child({ prefix: 'stock', level: LogLevel.OFF }),
    requestHandler: async (context) => {
      fetched++;
      const page = extractPage(context.$ as unknown as CheerioAPI, context.request.loadedUrl ?? context.request.url);
      const links = page.links.filter((url) => inCrawlScope(scope, url)).map((url) => ({ url, crawlDepth: context.request.crawlDepth + 1 }));
      if (links.length > 0) await crawler.addRequests(links, { waitForAllRequestsToBeAdded: true });
    },
    failedRequestHandler: () => {
      fetched++;
    },
  }, crawleeConfig);
  await crawler.run(seeds.map((url) => ({ url, crawlDepth: 0 })));
  const seconds = (performance.now() - started) / 1000;
  rmSync(dir, { recursive: true, force: true });
  return { pages: fetched, seconds };
}

async function neardupRun(seeds: readonly string[], config: Config): Promise<Run & { stored: number; rejected: number }> {
  const dir = freshDir();
  const started = performance.now();
  const summary = await crawl({ seeds, dataDir: dir, config, analysisWorker });
  const seconds = (performance.now() - started) / 1000;
  rmSync(dir, { recursive: true, force: true });
  return { pages: summary.fetched, seconds, stored: summary.stored, rejected: summary.exact + summary.near };
}

const generated = await startGeneratedSite({ pages });
const config = loadConfig({
  env: {},
  overrides: {
    crawl: {
      concurrency,
      maxPages: pages * 3,
      maxDepth: 10_000,
      scope: 'host',
      maxRequestsPerMinutePerHost: 1_000_000,
    },
  },
});
const out = (line: string) => process.stdout.write(`${line}\n`);
out(`bench-crawl: ${pages} article pages (${generated.mirrors.size} mirror copies on a second host), ${generated.allPages.length} pages served, `
  + `concurrency ${concurrency}, ${rounds} round(s), fingerprinting ${analysisWorker ? 'in a worker thread' : 'on the crawl thread'}`);

const plain: Run[] = [];
const neardup: Run[] = [];
try {
  if (withStock) {
    const stock = await stockRun(generated.seeds, config);
    out(`  stock crawlee (parses twice): ${stock.pages} pages in ${stock.seconds.toFixed(2)} s = ${rate(stock).toFixed(1)} pages/s`);
  }
  for (let round = 1; round <= rounds; round++) {
    const p = await plainRun(generated.seeds, config);
    plain.push(p);
    out(`  round ${round} plain:   ${p.pages} pages in ${p.seconds.toFixed(2)} s = ${rate(p).toFixed(1)} pages/s`);
    const n = await neardupRun(generated.seeds, config);
    neardup.push(n);
    out(`  round ${round} neardup: ${n.pages} pages in ${n.seconds.toFixed(2)} s = ${rate(n).toFixed(1)} pages/s (stored ${n.stored}, rejected ${n.rejected})`);
  }
} finally {
  await generated.site.close();
}

// Best of the rounds for each: the least disturbed by other load on the machine.
const bestPlain = Math.max(...plain.map(rate));
const bestNeardup = Math.max(...neardup.map(rate));
out(`crawl: pages=${neardup[0]!.pages} plain_pages_per_s=${bestPlain.toFixed(1)} neardup_pages_per_s=${bestNeardup.toFixed(1)} overhead_ratio=${(bestPlain / bestNeardup).toFixed(3)}`);
