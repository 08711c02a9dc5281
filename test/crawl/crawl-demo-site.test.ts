/**
 * The crawl against the demo site (scripts/demo-site/demo-site.ts): an original news site on
 * 127.0.0.1 and a mirror on localhost with byte copies, re-templated copies and edited copies.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoSite } from '../helpers/demo-site/demo-site.js';
import type { DemoSite } from '../helpers/demo-site/demo-site.js';
import { loadConfig } from '../../src/config.js';
import { crawl } from '../../src/crawl/crawl.js';
import type { CrawlPageEvent, CrawlSummary } from '../../src/crawl/crawl.js';
import { readCrawlResults } from '../helpers/crawl-results.js';
import type { CrawlResults } from '../helpers/crawl-results.js';
import { makeTempDir } from '../helpers/temp-dir.js';

let demo: DemoSite;
let dataDir: string;
let summary: CrawlSummary;
let results: CrawlResults;
const events: CrawlPageEvent[] = [];
// One request at a time, unpaced: breadth-first, so each original is crawled before its copies.
const config = loadConfig({ env: {}, overrides: { crawl: { concurrency: 1, maxRequestsPerMinutePerHost: 1_000_000 } } });

beforeAll(async () => {
  demo = await startDemoSite();
  dataDir = makeTempDir('neardup-crawl-demo-');
  // The default: fingerprinting in a worker thread (on a machine with two cores or more).
  summary = await crawl({ seeds: [demo.manifest.mainHome, demo.manifest.mirrorHome], dataDir, config, onPage: (e) => events.push(e) });
  results = readCrawlResults(dataDir, config);
});

afterAll(async () => {
  await demo?.site.close();
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
});

const fetched = (url: string) => demo.site.hits.some((hit) => demo.site.url(hit.host, hit.path) === url);

describe('crawling a site and its mirror', () => {
  it('finishes the crawl', () => {
    expect(summary.stopReason).toBe('finished');
    expect(summary.pending).toBe(0);
    expect(summary.errors).toBe(0);
  });

  it('stores every original article, all sharing one page template', () => {
    for (const url of demo.manifest.originals) expect(results.stored.has(url), url).toBe(true);
  });

  it('stores the articles only the mirror has, on the mirror\'s template', () => {
    for (const url of demo.manifest.mirrorOriginals) expect(results.stored.has(url), url).toBe(true);
  });

  it('rejects byte copies on the second host as exact duplicates of their originals', () => {
    for (const [copy, original] of demo.manifest.byteCopies) {
      expect(results.rejected.get(copy), copy).toMatchObject({ kind: 'exact', distance: 0, matchUrl: original });
    }
  });

  it('rejects copies in another template and copies with small edits as duplicates of their originals', () => {
    for (const [copy, original] of [...demo.manifest.retemplated, ...demo.manifest.edited]) {
      const rejected = results.rejected.get(copy);
      expect(rejected, copy).toBeDefined();
      expect(rejected!.matchUrl).toBe(original);
      expect(rejected!.distance).toBeLessThanOrEqual(config.fingerprint.distance);
    }
  });

  it('follows the links of copies of another host\'s pages only to sample that host (mirror-map.ts): a partial mirror with pages of its own is not confirmed, its copies\' links are followed', () => {
    // The mirror has articles of its own (stored), so it is never confirmed a mirror of 127.0.0.1.
    expect(summary.hostMirrors).toEqual([]);
    for (const url of demo.manifest.onlyLinkedFromCopies) expect(fetched(url), url).toBe(true);
  });

  it('obeys robots.txt, fetched once per host with our User-Agent', () => {
    expect(fetched(demo.manifest.robotsDisallowed)).toBe(false);
    expect(results.skipped.get(demo.manifest.robotsDisallowed)?.reason).toBe('robots');
    const robotsHits = demo.site.hits.filter((hit) => hit.path === '/robots.txt');
    expect(robotsHits.map((hit) => hit.host).sort()).toEqual(['127.0.0.1', 'localhost']);
    for (const hit of demo.site.hits) expect(hit.userAgent).toBe(config.crawl.userAgent);
  });

  it('records HTTP errors and non-HTML resources with their reason', () => {
    expect(results.skipped.get(demo.manifest.notFound)).toMatchObject({ reason: 'http-error', detail: 'HTTP 404' });
    expect(results.skipped.get(demo.manifest.pdf)).toMatchObject({ reason: 'not-html', detail: 'application/pdf' });
  });

  it('records the final URL of a redirected page (the same page under two URLs)', () => {
    const { from, to } = demo.manifest.redirect;
    const record = results.rejected.get(from) ?? results.stored.get(from);
    expect(record?.finalUrl).toBe(to);
    expect(results.rejected.get(from)?.matchUrl ?? results.rejected.get(to)?.matchUrl).toBe(results.stored.has(to) ? to : from);
  });

  it('decodes a windows-1251 page declared only in <meta> into readable Cyrillic', () => {
    const line = results.corpus.find((record) => record.url === demo.manifest.russian);
    expect(line?.title).toBe(demo.manifest.russianTitle);
    expect(line?.text).toContain('В среду в Москве выпал первый снег');
    expect(line?.language).toBe('rus');
  });

  it('writes corpus.jsonl: exactly the stored documents, once each, with their fingerprints', () => {
    expect(results.corpus.map((record) => record.url).sort()).toEqual([...results.stored.keys()].sort());
    expect(new Set(results.corpus.map((record) => record.id)).size).toBe(results.corpus.length);
    for (const record of results.corpus) {
      expect(record.fingerprint).toMatch(/^[0-9a-f]{16}$/);
      expect(Date.parse(record.fetchedAt ?? '')).not.toBeNaN();
      expect(record.text.length).toBeGreaterThan(0);
    }
  });

  it('counts what it did, and reports each page once', () => {
    expect(summary.stored).toBe(results.stored.size);
    expect(summary.exact + summary.near).toBe(results.rejected.size);
    expect(summary.skipped).toBe(results.skipped.size);
    const urls = events.map((e) => e.url);
    expect(new Set(urls).size).toBe(urls.length);
    // A redirect is one fetch of two responses.
    expect(summary.fetched).toBe(demo.site.hits.filter((hit) => hit.path !== '/robots.txt' && (hit.status < 300 || hit.status > 399)).length);
  });
});
