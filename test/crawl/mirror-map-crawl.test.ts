/**
 * Issue 26 end to end: a site on 127.0.0.1 and a full mirror of it on localhost (a later copy: later
 * Last-Modified dates), crawled with default flags. Whichever host is seeded first, the corpus holds
 * the original's pages, the mirror is confirmed and reported, and the crawl stops spending requests on
 * it; --follow-duplicates still crawls it all. Also MirrorMap's rules on their own.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { crawl } from '../../src/crawl/crawl.js';
import { MirrorMap } from '../../src/crawl/mirror-map.js';
import { CorpusWriter } from '../../src/store/corpus-writer.js';
import { corpusFileName } from '../../src/store/data-folder.js';
import { devTextsById } from '../helpers/dev-texts.js';
import { htmlPage, startFixtureSite, type FixtureResponse, type FixtureSite } from '../helpers/fixture-site.js';
import { makeTempDir } from '../helpers/temp-dir.js';

let ARTICLES = 0;
let site: FixtureSite;
beforeAll(async () => {
  const texts = devTextsById().filter((t) => t.split(/\s+/).length > 150).slice(0, 60);
  ARTICLES = texts.length;
  const routes = (year: number): Record<string, FixtureResponse> => {
    const out: Record<string, FixtureResponse> = {};
    // The home page (too short to judge: its links are always followed) lists every article.
    out['/'] = { body: htmlPage({ title: 'Home', paragraphs: ['Start here.'], links: texts.map((_, i) => `/a${i}`) }) };
    texts.forEach((text, i) => {
      out[`/a${i}`] = {
        body: htmlPage({ title: `Article ${i}`, paragraphs: text.split(/\n+/), links: [`/a${(i + 1) % ARTICLES}`, `/a${(i + 2) % ARTICLES}`] }),
        headers: { 'last-modified': new Date(Date.UTC(year, 0, 2, 0, i)).toUTCString() },
      };
    });
    return out;
  };
  site = await startFixtureSite({ '127.0.0.1': routes(2024), localhost: routes(2025) });
});
afterAll(async () => {
  await site?.close();
});

const config = (followDuplicates = false) => loadConfig({ env: {}, overrides: { crawl: { respectRobots: false, maxRequestsPerMinutePerHost: 1_000_000, followDuplicates } } });

async function crawlOnce(seeds: string[], followDuplicates = false) {
  const dataDir = makeTempDir('neardup-mirror-map-');
  const from = site.hits.length;
  try {
    const summary = await crawl({ seeds, dataDir, config: config(followDuplicates) });
    const corpus = CorpusWriter.readLive(readFileSync(join(dataDir, corpusFileName), 'utf8'));
    const mirrorRequests = site.hits.slice(from).filter((h) => h.host === 'localhost').length;
    return { summary, corpus, mirrorRequests };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const hostOf = (url: string) => new URL(url).hostname;

describe('a site and its full mirror, default flags', () => {
  it.each([['mirror seeded first', true], ['original seeded first', false]])('%s: the corpus holds the originals, the mirror is confirmed and mostly not fetched', async (_, mirrorFirst) => {
    const seeds = [site.url('localhost', '/'), site.url('127.0.0.1', '/')];
    const { summary, corpus, mirrorRequests } = await crawlOnce(mirrorFirst ? seeds : [...seeds].reverse());
    const articles = corpus.filter((r) => /\/a\d+$/.test(r.url));
    expect(articles.filter((r) => hostOf(r.url) === 'localhost').map((r) => r.url)).toEqual([]);
    expect(articles).toHaveLength(ARTICLES);
    expect(summary.hostMirrors.map((m) => `${m.mirror} mirrors ${m.original}`)).toEqual(['localhost mirrors 127.0.0.1']);
    // Sampled, then left: far fewer requests than the mirror's pages (how many are in flight when the
    // mirror is confirmed depends on timing, hence the margin over the 24-page sample).
    expect(mirrorRequests).toBeLessThan(ARTICLES * 0.75);
    expect(summary.linksNotFollowed.mirror).toBeGreaterThan(0);
    if (mirrorFirst) expect(summary.replaced ?? 0).toBeGreaterThan(0);
  }, 120_000);

  it('--follow-duplicates crawls the mirror all the same (and still stores the originals)', async () => {
    const { summary, corpus, mirrorRequests } = await crawlOnce([site.url('localhost', '/'), site.url('127.0.0.1', '/')], true);
    expect(mirrorRequests).toBe(ARTICLES + 1);
    expect(corpus.filter((r) => hostOf(r.url) === 'localhost' && /\/a\d+$/.test(r.url))).toEqual([]);
    expect(summary.linksNotFollowed).toEqual({ duplicate: 0, mirror: 0 });
  }, 120_000);
});

describe('MirrorMap', () => {
  it('samples the links of copies of another host\'s pages up to a budget, then counts them as not followed', () => {
    const map = new MirrorMap({ samplePages: 2 });
    expect(map.follows('m', true, 'o', 5)).toBe(true);
    expect(map.follows('m', true, 'o', 5)).toBe(true);
    expect(map.follows('m', true, 'o', 5)).toBe(false);
    // A copy of a page of its own host: never sampled.
    expect(map.follows('o', true, 'o', 7)).toBe(false);
    expect(map.follows('o', false, null, 7)).toBe(true);
    expect(map.linksNotFollowed).toEqual({ duplicate: 12, mirror: 0 });
  });

  it('a confirmed mirror: its pages\' links and links to it are not followed, its queued requests skipped', () => {
    const map = new MirrorMap();
    map.confirm({ mirror: 'm', original: 'o', copies: 12, judged: 12 });
    expect(map.avoids('m')).toBe(true);
    expect(map.follows('m', false, null, 4)).toBe(false);
    map.notQueued(3);
    map.skipRequest('m');
    expect(map.linksNotFollowed).toEqual({ duplicate: 0, mirror: 7 });
    expect(map.mirrors).toEqual([{ mirror: 'm', original: 'o', copies: 12, judged: 12, requestsSkipped: 1 }]);
  });

  it('with followDuplicates nothing is avoided', () => {
    const map = new MirrorMap({ followDuplicates: true });
    map.confirm({ mirror: 'm', original: 'o', copies: 12, judged: 12 });
    expect(map.avoids('m')).toBe(false);
    expect(map.follows('m', true, 'o', 4)).toBe(true);
  });
});
