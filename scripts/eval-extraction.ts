/**
 * Scores neardup's main-text extraction on two data sets with the article-extraction benchmark's
 * metric (see src/extract/extraction-score.ts), beside Readability.js on linkedom run in the same
 * process on the same decoded HTML, and reports the speed of both:
 * - the article-extraction benchmark's dev pages (88 news and blog pages, MIT);
 * - dragnet-train (966 news and blog pages of 2012, AGPL: read from its folder, never copied).
 *
 *   npm run eval:extraction [-- --dev <dir>] [--dragnet <dir>] [--only dev|dragnet]
 *                           [--verbose] [--no-baseline] [--rounds <n>]
 *
 * Folders: `--dev` / `--dragnet`, else $NEARDUP_EXTRACTION_DEV / $NEARDUP_EXTRACTION_DRAGNET,
 * else ../shared/datasets/article-benchmark-dev and ../shared/datasets/dragnet-train beside the
 * repository. A missing folder is reported and skipped; none found is an error (exit 1).
 *
 * Per data set it prints both extractors' P/R/F1, the pages where neardup scores F1 0 while
 * Readability finds the article (F1 > 0.5), and timings; the last line of each data set is
 * `extraction <name>: P=<..> R=<..> F1=<..>` (neardup's figures).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { readabilityText } from './readability-text.js';
import { decodeHtmlBytes } from '../src/input/decode-html-bytes.js';
import { extractHtml, parseHtml } from '../src/extract/extract-page.js';
import { aggregateScores, pagePrecision, pageRecall, scorePage, type PageScore } from '../src/extract/extraction-score.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const sharedDatasets = resolve(here, '..', '..', 'shared', 'datasets');
const { values: args } = parseArgs({
  options: {
    dev: { type: 'string' },
    dragnet: { type: 'string' },
    only: { type: 'string' },
    verbose: { type: 'boolean', default: false },
    'no-baseline': { type: 'boolean', default: false },
    rounds: { type: 'string', default: '3' },
  },
});
const rounds = Number(args.rounds);
if (!Number.isInteger(rounds) || rounds < 0 || rounds > 100) {
  throw new Error(`Expected \`rounds\` to be an integer 0–100 (0: no timing), got \`${args.rounds}\``);
}
if (args.only !== undefined && args.only !== 'dev' && args.only !== 'dragnet') {
  throw new Error(`Expected \`only\` to be \`dev\` or \`dragnet\`, got \`${args.only}\``);
}

interface Page {
  readonly id: string;
  /** The page's address when the data set has it (relative links are then told from external ones). */
  readonly url: string | undefined;
  readonly html: string;
  readonly truth: string;
}

interface DatasetSpec {
  readonly name: 'dev' | 'dragnet';
  readonly dir: string;
  /** Where the folder came from, for the message when it is missing. */
  readonly how: string;
}

function datasetSpec(name: 'dev' | 'dragnet', flag: string | undefined, envName: string, folder: string): DatasetSpec {
  if (flag !== undefined) return { name, dir: resolve(flag), how: `--${name}` };
  const env = process.env[envName];
  if (env !== undefined && env !== '') return { name, dir: resolve(env), how: `$${envName}` };
  return { name, dir: join(sharedDatasets, folder), how: `the default (pass --${name} <dir> or set $${envName})` };
}

/** Folders of `html/<id>.html.gz` and `ground-truth.json` ({id: {articleBody, url?}}). */
function loadPages(dir: string): Page[] {
  const truth = JSON.parse(readFileSync(join(dir, 'ground-truth.json'), 'utf8')) as Record<string, { articleBody: string; url?: string }>;
  const files = new Set(readdirSync(join(dir, 'html')));
  const pages: Page[] = [];
  for (const [id, entry] of Object.entries(truth)) {
    const file = `${id}.html.gz`;
    if (!files.has(file)) throw new Error(`${dir}: ground truth names ${id} but html/${file} is missing`);
    // The bytes are decoded as a crawl decodes them (BOM, <meta> charset, UTF-8, chardet's guess).
    const { html } = decodeHtmlBytes(gunzipSync(readFileSync(join(dir, 'html', file))));
    pages.push({ id, url: entry.url, html, truth: entry.articleBody });
  }
  return pages;
}

interface Timing {
  /** Pages per second of wall-clock time, best round. */
  readonly pagesPerSecond: number;
  /** CPU milliseconds per page (this process, all threads), best round: steadier than wall time on a shared machine. */
  readonly cpuMsPerPage: number;
}

/**
 * Times each runner over all pages for `rounds` rounds, the runners interleaved within a round so
 * that load from other processes spreads over all of them; keeps each runner's best round. The
 * scoring run before it is the warm-up.
 */
function timeRuns(pages: readonly Page[], runners: Readonly<Record<string, (page: Page) => unknown>>): Record<string, Timing> {
  const best: Record<string, { wall: number; cpu: number }> = {};
  for (const name of Object.keys(runners)) best[name] = { wall: Number.POSITIVE_INFINITY, cpu: Number.POSITIVE_INFINITY };
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

const fmt = (x: number) => x.toFixed(3);
const pageF1 = (s: PageScore) => {
  const p = pagePrecision(s);
  const r = pageRecall(s);
  return p + r === 0 ? 0 : (2 * p * r) / (p + r);
};
const speed = (t: Timing) => `${t.pagesPerSecond.toFixed(1)} pages/s, ${t.cpuMsPerPage.toFixed(2)} ms CPU/page`;

/** Readability finds the article on a page when it scores above this F1 there. */
const foundByBaseline = 0.5;

function printTimings(pages: readonly Page[], withBaseline: boolean): void {
  const runners: Record<string, (page: Page) => unknown> = {
    parse: (page) => parseHtml(page.html),
    neardup: (page) => extractHtml(page.html, page.url),
  };
  if (withBaseline) runners.readability = (page) => readabilityText(page.html);
  const timing = timeRuns(pages, runners);
  const parse = timing.parse!;
  const ours = timing.neardup!;
  console.log(`  htmlparser2 parse only: ${speed(parse)}`);
  if (withBaseline) {
    const readability = timing.readability!;
    console.log(`  readability.js (linkedom): ${speed(readability)}`);
    console.log(`  speed ratio neardup/readability: ${(readability.cpuMsPerPage / ours.cpuMsPerPage).toFixed(2)} (CPU), ${(ours.pagesPerSecond / readability.pagesPerSecond).toFixed(2)} (wall)`);
  }
  const extractOnly = Math.max(0, ours.cpuMsPerPage - parse.cpuMsPerPage);
  console.log(`  neardup parse + extract: ${speed(ours)}; extraction alone ${extractOnly.toFixed(2)} ms CPU/page (${(extractOnly / parse.cpuMsPerPage).toFixed(2)} × the parse)`);
}

function evaluate(spec: DatasetSpec, pages: readonly Page[]): void {
  console.log(`\n${spec.name}: ${spec.dir} (${pages.length} pages)`);
  const ours = pages.map((page) => scorePage(page.truth, extractHtml(page.html, page.url).text));
  const baseline = args['no-baseline'] ? null : pages.map((page) => scorePage(page.truth, readabilityText(page.html)));

  if (args.verbose) {
    // Worst pages first, with Readability's figures beside ours.
    const order = pages.map((_, i) => i).sort((a, b) => pageF1(ours[a]!) - pageF1(ours[b]!));
    for (const i of order) {
      const s = ours[i]!;
      const b = baseline?.[i];
      const base = b === undefined ? '' : `  readability F1=${fmt(pageF1(b))}`;
      console.log(`  ${pages[i]!.id.slice(0, 8).padEnd(8)} F1=${fmt(pageF1(s))} P=${fmt(pagePrecision(s))} R=${fmt(pageRecall(s))}${base} ${(pages[i]!.url ?? '').slice(0, 60)}`);
    }
  }

  const total = aggregateScores(ours);
  if (baseline !== null) {
    const b = aggregateScores(baseline);
    console.log(`  readability.js (linkedom): P=${fmt(b.precision)} R=${fmt(b.recall)} F1=${fmt(b.f1)}`);
    const lost = pages.filter((_, i) => pageF1(ours[i]!) === 0 && pageF1(baseline[i]!) > foundByBaseline);
    const list = lost.map((p) => p.id).join(' ');
    console.log(`  pages at F1 0 where Readability finds the article (F1 > ${foundByBaseline}): ${lost.length}${lost.length > 0 ? ` — ${list}` : ''}`);
  }
  if (rounds > 0) printTimings(pages, baseline !== null);
  console.log(`extraction ${spec.name}: P=${fmt(total.precision)} R=${fmt(total.recall)} F1=${fmt(total.f1)}`);
}

const specs = [
  datasetSpec('dev', args.dev, 'NEARDUP_EXTRACTION_DEV', 'article-benchmark-dev'),
  datasetSpec('dragnet', args.dragnet, 'NEARDUP_EXTRACTION_DRAGNET', 'dragnet-train'),
].filter((spec) => args.only === undefined || spec.name === args.only);
console.log(`timing: best of ${rounds} rounds${rounds > 0 ? ' after the scoring run' : ' (none)'}`);
let found = 0;
for (const spec of specs) {
  if (!existsSync(join(spec.dir, 'ground-truth.json')) || !existsSync(join(spec.dir, 'html'))) {
    console.log(`\n${spec.name}: skipped — no ground-truth.json and html/ in ${spec.dir} (from ${spec.how})`);
    continue;
  }
  found++;
  evaluate(spec, loadPages(spec.dir));
}
if (found === 0) {
  console.error('eval:extraction: no data set found; pass --dev <dir> and/or --dragnet <dir>');
  process.exitCode = 1;
}
