/**
 * A site and a mirror of it, the mirror seeded first, crawled with default flags (issue 26's trial):
 * does the corpus hold the original, are the shared pages clustered, is the mirror reported and how
 * many requests does it cost?
 *
 * The site is either a folder of real HTML documentation served on 127.0.0.1 (by default Debian's
 * postgresql-doc-15: `apt-get install postgresql-doc-15`) or a generated site (`--site generated`:
 * `--pages` articles of 300–600 words from the demo articles' vocabulary, linked in a chain and from
 * list pages). The original answers with early Last-Modified dates; the mirror on localhost is a copy
 * made later (later Last-Modified dates) with a banner, as `wget --mirror` of a site would be:
 * `--mirror full` copies every page, `--mirror partial` a share (`--mirror-share`) of them, the rest
 * answering 404.
 *
 *   npx tsx scripts/try-mirror-first.ts [--site docs|generated] [--root DIR] [--mirror full|partial]
 *       [--max-pages N] [--host-rpm N] [--pg] [--partitions N] [--order mirror-first|original-first]
 *
 * `--pg` crawls into a throwaway PostgreSQL cluster (test/helpers/postgres-server.ts) with
 * `--partitions` processes (`neardup crawl --partition i/N`, each its own --data), else one process
 * on SQLite. Prints the figures and the crawl summaries.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { loadClusterReport } from '../src/report/load-cluster-report.js';
import { loadPgClusterReport } from '../src/report/load-pg-cluster-report.js';
import type { ClusterReport } from '../src/report/cluster-report.js';
import { CorpusWriter } from '../src/store/corpus-writer.js';
import { FingerprintIndex } from '../src/fingerprint-index/fingerprint-index.js';
import { PgFingerprintIndex } from '../src/fingerprint-index/postgres/pg-fingerprint-index.js';
import { databaseFileName } from '../src/store/data-folder.js';
import { corpusFileName } from '../src/store/data-folder.js';
import { loadDemoArticles } from '../test/helpers/demo-site/demo-site.js';
import { startFixtureSite, type FixtureResponse } from '../test/helpers/fixture-site.js';
import { PostgresServer, freshDatabaseName } from '../test/helpers/postgres-server.js';
import { spawnNeardup } from '../test/helpers/run-cli.js';
import { seededRandom } from '../test/helpers/seeded-random.js';

const { values } = parseArgs({
  options: {
    site: { type: 'string', default: 'docs' },
    root: { type: 'string', default: '/usr/share/doc/postgresql-doc-15/html' },
    pages: { type: 'string', default: '400' },
    mirror: { type: 'string', default: 'full' },
    'mirror-share': { type: 'string', default: '0.6' },
    'max-pages': { type: 'string' },
    'host-rpm': { type: 'string', default: '6000' },
    order: { type: 'string', default: 'mirror-first' },
    pg: { type: 'boolean', default: false },
    partitions: { type: 'string', default: '2' },
    seed: { type: 'string', default: '7' },
  },
});

const random = seededRandom(Number(values.seed));
const ORIGINAL = '127.0.0.1';
const MIRROR = 'localhost';

/** path → HTML of the original site, and its home path. */
function originalPages(): { pages: Map<string, string>; home: string } {
  const pages = new Map<string, string>();
  if (values.site === 'generated') {
    const words = loadDemoArticles().flatMap((a) => a.paragraphs.join(' ').split(/\s+/)).filter((w) => /^[a-z]+$/i.test(w));
    const n = Number(values.pages);
    const lists: string[] = [];
    for (let i = 0; i < n; i++) {
      const paragraphs: string[] = [];
      const length = 300 + Math.floor(random() * 300);
      for (let w = 0; w < length; w += 60) paragraphs.push(Array.from({ length: 60 }, () => words[Math.floor(random() * words.length)]!).join(' '));
      const next = [1, 2, 3].map((d) => `/articles/${(i + d) % n}.html`);
      pages.set(`/articles/${i}.html`, `<!doctype html><html><head><title>Article ${i}</title></head><body><nav><a href="/index.html">Home</a></nav>
<article><h1>Article ${i}</h1>${paragraphs.map((p) => `<p>${p}.</p>`).join('')}</article>
<aside>${next.map((href) => `<a href="${href}">${href}</a>`).join(' ')}</aside></body></html>`);
      if (i % 50 === 0) lists.push(`/list-${i / 50}.html`);
    }
    lists.forEach((path, l) => {
      const links = Array.from({ length: 50 }, (_, j) => l * 50 + j).filter((i) => i < n).map((i) => `<li><a href="/articles/${i}.html">Article ${i}</a></li>`);
      pages.set(path, `<!doctype html><html><head><title>List ${l}</title></head><body><ul>${links.join('')}</ul></body></html>`);
    });
    pages.set('/index.html', `<!doctype html><html><head><title>Home</title></head><body><ul>${lists.map((p) => `<li><a href="${p}">${p}</a></li>`).join('')}</ul></body></html>`);
    return { pages, home: '/index.html' };
  }
  const root = values.root;
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    process.stderr.write(`try-mirror-first: no HTML folder at ${root} (apt-get install postgresql-doc-15, or pass --root)\n`);
    process.exit(1);
  }
  for (const entry of readdirSync(root, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.html')) {
      const path = `/${relative(root, join(entry.parentPath, entry.name))}`;
      pages.set(path, readFileSync(join(root, path), 'utf8'));
    }
  }
  return { pages, home: '/index.html' };
}

const { pages, home } = originalPages();
const paths = [...pages.keys()].sort();
const original: Record<string, FixtureResponse> = {};
const mirror: Record<string, FixtureResponse> = {};
const mirrored = new Set<string>();
const share = values.mirror === 'full' ? 1 : Number(values['mirror-share']);
paths.forEach((path, i) => {
  const html = pages.get(path)!;
  original[path] = { body: html, headers: { 'last-modified': new Date(Date.UTC(2024, 0, 2, 0, i % 1440)).toUTCString() } };
  if (path !== home && random() >= share) return;
  mirrored.add(path);
  // A copy made later, with the mirror's banner (outside the main text).
  const body = html.replace(/<body([^>]*)>/i, '<body$1><div class="mirror-banner">Mirror of the documentation, updated nightly.</div>');
  mirror[path] = { body, headers: { 'last-modified': new Date(Date.UTC(2024, 5, 1, 0, i % 1440)).toUTCString() } };
});
original['/'] = { redirect: home };
mirror['/'] = { redirect: home };

const site = await startFixtureSite({ [ORIGINAL]: original, [MIRROR]: mirror });
const work = mkdtempSync(join(tmpdir(), 'neardup-mirror-first-'));
const seeds = [site.url(MIRROR, '/'), site.url(ORIGINAL, '/')];
if (values.order === 'original-first') seeds.reverse();
const maxPages = values['max-pages'] ?? String(Math.max(1000, 3 * paths.length));
const common = ['--no-robots', '--host-rpm', values['host-rpm']!, '--max-pages', maxPages];
let pg: PostgresServer | null = null;
try {
  const started = Date.now();
  let report: ClusterReport;
  let dataDirs: string[];
  /** host + path of every page the index judged (stored or rejected; not the skipped ones, too short to judge). */
  const judged = new Set<string>();
  const key = (url: string) => `${new URL(url).hostname}${new URL(url).pathname}`;
  const config = loadConfig({ env: {} });
  if (values.pg) {
    pg = await PostgresServer.start();
    const url = await pg.createDatabase(freshDatabaseName());
    const n = Number(values.partitions);
    dataDirs = Array.from({ length: n }, (_, i) => join(work, `p${i}`));
    const runs = await Promise.all(dataDirs.map((dir, i) =>
      spawnNeardup(['crawl', ...seeds, '--data', dir, '--index', url, '--partition', `${i}/${n}`, ...common])));
    runs.forEach((run, i) => process.stdout.write(`--- process ${i}/${n} (exit ${run.code})\n${run.stdout}${run.stderr}`));
    report = await loadPgClusterReport(url, config);
    const index = await PgFingerprintIndex.open(url, { params: await PgFingerprintIndex.readParams(url), readonly: true });
    for await (const doc of index.stored()) judged.add(key(doc.url));
    for await (const doc of index.rejected()) judged.add(key(doc.url));
    await index.close();
  } else {
    dataDirs = [join(work, 'data')];
    const run = await spawnNeardup(['crawl', ...seeds, '--data', dataDirs[0]!, ...common]);
    process.stdout.write(`--- crawl (exit ${run.code})\n${run.stdout}${run.stderr}`);
    report = loadClusterReport(dataDirs[0]!, config);
    const path = join(dataDirs[0]!, databaseFileName);
    const index = FingerprintIndex.open(path, { params: FingerprintIndex.readParams(path), readonly: true });
    for (const doc of index.stored()) judged.add(key(doc.url));
    for (const doc of index.rejected()) judged.add(key(doc.url));
    index.close();
  }
  const seconds = (Date.now() - started) / 1000;

  // Requests per host (robots.txt not asked: --no-robots), and each URL fetched once?
  const pageHits = site.hits.filter((h) => h.path !== '/robots.txt');
  const perHost = (host: string) => pageHits.filter((h) => h.host === host);
  const fetchedTwice = new Map<string, number>();
  for (const h of pageHits) fetchedTwice.set(`${h.host}${h.path}`, (fetchedTwice.get(`${h.host}${h.path}`) ?? 0) + 1);
  const repeats = [...fetchedTwice.entries()].filter(([, n]) => n > 1).map(([k]) => k);

  // Live corpus lines by host and path.
  const corpus = dataDirs.flatMap((dir) => (existsSync(join(dir, corpusFileName)) ? CorpusWriter.readLive(readFileSync(join(dir, corpusFileName), 'utf8')) : []));
  const corpusByPath = new Map<string, Set<string>>();
  for (const record of corpus) {
    const url = new URL(record.finalUrl ?? record.url);
    const set = corpusByPath.get(url.pathname) ?? new Set<string>();
    set.add(url.hostname);
    corpusByPath.set(url.pathname, set);
  }
  // Shared pages: carried by both hosts; "seen" when the crawl fetched both copies.
  const fetchedPaths = (host: string) => new Set(perHost(host).map((h) => h.path));
  const mirrorFetched = fetchedPaths(MIRROR);
  const originalFetched = fetchedPaths(ORIGINAL);
  // Pages both hosts carry that have text enough to judge (the original's copy was judged).
  const shared = [...mirrored].filter((p) => judged.has(`${ORIGINAL}${p}`));
  const sharedSeen = shared.filter((p) => mirrorFetched.has(p) && originalFetched.has(p) && judged.has(`${MIRROR}${p}`));
  const corpusHolds = (p: string) => corpusByPath.get(p);
  const holdsOriginal = shared.filter((p) => corpusHolds(p)?.has(ORIGINAL) === true && corpusHolds(p)?.has(MIRROR) !== true).length;
  const holdsMirror = shared.filter((p) => corpusHolds(p)?.has(MIRROR) === true).length;
  const clusterOf = new Map<string, number>();
  for (const c of report.clusters) for (const m of c.members) clusterOf.set(`${new URL(m.url).hostname}${new URL(m.url).pathname}`, c.id);
  const clustered = sharedSeen.filter((p) => clusterOf.get(`${ORIGINAL}${p}`) !== undefined && clusterOf.get(`${ORIGINAL}${p}`) === clusterOf.get(`${MIRROR}${p}`)).length;
  const falseMerges = report.clusters.filter((c) => new Set(c.members.map((m) => new URL(m.url).pathname)).size > 1);
  const primaryOriginal = report.clusters.filter((c) => new URL(c.primary).hostname === ORIGINAL && c.members.some((m) => new URL(m.url).hostname === MIRROR)).length;
  const sharedClusters = report.clusters.filter((c) => c.members.some((m) => new URL(m.url).hostname === MIRROR) && c.members.some((m) => new URL(m.url).hostname === ORIGINAL)).length;

  const pct = (a: number, b: number) => `${a}/${b} (${b === 0 ? '-' : ((100 * a) / b).toFixed(1)}%)`;
  process.stdout.write(`${[
    `--- figures (${values.site === 'generated' ? `generated site, ${values.pages} articles` : values.root}, ${values.mirror} mirror, ${values.order}, ${values.pg ? `PostgreSQL, ${values.partitions} processes` : 'SQLite, 1 process'}, ${seconds.toFixed(1)} s)`,
    `pages: original ${paths.length}, mirror ${mirrored.size}; shared pages with text enough to judge: ${shared.length}`,
    `requests: original ${perHost(ORIGINAL).length}, mirror ${perHost(MIRROR).length} (${(perHost(MIRROR).length / mirrored.size).toFixed(3)} × its pages); URLs fetched more than once: ${repeats.length}${repeats.length > 0 ? ` (${repeats.slice(0, 5).join(' ')})` : ''}`,
    `corpus holds the original of shared pages: ${pct(holdsOriginal, shared.length)}; the mirror's copy: ${holdsMirror}`,
    `shared pages fetched on both hosts: ${sharedSeen.length}; clustered together: ${pct(clustered, sharedSeen.length)}`,
    `report: ${report.clusters.length} clusters, primary on the original in ${pct(primaryOriginal, sharedClusters)} shared clusters, clusters merging different paths: ${falseMerges.length}`,
    `report host mirrors: ${report.mirrors.map((m) => m.summary).join('; ') || 'none'}`,
  ].join('\n')}\n`);
} finally {
  await site.close();
  pg?.stop();
  rmSync(work, { recursive: true, force: true });
}
