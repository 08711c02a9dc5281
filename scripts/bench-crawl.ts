/**
 * Crawl throughput with and without deduplication, on a generated local site of 2,000 article
 * pages (a fifth of them mirror copies on a second host name), in one run:
 *
 * 1. plain: crawlee (neardup's CheerioCrawler subclass: same fetching, decoding, one parse) with
 *    the same main-text extraction, following every in-scope link, and no deduplication: no
 *    fingerprint, no index, no corpus;
 * 2. neardup: `crawl()`, i.e. the same plus fingerprinting, the SQLite index, corpus.jsonl, link
 *    records, the frontier journal, and not following links on rejected pages. Its crawl thread
 *    only fetches and decodes; the dedup worker thread parses, extracts and commits (on a machine
 *    with two cores or more; its start-up, ~0.2-0.6 s, is inside the measured time).
 * Beside them, for reference, stock crawlee: `CheerioCrawler` as shipped (which parses each page
 * twice) with the same extraction.
 *
 * Both crawls fetch the same pages (every page is reachable through list pages), keep crawlee's
 * request queue in memory (neardup journals it to disk), and pace nothing (the per-host limit is lifted), so the ratio of their
 * rates is the cost of deduplication. The site is served by a child process. With --rounds N the
 * two crawls alternate N times; the ratio is taken per round (two crawls back to back see about
 * the same load from the rest of the machine) and the median ratio is reported.
 *
 *   npx tsx scripts/bench-crawl.ts [--pages 2000] [--concurrency 8] [--rounds 1] [--no-stock] [--no-worker] [--only plain|neardup] [--fresh-process] [--dist] [--no-cascade]
 *
 * --no-worker deduplicates on the crawl's own thread (no worker thread), to see the cost on one core.
 * --only runs one side alone (to profile it with `node --cpu-prof --import tsx`); no ratio then.
 * --fresh-process runs each crawl in a fresh child process, as a crawl from the CLI runs (module
 * loading is not measured; everything from the crawl's start is). By default all run in this
 * process, where every crawl after the first runs on code V8 has already compiled, except neardup's
 * dedup worker, a new thread with its own heap each time.
 *
 * Each run line shows CPU time per page of the crawl's main thread, of the process's other threads
 * (neardup's dedup worker, V8's GC helpers) and of the site's server process (Linux /proc): unlike
 * wall time these hold on a loaded machine, and on a quiet 2-core machine the ratio follows from
 * them (plain is bound by its main thread; neardup by the larger of its main thread and half of
 * everything).
 *
 * Last line: `crawl: pages=<..> plain_pages_per_s=<..> neardup_pages_per_s=<..> overhead_ratio=<..>`
 * (overhead_ratio = plain rate / neardup rate; target ≤ 1.10).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheerioCrawler, Configuration, LogLevel, RequestQueue, log } from '@crawlee/cheerio';
import type { CheerioAPI } from 'cheerio';
import type { CheerioCrawlingContext } from '@crawlee/cheerio';
import type { Config } from '../src/config.js';

/**
 * `--dist`: both sides run neardup's compiled package (`dist/`, made by `npm run build`) rather
 * than its TypeScript sources: as the CLI runs. From the sources, the dedup worker registers tsx
 * and compiles its modules at each start (~0.45 s before its first verdict, vs ~0.15 s from dist/).
 */
const fromDist = process.argv.includes('--dist');
const code = fromDist ? '../dist' : '../src';
const { loadConfig } = await import(`${code}/config.js`) as typeof import('../src/config.js');
const { crawl } = await import(`${code}/crawl/crawl.js`) as typeof import('../src/crawl/crawl.js');
const { createCrawlScope, inCrawlScope } = await import(`${code}/crawl/crawl-scope.js`) as typeof import('../src/crawl/crawl-scope.js');
const { crawleeConfiguration } = await import(`${code}/crawl/crawlee-configuration.js`) as typeof import('../src/crawl/crawlee-configuration.js');
const { HostPacer } = await import(`${code}/crawl/host-pacer.js`) as typeof import('../src/crawl/host-pacer.js');
const { PageCrawler } = await import(`${code}/crawl/page-crawler.js`) as typeof import('../src/crawl/page-crawler.js');
const { extractPage } = await import(`${code}/extract/extract-page.js`) as typeof import('../src/extract/extract-page.js');
const { parsePage } = await import(`${code}/analyze/analyze-page.js`) as typeof import('../src/analyze/analyze-page.js');
type PageCrawler = import('../src/crawl/page-crawler.js').PageCrawler;

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
const dedupWorker = !process.argv.includes('--no-worker');
/** The flag stages (src/cascade/) off: the crawl's dedup cost without them. */
const cascadeOff = process.argv.includes('--no-cascade');
/**
 * `--fresh-process`: each crawl in a fresh child process, as a crawl from the CLI runs. By default
 * every crawl runs in this process, one after the other (the method of the figures in the README):
 * then every crawl after the first runs on code V8 has already compiled (JIT), except neardup's
 * dedup worker, a new thread with its own heap for each crawl, which always starts cold.
 */
const sameProcess = !process.argv.includes('--fresh-process');
/** `--child <side>`: this process is one crawl of a run (see runInChild). */
const child = (() => {
  const i = process.argv.indexOf('--child');
  return i < 0 ? null : process.argv[i + 1] as Side;
})();
type Side = 'stock' | 'plain' | 'neardup';
/** The site server's pid, for its CPU time (a child is told it with `--server-pid`). */
let serverPid = (() => {
  const i = process.argv.indexOf('--server-pid');
  return i < 0 ? -1 : Number(process.argv[i + 1]);
})();

/** `--only plain|neardup`: run one side alone (to profile it); no ratio then. */
const only = (() => {
  const i = process.argv.indexOf('--only');
  if (i < 0) return null;
  const side = process.argv[i + 1];
  if (side !== 'plain' && side !== 'neardup') throw new Error(`--only expects plain or neardup, got ${side}`);
  return side;
})();

interface Run {
  readonly pages: number;
  readonly seconds: number;
  /** Busy time of this (the crawl's main) thread per page, ms: what limits a crawl with cores to spare. */
  readonly busyMsPerPage: number;
  /** CPU time of the process (all threads) per page, ms. */
  readonly cpuMsPerPage: number;
  /**
   * CPU time of the main thread alone per page, ms (NaN where /proc is missing). Unlike busy time
   * it does not count time the thread waited for a core, so it holds on a loaded machine.
   */
  readonly mainCpuMsPerPage: number;
  /** CPU time of the site's server process per page, ms (NaN where /proc is missing). */
  readonly serverCpuMsPerPage: number;
}

const clockTicksPerMs = 100 / 1000; // USER_HZ is 100 on Linux

/** utime + stime of a /proc stat file, ms; NaN when it cannot be read (not Linux). */
function procCpuMs(statPath: string): number {
  try {
    const stat = readFileSync(statPath, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / clockTicksPerMs;
  } catch {
    return Number.NaN;
  }
}

/** CPU time so far of this process's main thread, and of the site's server process, ms. */
function cpuNow(): { main: number; server: number } {
  return { main: procCpuMs(`/proc/self/task/${process.pid}/stat`), server: procCpuMs(`/proc/${serverPid}/stat`) };
}

/** Measures a crawl: wall time, main-thread busy time, process CPU time. */
async function measure<T extends { pages: number }>(body: () => Promise<T>): Promise<T & Run> {
  const elu = performance.eventLoopUtilization();
  const cpu = process.cpuUsage();
  const before = cpuNow();
  const started = performance.now();
  const result = await body();
  const seconds = (performance.now() - started) / 1000;
  const busy = performance.eventLoopUtilization(elu).active;
  const used = process.cpuUsage(cpu);
  const after = cpuNow();
  const pages = Math.max(1, result.pages);
  return {
    ...result, seconds, busyMsPerPage: busy / pages, cpuMsPerPage: (used.user + used.system) / 1000 / pages,
    mainCpuMsPerPage: (after.main - before.main) / pages, serverCpuMsPerPage: (after.server - before.server) / pages,
  };
}

const describeRun = (run: Run) =>
  `${run.pages} pages in ${run.seconds.toFixed(2)} s = ${rate(run).toFixed(1)} pages/s; main thread busy ${run.busyMsPerPage.toFixed(2)} ms/page, `
  + `CPU ms/page: main thread ${run.mainCpuMsPerPage.toFixed(2)}, other threads ${(run.cpuMsPerPage - run.mainCpuMsPerPage).toFixed(2)}, `
  + `site server ${run.serverCpuMsPerPage.toFixed(2)}`;

const rate = (run: Run) => run.pages / run.seconds;

function freshDir(): string {
  return mkdtempSync(join(tmpdir(), 'neardup-bench-crawl-'));
}

function stockConfig(dir: string): Configuration {
  return new Configuration({ storageClientOptions: { localDataDirectory: dir, persistStorage: true }, persistStorage: true });
}

/**
 * Options shared by the plain and stock crawls: fixed concurrency, no sessions, and a handler that
 * extracts each page and follows every in-scope link (no dedup).
 */
function extractingCrawlerOptions(
  config: Config,
  scope: ReturnType<typeof createCrawlScope>,
  prefix: string,
  level: LogLevel,
  crawler: () => { addRequests: CheerioCrawler['addRequests'] },
  onPage: () => void,
) {
  return {
    maxConcurrency: config.crawl.concurrency,
    minConcurrency: config.crawl.concurrency,
    maxRequestRetries: 2,
    useSessionPool: false,
    persistCookiesPerSession: false,
    statisticsOptions: { persistenceOptions: { enable: false } },
    log: log.child({ prefix, level }),
    requestHandler: async (context: CheerioCrawlingContext) => {
      onPage();
      const page = extractPage(context.$ as unknown as CheerioAPI, context.request.loadedUrl ?? context.request.url);
      const links = page.links.filter((url) => inCrawlScope(scope, url)).map((url) => ({ url, crawlDepth: context.request.crawlDepth + 1 }));
      if (links.length > 0) await crawler().addRequests(links, { waitForAllRequestsToBeAdded: true });
    },
  };
}

/** Plain crawl: neardup's fetch path and extraction, every in-scope link followed, no dedup. */
async function plainRun(seeds: readonly string[], config: Config): Promise<{ pages: number }> {
  const dir = freshDir();
  const scope = createCrawlScope(seeds, config.crawl.scope);
  const crawleeConfig = crawleeConfiguration(dir);
  const queue = await RequestQueue.open(null, { config: crawleeConfig });
  let fetched = 0;
  const crawler: PageCrawler = new PageCrawler({
    requestQueue: queue,
    ...extractingCrawlerOptions(config, scope, 'plain', LogLevel.ERROR, () => crawler, () => fetched++),
  }, crawleeConfig, {
    userAgent: config.crawl.userAgent,
    maxPageBytes: config.crawl.maxPageBytes,
    maxRedirects: config.crawl.maxRedirects,
    allowRedirect: (url) => inCrawlScope(scope, url),
    robotsAllowRedirect: () => true,
    robotsAllow: () => true,
    onDisallowed: async () => undefined,
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
  rmSync(dir, { recursive: true, force: true });
  return { pages: fetched };
}

/** Stock crawlee: CheerioCrawler and Configuration as shipped (storage in a temporary folder), the same extraction. */
async function stockRun(seeds: readonly string[], config: Config): Promise<{ pages: number }> {
  const dir = freshDir();
  const scope = createCrawlScope(seeds, config.crawl.scope);
  const crawleeConfig = stockConfig(dir);
  let fetched = 0;
  const crawler: CheerioCrawler = new CheerioCrawler({
    ...extractingCrawlerOptions(config, scope, 'stock', LogLevel.OFF, () => crawler, () => fetched++),
    failedRequestHandler: () => {
      fetched++;
    },
  }, crawleeConfig);
  await crawler.run(seeds.map((url) => ({ url, crawlDepth: 0 })));
  rmSync(dir, { recursive: true, force: true });
  return { pages: fetched };
}

async function neardupRun(seeds: readonly string[], config: Config): Promise<{ pages: number; stored: number; rejected: number }> {
  const dir = freshDir();
  const summary = await crawl({ seeds, dataDir: dir, config, dedupWorker });
  rmSync(dir, { recursive: true, force: true });
  return { pages: summary.fetched, stored: summary.stored, rejected: summary.exact + summary.near };
}

/** The crawl settings of every side. */
function benchConfig(): Config {
  const { cascade } = loadConfig({ env: {} });
  const off = { enabled: false };
  return loadConfig({
    env: {},
    overrides: {
      ...(cascadeOff ? {
        cascade: { homoglyph: { ...cascade.homoglyph, ...off }, generated: { ...cascade.generated, ...off }, synonymised: { ...cascade.synonymised, ...off }, compiled: { ...cascade.compiled, ...off } },
      } : {}),
      crawl: {
        concurrency,
        maxPages: pages * 3,
        maxDepth: 10_000,
        scope: 'host',
        maxRequestsPerMinutePerHost: 1_000_000,
      },
    },
  });
}

type Measured = Run & { stored?: number; rejected?: number };

/** One crawl of `side`, measured in this process. */
function runHere(side: Side, seeds: readonly string[]): Promise<Measured> {
  const config = benchConfig();
  if (side === 'stock') return measure(() => stockRun(seeds, config));
  if (side === 'plain') return measure(() => plainRun(seeds, config));
  return measure(() => neardupRun(seeds, config));
}

/** One crawl of `side` in a fresh child process (this script with `--child`), which prints its measures as one JSON line. */
async function runInChild(side: Side, seeds: readonly string[]): Promise<Measured> {
  const args = ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', side, '--seeds', JSON.stringify(seeds), '--server-pid', String(serverPid),
    '--pages', String(pages), '--concurrency', String(concurrency), ...(dedupWorker ? [] : ['--no-worker']), ...(cascadeOff ? ['--no-cascade'] : []), ...(fromDist ? ['--dist'] : [])];
  const crawler = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  crawler.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const code = await new Promise<number | null>((resolve) => crawler.once('exit', resolve));
  const line = output.split('\n').find((l) => l.startsWith('{'));
  if (code !== 0 || line === undefined) throw new Error(`the ${side} crawl's process failed (exit code ${code}): ${output.slice(0, 300)}`);
  return JSON.parse(line) as Measured;
}

const runOne = (side: Side, seeds: readonly string[]) => (sameProcess ? runHere(side, seeds) : runInChild(side, seeds));

if (child !== null) {
  const at = process.argv.indexOf('--seeds');
  const measured = await runHere(child, JSON.parse(process.argv[at + 1]!) as string[]);
  process.stdout.write(`${JSON.stringify(measured)}\n`);
  process.exit(0);
}

// The site runs in a child process, so that serving it does not share the crawler's event loop.
const server = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./demo-site/generated-site.ts', import.meta.url)), '--pages', String(pages)], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
serverPid = server.pid ?? -1;
const firstLine = await new Promise<string>((resolve, reject) => {
  const lines = createInterface({ input: server.stdout! });
  lines.once('line', (line) => {
    lines.close();
    resolve(line);
  });
  server.once('exit', (code) => reject(new Error(`the site server exited (${code})`)));
});
const generated = JSON.parse(firstLine) as { seeds: string[]; pages: number; mirrors: number; served: number };
const out = (line: string) => process.stdout.write(`${line}\n`);
out(`bench-crawl: ${pages} article pages (${generated.mirrors} mirror copies on a second host), ${generated.served} pages served, `
  + `concurrency ${concurrency}, ${rounds} round(s), deduplication ${dedupWorker ? 'in a worker thread' : 'on the crawl thread'}${cascadeOff ? ', flag stages off' : ''}, `
  + `${sameProcess ? 'every crawl in this process' : 'each crawl in a fresh process'}, ${fromDist ? 'from dist/' : 'from the TypeScript sources'}`);

const plain: Run[] = [];
const neardup: Run[] = [];
try {
  if (withStock) {
    const stock = await runOne('stock', generated.seeds);
    out(`  stock crawlee (parses twice): ${describeRun(stock)}`);
  }
  for (let round = 1; round <= rounds; round++) {
    if (only !== 'neardup') {
      const p = await runOne('plain', generated.seeds);
      plain.push(p);
      out(`  round ${round} plain:   ${describeRun(p)}`);
    }
    if (only !== 'plain') {
      const n = await runOne('neardup', generated.seeds);
      neardup.push(n);
      out(`  round ${round} neardup: ${describeRun(n)} (stored ${n.stored}, rejected ${n.rejected})`);
    }
  }
} finally {
  server.stdin!.end();
}

// The two crawls of a round run back to back, under about the same load from the rest of the
// machine: the ratio is taken per round, and the median over rounds is reported (with the median
// rates beside it).
const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
if (only !== null) process.exit(0);
const ratios = plain.map((p, i) => rate(p) / rate(neardup[i]!));
if (rounds > 1) out(`  per-round overhead ratios: ${ratios.map((r) => r.toFixed(3)).join(' ')}`);
out(`  main thread busy per page, median: plain ${median(plain.map((r) => r.busyMsPerPage)).toFixed(2)} ms, neardup ${median(neardup.map((r) => r.busyMsPerPage)).toFixed(2)} ms`);
out(`crawl: pages=${neardup[0]!.pages} plain_pages_per_s=${median(plain.map(rate)).toFixed(1)} neardup_pages_per_s=${median(neardup.map(rate)).toFixed(1)} overhead_ratio=${median(ratios).toFixed(3)}`);
