/**
 * Citations, not templates: a site on 127.0.0.1 and a mirror on localhost whose template (a sidebar)
 * links to every mirror page. The original's pages carry the earlier Last-Modified dates. Before
 * in-links counted citations only, the mirror's sidebar gave each mirror page "in-links 40 vs 1"
 * and the mirror won the primary choice; now the original must be primary in at least 95% of the
 * shared clusters, and say why (its earlier date), with the evidence against it when there is any.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { crawl } from '../../src/crawl/crawl.js';
import { loadClusterReport } from '../../src/report/load-cluster-report.js';
import type { ClusterReport } from '../../src/report/cluster-report.js';
import { escapeHtml } from '../../src/report/html-escape.js';
import { dailySamplePage } from '../helpers/demo-site/demo-site.js';
import { devTextsById } from '../helpers/dev-texts.js';
import { startFixtureSite, type FixtureResponse, type FixtureSite } from '../helpers/fixture-site.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const ARTICLES = 40;
const config = loadConfig({ env: {}, overrides: { crawl: { concurrency: 4, maxRequestsPerMinutePerHost: 1_000_000, respectRobots: false, followDuplicates: true } } });

/** The mirror's template: a sidebar linking to every mirror page, then the article. */
function mirrorPage(title: string, paragraphs: readonly string[], sidebar: readonly string[]): string {
  const links = sidebar.map((href, i) => `<li><a href="${href}">Story ${i}</a></li>`).join('');
  return `<!doctype html><html><head><title>${escapeHtml(title)} - Mirror Times</title></head><body>
<div class="layout"><aside class="sidebar"><h3>All stories</h3><ul>${links}</ul></aside>
<div class="content"><h1>${escapeHtml(title)}</h1>${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}</div></div>
<footer>Mirror Times</footer></body></html>`;
}

let site: FixtureSite;
let dataDir: string;
let report: ClusterReport;

beforeAll(async () => {
  const texts = devTextsById().filter((text) => text.length > 2000).slice(0, ARTICLES);
  const original: Record<string, FixtureResponse> = {};
  const mirror: Record<string, FixtureResponse> = {};
  const mirrorPaths = texts.map((_, i) => `/m/${i}`);
  texts.forEach((text, i) => {
    const paragraphs = text.split(/\n+/).filter((p) => p.trim() !== '');
    const title = `Story ${i}: ${paragraphs[0]!.slice(0, 40)}`;
    original[`/a/${i}`] = {
      body: dailySamplePage({ title, paragraphs }),
      headers: { 'last-modified': new Date(Date.UTC(2024, 0, 2, i)).toUTCString() },
    };
    mirror[mirrorPaths[i]!] = {
      body: mirrorPage(title, paragraphs, mirrorPaths),
      headers: { 'last-modified': new Date(Date.UTC(2024, 5, 1, i)).toUTCString() },
    };
  });
  original['/'] = { body: `<ul>${texts.map((_, i) => `<li><a href="/a/${i}">${i}</a></li>`).join('')}</ul>` };
  mirror['/'] = { body: `<ul>${mirrorPaths.map((p) => `<li><a href="${p}">${p}</a></li>`).join('')}</ul>` };
  site = await startFixtureSite({ '127.0.0.1': original, localhost: mirror });
  dataDir = makeTempDir('neardup-mirror-primary-');
  await crawl({ seeds: [site.url('localhost', '/'), site.url('127.0.0.1', '/')], dataDir, config, dedupWorker: false });
  report = loadClusterReport(dataDir, config);
}, 240_000);

afterAll(async () => {
  await site?.close();
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
});

describe('primary choice on a mirror whose template links to every page', () => {
  it('names the original primary in at least 95% of the shared clusters, by its earlier date', () => {
    const shared = report.clusters.filter((c) => c.members.some((m) => m.url.includes('//127.0.0.1:')) && c.members.some((m) => m.url.includes('//localhost:')));
    // Every article and its mirror copy make one cluster (not a test that passes on nothing).
    expect(shared.length).toBeGreaterThanOrEqual(ARTICLES * 0.9);
    const originalPrimary = shared.filter((c) => c.primary.includes('//127.0.0.1:'));
    expect(originalPrimary.length / shared.length).toBeGreaterThanOrEqual(0.95);
    for (const cluster of originalPrimary) {
      expect(cluster.reasons.join('; ')).toMatch(/earliest date 2024-01-\d\d vs 2024-06-\d\d/);
      // The mirror's sidebar gave it no in-links: no reason claims it has more.
      expect(cluster.reasons.join('; ')).not.toMatch(/in-links/);
    }
  });
});
