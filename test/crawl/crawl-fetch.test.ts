/**
 * What the crawl fetches and how it reads it: scope, robots.txt, redirects, charsets, content
 * types, size cap, HTTP errors. Small hand-made sites on a local server.
 */
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterEach, describe, expect, it } from 'vitest';
import { dailySamplePage, loadDemoArticles } from '../helpers/demo-site/demo-site.js';
import { loadConfig } from '../../src/config.js';
import type { PartialConfig } from '../../src/config.js';
import { crawl } from '../../src/crawl/crawl.js';
import type { CrawlSummary } from '../../src/crawl/crawl.js';
import { ValidationError } from '../../src/errors.js';
import { startFixtureSite } from '../helpers/fixture-site.js';
import type { FixtureHosts, FixtureSite } from '../helpers/fixture-site.js';
import { readCrawlResults } from '../helpers/crawl-results.js';
import type { CrawlResults } from '../helpers/crawl-results.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const articles = loadDemoArticles();
const article = (i: number, links: readonly string[] = []) =>
  dailySamplePage({ title: articles[i]!.title, paragraphs: articles[i]!.paragraphs, related: links.map((href) => ({ href, title: href })) });
const home = (links: readonly string[]) => `<!doctype html><title>Home</title><ul>${links.map((l) => `<li><a href="${l}">${l}</a></li>`).join('')}</ul>`;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Run {
  readonly site: FixtureSite;
  readonly summary: CrawlSummary;
  readonly results: CrawlResults;
  readonly fetched: (host: string, path: string) => boolean;
}

async function run(hosts: FixtureHosts | ((site: FixtureSite) => void), seeds: readonly [string, string][], crawlSettings: PartialConfig['crawl'] = {}): Promise<Run> {
  const site = await startFixtureSite(typeof hosts === 'function' ? {} : hosts);
  cleanups.push(() => site.close());
  if (typeof hosts === 'function') hosts(site);
  const dataDir = makeTempDir('neardup-crawl-fetch-');
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({ env: {}, overrides: { crawl: { concurrency: 2, maxRequestsPerMinutePerHost: 1_000_000, ...crawlSettings } } });
  const summary = await crawl({ seeds: seeds.map(([host, path]) => site.url(host, path)), dataDir, config, dedupWorker: false });
  return {
    site,
    summary,
    results: readCrawlResults(dataDir, config),
    fetched: (host, path) => site.hits.some((hit) => hit.host === host && hit.path === path),
  };
}

describe('scope', () => {
  const hosts = (site: FixtureSite) => {
    site.setRoute('127.0.0.1', '/', { body: home(['/a', site.url('localhost', '/b')]) });
    site.setRoute('127.0.0.1', '/a', { body: article(0) });
    site.setRoute('localhost', '/b', { body: article(1) });
  };

  it('stays on the seeds\' hosts by default', async () => {
    const { fetched, results } = await run(hosts, [['127.0.0.1', '/']]);
    expect(fetched('127.0.0.1', '/a')).toBe(true);
    expect(fetched('localhost', '/b')).toBe(false);
    expect(fetched('localhost', '/robots.txt')).toBe(false);
    expect([...results.stored.keys()]).toHaveLength(1);
  });

  it('goes to other hosts with scope any', async () => {
    const { fetched, site, results } = await run(hosts, [['127.0.0.1', '/']], { scope: 'any' });
    expect(fetched('localhost', '/b')).toBe(true);
    expect(results.stored.has(site.url('localhost', '/b'))).toBe(true);
  });

  it('follows a redirect within scope and records the final URL', async () => {
    const { site, results } = await run((s) => {
      s.setRoute('127.0.0.1', '/', { body: home(['/moved']) });
      s.setRoute('127.0.0.1', '/moved', { status: 301, redirect: '/new-home' });
      s.setRoute('127.0.0.1', '/new-home', { body: article(2) });
    }, [['127.0.0.1', '/']]);
    const doc = results.stored.get(site.url('127.0.0.1', '/moved'));
    expect(doc?.finalUrl).toBe(site.url('127.0.0.1', '/new-home'));
    expect(results.corpus.find((r) => r.url === site.url('127.0.0.1', '/moved'))?.finalUrl).toBe(site.url('127.0.0.1', '/new-home'));
  });

  it('does not follow a redirect out of scope, and records it', async () => {
    const { site, fetched, results } = await run((s) => {
      s.setRoute('127.0.0.1', '/', { body: home(['/away']) });
      s.setRoute('127.0.0.1', '/away', { status: 302, redirect: s.url('localhost', '/elsewhere') });
      s.setRoute('localhost', '/elsewhere', { body: article(3) });
    }, [['127.0.0.1', '/']]);
    expect(fetched('localhost', '/elsewhere')).toBe(false);
    expect(results.skipped.get(site.url('127.0.0.1', '/away'))).toMatchObject({
      reason: 'out-of-scope',
      detail: `redirect to ${site.url('localhost', '/elsewhere')}`,
    });
  });

  it('refuses a seed that is not an http(s) URL, before writing anything', async () => {
    const dataDir = join(tmpdir(), `neardup-never-${process.pid}-${Date.now()}`);
    const config = loadConfig({ env: {} });
    await expect(crawl({ seeds: ['ftp://example.com/'], dataDir, config })).rejects.toThrow(ValidationError);
    await expect(crawl({ seeds: [], dataDir, config })).rejects.toThrow(ValidationError);
    const { existsSync } = await import('node:fs');
    expect(existsSync(dataDir)).toBe(false);
  });
});

describe('robots.txt', () => {
  const site = (robots: FixtureHosts[string][string]) => (s: FixtureSite) => {
    s.setRoute('127.0.0.1', '/robots.txt', robots);
    s.setRoute('127.0.0.1', '/', { body: home(['/open', '/private/secret', '/bots-only']) });
    s.setRoute('127.0.0.1', '/open', { body: article(0) });
    s.setRoute('127.0.0.1', '/private/secret', { body: article(1) });
    s.setRoute('127.0.0.1', '/bots-only', { body: article(2) });
  };
  const rules = { body: 'User-agent: *\nDisallow: /private/\n\nUser-agent: neardup\nDisallow: /private/\nDisallow: /bots-only\n', headers: { 'content-type': 'text/plain' } };

  it('skips what the group for our agent disallows, never fetching it', async () => {
    const r = await run(site(rules), [['127.0.0.1', '/']]);
    expect(r.fetched('127.0.0.1', '/open')).toBe(true);
    expect(r.fetched('127.0.0.1', '/private/secret')).toBe(false);
    expect(r.fetched('127.0.0.1', '/bots-only')).toBe(false);
    expect(r.results.skipped.get(r.site.url('127.0.0.1', '/private/secret'))?.reason).toBe('robots');
    expect(r.results.skipped.get(r.site.url('127.0.0.1', '/bots-only'))?.reason).toBe('robots');
    expect(r.summary.skippedBy.robots).toBe(2);
  });

  it('fetches everything when told to ignore robots.txt', async () => {
    const r = await run(site(rules), [['127.0.0.1', '/']], { respectRobots: false });
    expect(r.fetched('127.0.0.1', '/private/secret')).toBe(true);
    expect(r.fetched('127.0.0.1', '/robots.txt')).toBe(false);
  });

  it('allows everything when robots.txt is missing (404)', async () => {
    const r = await run(site({ status: 404, body: 'none' }), [['127.0.0.1', '/']]);
    expect(r.fetched('127.0.0.1', '/private/secret')).toBe(true);
  });

  it('fetches nothing when robots.txt fails with a server error (RFC 9309), recorded as unreachable, not robots', async () => {
    const r = await run(site({ status: 503, body: 'down' }), [['127.0.0.1', '/']]);
    // robots.txt only (asked again by the seed's retries within the run: seed-retry.ts), never the page.
    expect(new Set(r.site.hits.map((hit) => hit.path))).toEqual(new Set(['/robots.txt']));
    expect(r.results.skipped.get(r.site.url('127.0.0.1', '/'))).toMatchObject({ reason: 'unreachable', detail: 'robots.txt unreachable: HTTP 503' });
    expect(r.summary.skippedBy.robots ?? 0).toBe(0);
  });
});

describe('charsets', () => {
  const russian = '<p>Съешь же ещё этих мягких французских булок, да выпей чаю. Широкая электрификация южных губерний даст мощный толчок подъёму сельского хозяйства. Любя, съешь щипцы, — вздохнёт мэр, — кайф жгуч.</p>';
  const page = (head: string) => `<!doctype html><html lang="ru"><head>${head}<title>Проверка кодировки</title></head><body><article><h1>Проверка кодировки</h1>${russian}</article></body></html>`;

  it.each([
    ['the Content-Type header', page(''), 'text/html; charset=windows-1251'],
    ['<meta charset>', page('<meta charset="windows-1251">'), 'text/html'],
    ['<meta http-equiv>', page('<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">'), 'text/html'],
    ['nothing (detected)', page(''), 'text/html'],
  ])('reads windows-1251 declared by %s as Cyrillic', async (_how, html, contentType) => {
    const r = await run((s) => {
      s.setRoute('127.0.0.1', '/ru', { body: new Uint8Array(iconv.encode(html, 'windows-1251')), headers: { 'content-type': contentType } });
    }, [['127.0.0.1', '/ru']], { respectRobots: false });
    const record = r.results.corpus[0];
    expect(record?.title).toBe('Проверка кодировки');
    expect(record?.text).toContain('Широкая электрификация южных губерний');
    expect(record?.language).toBe('rus');
  });

  it('reads KOI8-R and Shift_JIS declared in the header', async () => {
    const japanese = '<p>吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。何でも薄暗いじめじめした所でニャーニャー泣いていた事だけは記憶している。吾輩はここで始めて人間というものを見た。</p>';
    const r = await run((s) => {
      s.setRoute('127.0.0.1', '/koi8', { body: new Uint8Array(iconv.encode(page(''), 'koi8-r')), headers: { 'content-type': 'text/html; charset=koi8-r' } });
      s.setRoute('127.0.0.1', '/sjis', {
        body: new Uint8Array(iconv.encode(`<!doctype html><html lang="ja"><head><title>猫</title></head><body><article>${japanese}</article></body></html>`, 'shift_jis')),
        headers: { 'content-type': 'text/html; charset=Shift_JIS' },
      });
    }, [['127.0.0.1', '/koi8'], ['127.0.0.1', '/sjis']], { respectRobots: false });
    const texts = r.results.corpus.map((record) => record.text).join('\n');
    expect(texts).toContain('Широкая электрификация');
    expect(texts).toContain('吾輩は猫である');
  });
});

describe('what is not stored, and why', () => {
  it('records non-HTML, too large, HTTP errors and failed fetches, each with its reason', async () => {
    const big = article(0).replace('</article>', `<p>${'padding words here '.repeat(400)}</p></article>`);
    const r = await run((s) => {
      s.setRoute('127.0.0.1', '/', { body: home(['/pdf', '/json', '/big-declared', '/big-streamed', '/gone', '/broken', '/ok', '/none.html']) });
      s.setRoute('127.0.0.1', '/pdf', { body: new Uint8Array([37, 80, 68, 70]), headers: { 'content-type': 'application/pdf' } });
      s.setRoute('127.0.0.1', '/json', { body: '{"a":1}', headers: { 'content-type': 'application/json' } });
      s.setRoute('127.0.0.1', '/big-declared', { body: big });
      s.setRoute('127.0.0.1', '/big-streamed', { body: big, chunked: true });
      s.setRoute('127.0.0.1', '/gone', { status: 410, body: 'gone' });
      s.setRoute('127.0.0.1', '/broken', { status: 500, body: 'oops' });
      s.setRoute('127.0.0.1', '/ok', { body: article(1) });
      // No Content-Type: an .html path is taken as HTML.
      s.setRoute('127.0.0.1', '/none.html', { body: new Uint8Array(Buffer.from(article(2))), headers: {} });
    }, [['127.0.0.1', '/']], { respectRobots: false, maxPageBytes: 8192 });
    const skip = (path: string) => r.results.skipped.get(r.site.url('127.0.0.1', path));
    expect(skip('/pdf')).toMatchObject({ reason: 'not-html', detail: 'application/pdf' });
    expect(skip('/json')).toMatchObject({ reason: 'not-html', detail: 'application/json' });
    expect(skip('/big-declared')?.reason).toBe('too-large');
    expect(skip('/big-declared')?.detail).toMatch(/^Content-Length \d+ exceeds 8192 bytes$/);
    expect(skip('/big-streamed')).toMatchObject({ reason: 'too-large', detail: 'body exceeds 8192 bytes' });
    expect(skip('/gone')).toMatchObject({ reason: 'http-error', detail: 'HTTP 410' });
    expect(skip('/broken')).toMatchObject({ reason: 'http-error', detail: 'HTTP 500' });
    expect(r.results.stored.has(r.site.url('127.0.0.1', '/ok'))).toBe(true);
    expect(r.results.stored.has(r.site.url('127.0.0.1', '/none.html'))).toBe(true);
    // A final 4xx is not retried; a 5xx is (maxRequestRetries 2: three tries).
    expect(r.site.pathsFetched('127.0.0.1').filter((p) => p === '/gone')).toHaveLength(1);
    expect(r.site.pathsFetched('127.0.0.1').filter((p) => p === '/broken')).toHaveLength(3);
    expect(r.summary.skippedBy).toMatchObject({ 'not-html': 2, 'too-large': 2 });
  });

  it('records a host that refuses connections as fetch-error', async () => {
    const site = await startFixtureSite({});
    const deadUrl = site.url('127.0.0.1', '/');
    await site.close();
    const dataDir = makeTempDir('neardup-crawl-dead-');
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const config = loadConfig({ env: {}, overrides: { crawl: { respectRobots: false, requestTimeoutSecs: 5 } } });
    const summary = await crawl({ seeds: [deadUrl], dataDir, config, dedupWorker: false });
    expect(summary.skippedBy).toEqual({ 'fetch-error': 1 });
    expect(readCrawlResults(dataDir, config).skipped.get(deadUrl)?.detail).toMatch(/^connect ECONNREFUSED 127\.0\.0\.1:\d+/);
  });
});

describe('duplicates', () => {
  it('does not follow links on a rejected page unless asked to', async () => {
    const hosts = (s: FixtureSite) => {
      s.setRoute('127.0.0.1', '/', { body: home(['/original', '/copy']) });
      s.setRoute('127.0.0.1', '/original', { body: article(0) });
      s.setRoute('127.0.0.1', '/copy', { body: article(0, ['/only-from-copy']) });
      s.setRoute('127.0.0.1', '/only-from-copy', { body: article(1) });
    };
    const plain = await run(hosts, [['127.0.0.1', '/']], { concurrency: 1, respectRobots: false });
    expect(plain.results.rejected.get(plain.site.url('127.0.0.1', '/copy'))?.kind).toBe('exact');
    expect(plain.fetched('127.0.0.1', '/only-from-copy')).toBe(false);
    const following = await run(hosts, [['127.0.0.1', '/']], { concurrency: 1, respectRobots: false, followDuplicates: true });
    expect(following.fetched('127.0.0.1', '/only-from-copy')).toBe(true);
  });

  it('keeps different articles that share one template', async () => {
    const r = await run((s) => {
      s.setRoute('127.0.0.1', '/', { body: home(articles.map((_, i) => `/story/${i}`)) });
      articles.forEach((_, i) => s.setRoute('127.0.0.1', `/story/${i}`, { body: article(i) }));
    }, [['127.0.0.1', '/']], { respectRobots: false });
    expect(r.results.stored.size).toBe(articles.length);
    expect(r.results.rejected.size).toBe(0);
  });
});
