/**
 * Scores neardup's main-text extraction on the article-extraction benchmark pages
 * (../shared/datasets/article-benchmark-dev) with the benchmark's metric (see
 * src/extract/extraction-score.ts), beside Readability.js on linkedom as a baseline run in the
 * same process, and reports pages/s for both.
 *
 *   npm run eval:extraction [-- --dataset <dir>] [--verbose] [--no-baseline] [--rounds <n>]
 *
 * Last line: `extraction: P=<..> R=<..> F1=<..>` (neardup's figures).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { extractHtml, parseHtml } from '../src/extract/extract-page.js';
import { aggregateScores, pagePrecision, pageRecall, scorePage, type PageScore } from '../src/extract/extraction-score.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const { values: args } = parseArgs({
  options: {
    dataset: { type: 'string', default: resolve(here, '../../shared/datasets/article-benchmark-dev') },
    verbose: { type: 'boolean', default: false },
    'no-baseline': { type: 'boolean', default: false },
    rounds: { type: 'string', default: '3' },
  },
});
const rounds = Number(args.rounds);
if (!Number.isInteger(rounds) || rounds < 1 || rounds > 100) {
  throw new Error(`Expected \`rounds\` to be an integer 1–100, got \`${args.rounds}\``);
}

interface Page {
  readonly id: string;
  readonly url: string;
  readonly html: string;
  readonly truth: string;
}

function loadPages(dir: string): Page[] {
  const truth = JSON.parse(readFileSync(join(dir, 'ground-truth.json'), 'utf8')) as Record<string, { articleBody: string; url: string }>;
  const files = new Set(readdirSync(join(dir, 'html')));
  const pages: Page[] = [];
  for (const [id, entry] of Object.entries(truth)) {
    const file = `${id}.html.gz`;
    if (!files.has(file)) throw new Error(`ground truth names ${id} but html/${file} is missing`);
    const html = gunzipSync(readFileSync(join(dir, 'html', file))).toString('utf8');
    pages.push({ id, url: entry.url, html, truth: entry.articleBody });
  }
  return pages;
}

function readabilityText(html: string): string {
  const { document } = parseHTML(html);
  const article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0]).parse();
  return article?.textContent ?? '';
}

interface Timing {
  /** Pages per second of wall-clock time, best round. */
  readonly pagesPerSecond: number;
  /** CPU milliseconds per page (this process, all threads), best round: steadier than wall time on a shared machine. */
  readonly cpuMsPerPage: number;
}

/**
 * Times each runner over all pages for `rounds` rounds, the runners interleaved within a round so
 * that load from other processes spreads over all of them; keeps each runner's best round.
 */
function timeRuns(pages: readonly Page[], runners: Readonly<Record<string, (page: Page) => unknown>>): Record<string, Timing> {
  const best: Record<string, { wall: number; cpu: number }> = {};
  for (const [name, fn] of Object.entries(runners)) {
    for (const page of pages) fn(page); // warm-up
    best[name] = { wall: Number.POSITIVE_INFINITY, cpu: Number.POSITIVE_INFINITY };
  }
  for (let r = 0; r < rounds; r++) {
    for (const [name, fn] of Object.entries(runners)) {
      const cpu0 = process.cpuUsage();
      const wall0 = performance.now();
      for (const page of pages) fn(page);
      const wall = performance.now() - wall0;
      const cpu = process.cpuUsage(cpu0);
      const b = best[name]!;
      b.wall = Math.min(b.wall, wall);
      b.cpu = Math.min(b.cpu, (cpu.user + cpu.system) / 1000);
    }
  }
  const out: Record<string, Timing> = {};
  for (const [name, b] of Object.entries(best)) {
    out[name] = { pagesPerSecond: pages.length / (b.wall / 1000), cpuMsPerPage: b.cpu / pages.length };
  }
  return out;
}

function score(pages: readonly Page[], outputs: readonly string[]): { total: ReturnType<typeof aggregateScores>; perPage: PageScore[] } {
  const perPage = pages.map((page, i) => scorePage(page.truth, outputs[i]!));
  return { total: aggregateScores(perPage), perPage };
}

const fmt = (x: number) => x.toFixed(3);

const pages = loadPages(args.dataset);
console.log(`dataset: ${args.dataset} (${pages.length} pages), best of ${rounds} rounds after a warm-up`);

const ourOutputs = pages.map((page) => extractHtml(page.html, page.url).text);
const oursScore = score(pages, ourOutputs);
const baselineOutputs = args['no-baseline'] ? null : pages.map((page) => readabilityText(page.html));
const baselineScore = baselineOutputs === null ? null : score(pages, baselineOutputs);

if (args.verbose) {
  // Worst pages first, with Readability's figures beside ours.
  const rows = pages.map((page, i) => ({ page, s: oursScore.perPage[i]!, b: baselineScore?.perPage[i], out: ourOutputs[i]! }));
  rows.sort((a, b) => pagePrecision(a.s) + pageRecall(a.s) - pagePrecision(b.s) - pageRecall(b.s));
  for (const { page, s, b, out } of rows) {
    const base = b === undefined ? '' : ` (readability P=${fmt(pagePrecision(b))} R=${fmt(pageRecall(b))})`;
    console.log(`${page.id.slice(0, 8)} P=${fmt(pagePrecision(s))} R=${fmt(pageRecall(s))}${base} out=${out.length} truth=${page.truth.length} ${page.url.slice(0, 70)}`);
  }
}

const runners: Record<string, (page: Page) => unknown> = {
  parse: (page) => parseHtml(page.html),
  neardup: (page) => extractHtml(page.html, page.url),
};
if (baselineOutputs !== null) runners.readability = (page) => readabilityText(page.html);
const timing = timeRuns(pages, runners);
const parse = timing.parse!;
const ours = timing.neardup!;
const speed = (t: Timing) => `${t.pagesPerSecond.toFixed(1)} pages/s, ${t.cpuMsPerPage.toFixed(2)} ms CPU/page`;

console.log(`htmlparser2 parse only: ${speed(parse)}`);
if (baselineScore !== null) {
  const b = baselineScore.total;
  const readability = timing.readability!;
  console.log(`readability.js (linkedom): P=${fmt(b.precision)} R=${fmt(b.recall)} F1=${fmt(b.f1)}, ${speed(readability)}`);
  console.log(`speed ratio neardup/readability: ${(readability.cpuMsPerPage / ours.cpuMsPerPage).toFixed(2)} (CPU), ${(ours.pagesPerSecond / readability.pagesPerSecond).toFixed(2)} (wall)`);
}
const extractOnly = Math.max(0, ours.cpuMsPerPage - parse.cpuMsPerPage);
console.log(`neardup parse + extract: ${speed(ours)}; extraction alone ${extractOnly.toFixed(2)} ms CPU/page (${(extractOnly / parse.cpuMsPerPage).toFixed(2)} × the parse)`);
const t = oursScore.total;
console.log(`extraction: P=${fmt(t.precision)} R=${fmt(t.recall)} F1=${fmt(t.f1)}`);
