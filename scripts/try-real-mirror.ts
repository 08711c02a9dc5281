/**
 * A real site and a mirror of it, crawled as a user would: a folder of HTML documentation (by default
 * Debian's python3.11-doc, `apt-get install python3-doc`) served on 127.0.0.1 with early
 * Last-Modified dates, and a mirror on localhost with later dates whose pages are, by a seeded draw,
 *   - `byte`: the same HTML with a banner;
 *   - `retemplated`: the page's main content in another site's template, whose sidebar links to
 *     every mirror page (the template trap for the primary choice);
 *   - `edited`: re-templated, ~1% of the words replaced and two paragraphs swapped.
 * Prints, per kind, how many mirror copies were caught (clustered with their original), the
 * clusters that merged two different original pages (false merges, for inspection), and the share
 * of shared clusters whose primary is the original.
 *
 *   npx tsx scripts/try-real-mirror.ts [--root /usr/share/doc/python3.11/html] [--max-pages 3000] [--host-rpm 600] [--scope host]
 *
 * Links of duplicate pages are followed (a byte-copy mirror's index is a duplicate: its pages would
 * not be reached otherwise). `--scope any` also follows the docs' links to other sites, which fail here (no DNS) and use the page budget.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { load } from 'cheerio';
import { loadConfig } from '../src/config.js';
import { crawl, type CrawlPageEvent } from '../src/crawl/crawl.js';
import type { ScopeMode } from '../src/types.js';
import { loadClusterReport } from '../src/report/load-cluster-report.js';
import { startFixtureSite, type FixtureResponse } from '../test/helpers/fixture-site.js';
import { seededRandom } from '../test/helpers/seeded-random.js';

type MirrorKind = 'byte' | 'retemplated' | 'edited';

const { values } = parseArgs({
  options: {
    root: { type: 'string', default: '/usr/share/doc/python3.11/html' },
    'max-pages': { type: 'string', default: '3000' },
    'host-rpm': { type: 'string', default: '600' },
    seed: { type: 'string', default: '17' },
    scope: { type: 'string', default: 'host' },
  },
});
const root = values.root;
if (!existsSync(root) || !statSync(root).isDirectory()) {
  process.stderr.write(`try-real-mirror: no HTML folder at ${root} (apt-get install python3-doc, or pass --root)\n`);
  process.exit(1);
}

/** Every .html file under `dir`, as a site path (`/library/os.html`). */
function htmlPaths(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.html')) out.push(`/${relative(root, join(entry.parentPath, entry.name))}`);
  }
  return out.sort();
}

const random = seededRandom(Number(values.seed));
const WORDS = ['river', 'engine', 'garden', 'signal', 'lantern', 'harbour', 'meadow', 'copper', 'violet', 'canyon'];

/** ~1% of the words of each text node replaced, and two block elements swapped. */
function edit($: ReturnType<typeof load>, main: ReturnType<ReturnType<typeof load>>): void {
  main.find('p, li').each((_, el) => {
    const node = $(el);
    if (node.children().length > 0) return;
    node.text(node.text().split(' ').map((w) => (random() < 0.01 ? WORDS[Math.floor(random() * WORDS.length)]! : w)).join(' '));
  });
  const blocks = main.find('> div.section > p, > section > p');
  if (blocks.length >= 4) {
    const a = blocks.eq(1);
    const b = blocks.eq(blocks.length - 2);
    const aHtml = $.html(a);
    a.replaceWith($.html(b));
    b.replaceWith(aHtml);
  }
}

/** The page's main content in the mirror's template (sidebar of every mirror page). */
function retemplate(html: string, sidebar: string, kind: MirrorKind): string {
  const $ = load(html);
  const main = $('div.body[role=main]').first();
  const content = main.length > 0 ? main : $('body');
  if (kind === 'edited') edit($, content);
  const title = $('title').text();
  return `<!doctype html><html><head><title>${title} | Snake Docs Mirror</title></head><body>
<nav class="topbar"><a href="/index.html">Snake Docs</a> <a href="/search.html">Search</a></nav>
<div class="layout"><aside class="sidebar">${sidebar}</aside><main class="page">${content.html() ?? ''}</main></div>
<footer>Mirrored for offline reading. Snake Docs Mirror.</footer></body></html>`;
}

function kindFor(): MirrorKind {
  const r = random();
  return r < 0.4 ? 'byte' : r < 0.75 ? 'retemplated' : 'edited';
}

const paths = htmlPaths(root);
const sidebar = `<ul>${paths.map((p) => `<li><a href="${p}">${p}</a></li>`).join('')}</ul>`;
const kinds = new Map<string, MirrorKind>();
const original: Record<string, FixtureResponse> = {};
const mirror: Record<string, FixtureResponse> = {};
paths.forEach((path, i) => {
  const html = readFileSync(join(root, path), 'utf8');
  const kind = kindFor();
  kinds.set(path, kind);
  original[path] = { body: html, headers: { 'last-modified': new Date(Date.UTC(2024, 0, 2, 0, i)).toUTCString() } };
  const body = kind === 'byte'
    ? html.replace(/<body([^>]*)>/, '<body$1><div class="banner">This is a mirror. Visit the original for updates.</div>')
    : retemplate(html, sidebar, kind);
  mirror[path] = { body, headers: { 'last-modified': new Date(Date.UTC(2024, 5, 1, 0, i)).toUTCString() } };
});
original['/'] = { redirect: '/index.html' };
mirror['/'] = { redirect: '/index.html' };

const site = await startFixtureSite({ '127.0.0.1': original, localhost: mirror });
const dataDir = mkdtempSync(join(tmpdir(), 'neardup-real-mirror-'));
try {
  const config = loadConfig({
    env: {},
    overrides: { crawl: { scope: values.scope as ScopeMode, maxPages: Number(values['max-pages']), maxRequestsPerMinutePerHost: Number(values['host-rpm']), respectRobots: false, followDuplicates: true } },
  });
  const started = Date.now();
  const decisions = new Map<string, number>();
  const onPage = (event: CrawlPageEvent) => decisions.set(event.decision.kind, (decisions.get(event.decision.kind) ?? 0) + 1);
  const summary = await crawl({ seeds: [site.url('127.0.0.1', '/index.html'), site.url('localhost', '/index.html')], dataDir, config, onPage });
  const seconds = (Date.now() - started) / 1000;
  process.stdout.write(`crawl: ${summary.fetched} fetched in ${seconds.toFixed(1)} s (${summary.stopReason}); ${JSON.stringify(Object.fromEntries(decisions))}\n`);
  for (const outcome of summary.seedOutcomes) process.stdout.write(`seed ${JSON.stringify(outcome)}\n`);
  report(loadClusterReport(dataDir, config));
} finally {
  await site.close();
  rmSync(dataDir, { recursive: true, force: true });
}

function report(clusters: ReturnType<typeof loadClusterReport>): void {
  const clusterOf = new Map<string, number>();
  for (const c of clusters.clusters) for (const m of c.members) clusterOf.set(new URL(m.url).host + new URL(m.url).pathname, c.id);
  const host = (name: string) => new URL(site.url(name, '/')).host;
  const caught = new Map<MirrorKind, [number, number]>();
  const missed: string[] = [];
  for (const [path, kind] of kinds) {
    const a = clusterOf.get(host('127.0.0.1') + path);
    const b = clusterOf.get(host('localhost') + path);
    const [hit, all] = caught.get(kind) ?? [0, 0];
    caught.set(kind, [hit + (a !== undefined && a === b ? 1 : 0), all + 1]);
    if (a === undefined || a !== b) missed.push(`${kind}:${path}`);
  }
  for (const [kind, [hit, all]] of caught) process.stdout.write(`caught ${kind}: ${hit}/${all}\n`);
  process.stdout.write(`missed: ${missed.join(' ')}\n`);
  const falseMerges = clusters.clusters.filter((c) => new Set(c.members.map((m) => new URL(m.url).pathname)).size > 1);
  process.stdout.write(`clusters merging different paths: ${falseMerges.length}\n`);
  for (const c of falseMerges.slice(0, 10)) process.stdout.write(`  ${c.members.map((m) => `${m.kind}:${new URL(m.url).pathname}`).join(' ')}\n`);
  const shared = clusters.clusters.filter((c) => c.members.some((m) => m.url.includes('//127.0.0.1:')) && c.members.some((m) => m.url.includes('//localhost:')));
  const originalPrimary = shared.filter((c) => c.primary.includes('//127.0.0.1:')).length;
  process.stdout.write(`original primary: ${originalPrimary}/${shared.length} shared clusters (${(originalPrimary / Math.max(1, shared.length)).toFixed(3)})\n`);
}
