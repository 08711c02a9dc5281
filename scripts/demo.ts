/**
 * `npm start`: serves the demo site (a news site on 127.0.0.1 and a site mirroring it on
 * localhost, see scripts/demo-site/demo-site.ts), crawls both into ./data with neardup, and prints
 * what was stored, what was rejected as which page's duplicate, and what was skipped and why.
 * Offline; ./data is emptied of the previous demo's outputs first.
 *
 *   npm start            # or: npx tsx scripts/demo.ts [--data <dir>]
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { crawl, crawleeFolderName } from '../src/crawl/crawl.js';
import type { CrawlPageEvent } from '../src/crawl/crawl.js';
import { corpusFileName, databaseFileName } from '../src/store/data-folder.js';
import { loadClusterReport } from '../src/report/load-cluster-report.js';
import { formatClustersHtml } from '../src/report/format-html.js';
import { writeFileAtomic } from '../src/report/write-file-atomic.js';
import { startDemoSite } from '../test/helpers/demo-site/demo-site.js';

const dataFlag = process.argv.indexOf('--data');
const dataDir = dataFlag >= 0 && process.argv[dataFlag + 1] !== undefined ? process.argv[dataFlag + 1]! : './data';

for (const name of [databaseFileName, `${databaseFileName}-wal`, `${databaseFileName}-shm`, corpusFileName, crawleeFolderName]) {
  rmSync(join(dataDir, name), { recursive: true, force: true });
}

const { site, manifest } = await startDemoSite();
const out = (line = '') => process.stdout.write(`${line}\n`);
out('neardup demo');
out(`  The Daily Sample (original site): ${manifest.mainHome}`);
out(`  Mirror Times (copies it):         ${manifest.mirrorHome}`);
out(`  crawling both into ${dataDir} ...`);
out();

const events: CrawlPageEvent[] = [];
const config = loadConfig({
  env: {},
  // One request at a time and no pacing, so the crawl goes breadth-first: the original site's
  // pages come before the mirror's, and the demo reads the same every run.
  overrides: { crawl: { concurrency: 1, maxPages: 200, maxRequestsPerMinutePerHost: 1_000_000 } },
});
let summary;
try {
  summary = await crawl({ seeds: [manifest.mainHome, manifest.mirrorHome], dataDir, config, onPage: (e) => events.push(e) });
} finally {
  await site.close();
}

const path = (url: string) => {
  const u = new URL(url);
  return `${u.hostname === '127.0.0.1' ? 'daily' : 'mirror'}:${u.pathname}${u.search}`;
};
const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
const stored = events.filter((e) => e.decision.kind === 'stored');
const rejected = events.filter((e) => e.decision.kind === 'exact' || e.decision.kind === 'near');
const skipped = events.filter((e) => e.decision.kind === 'skipped');

out(`Stored (${stored.length}) — the deduplicated corpus, ${join(dataDir, corpusFileName)}:`);
for (const e of stored) out(`  ${pad(path(e.url), 58)} ${e.title.slice(0, 60)}`);
out();
out(`Rejected as duplicates (${rejected.length}) — not stored, links on them not followed:`);
for (const e of rejected) {
  const d = e.decision as { kind: 'exact' | 'near'; matchUrl: string; distance: number };
  const kind = d.kind === 'exact' ? 'exact copy of' : `near copy (distance ${d.distance}) of`;
  const redirected = e.finalUrl === null ? '' : ` [redirected to ${path(e.finalUrl)}]`;
  out(`  ${pad(path(e.url), 46)} ${kind} ${path(d.matchUrl)}${redirected}`);
}
out();
out(`Skipped (${skipped.length}):`);
for (const e of skipped) {
  const reason = e.decision.kind === 'skipped' ? e.decision.reason : '';
  out(`  ${pad(path(e.url), 46)} ${reason}${e.detail === '' ? '' : ` (${e.detail})`}`);
}
out();
const neverFetched = manifest.onlyLinkedFromCopies.filter((url) => !site.hits.some((h) => site.url(h.host, h.path) === url));
out(`Pages linked only from rejected copies, never fetched: ${neverFetched.length} of ${manifest.onlyLinkedFromCopies.length}`);
out();
out(`crawl: ${summary.fetched} pages in ${(summary.elapsedMs / 1000).toFixed(1)} s; stored ${summary.stored}, `
  + `rejected ${summary.exact + summary.near} (exact ${summary.exact}, near ${summary.near}), skipped ${summary.skipped}`);

// The report: duplicate URL clusters, the primary (original) of each and why, host mirrors.
const report = loadClusterReport(dataDir, config);
out();
out(`Duplicate clusters (${report.clusters.length}), primary first:`);
for (const cluster of report.clusters) {
  out(`  ${path(cluster.primary)}  — ${cluster.reasons.join('; ')}`);
  for (const m of cluster.members) if (m.url !== cluster.primary) out(`      ${m.kind} d=${m.distance}  ${path(m.url)}`);
}
for (const mirror of report.mirrors) out(`  host mirror: ${mirror.summary}`);
const reportFile = join(dataDir, 'report.html');
writeFileAtomic(reportFile, formatClustersHtml(report));
out();
out(`outputs: ${join(dataDir, databaseFileName)}, ${join(dataDir, corpusFileName)}, ${reportFile} (open it in a browser)`);
out(`more: node bin/neardup.js clusters --data ${dataDir} --format json|csv|html`);
