/**
 * The crawlee plug-in: Deduplicator.judge from pages given directly and from real crawlers'
 * contexts (CheerioCrawler, HttpCrawler; a window as JSDOMCrawler gives one), one decision per URL,
 * committed before the verdict returns, resumable across opens of one data folder.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheerioCrawler, Configuration, LogLevel } from '@crawlee/cheerio';
import { HttpCrawler } from '@crawlee/http';
import { parseHTML } from 'linkedom';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dailySamplePage, loadDemoArticles } from '../helpers/demo-site/demo-site.js';
import { defaultConfig } from '../../src/config.js';
import { ValidationError } from '../../src/errors.js';
import { Deduplicator, type Verdict } from '../../src/index.js';
import { readCrawlResults } from '../helpers/crawl-results.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { compilePage, homoglyphCopy } from '../../scripts/cascade-variants.js';
import { devTexts } from '../cascade/dev-texts.js';

const [first, second] = loadDemoArticles();
const firstText = first!.paragraphs.join('\n\n');
const secondText = second!.paragraphs.join('\n\n');
/** The first article with one word changed: a near duplicate. */
const editedText = firstText.replace(/\b(\w{6,})\b/, 'different');
const articleHtml = (article: typeof first) => dailySamplePage({ title: article!.title, paragraphs: article!.paragraphs });

const dirs: string[] = [];
const open: Deduplicator[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'neardup-plugin-'));
  dirs.push(dir);
  return dir;
};
const openDedup = async (data: string) => {
  const dedup = await Deduplicator.open({ data });
  open.push(dedup);
  return dedup;
};

afterEach(async () => {
  for (const dedup of open.splice(0)) await dedup.close();
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('Deduplicator.judge with { url, text } and { url, html }', () => {
  it('stores the first page and rejects exact and near copies, naming the match and the distance', async () => {
    const dedup = await openDedup(freshDir());
    const stored = await dedup.judge({ url: 'https://a.example/1', html: articleHtml(first) });
    expect(stored).toMatchObject({ kind: 'stored', url: 'https://a.example/1', duplicate: false });
    const id = (stored as Extract<Verdict, { kind: 'stored' }>).id;
    expect(await dedup.judge({ url: 'https://b.example/1', html: articleHtml(first) })).toMatchObject({
      kind: 'exact', duplicate: true, distance: 0, match: { id, url: 'https://a.example/1' },
    });
    const near = await dedup.judge({ url: 'https://b.example/2', text: editedText });
    expect(near).toMatchObject({ kind: 'near', duplicate: true, match: { id, url: 'https://a.example/1' } });
    const distance = near.duplicate ? near.distance : -1;
    expect(distance).toBeGreaterThan(0);
    expect(distance).toBeLessThanOrEqual(3);
    expect(await dedup.judge({ url: 'https://a.example/2', text: secondText })).toMatchObject({ kind: 'stored' });
    expect(await dedup.judge({ url: 'https://a.example/3', text: 'Too short.' })).toMatchObject({ kind: 'skipped', reason: 'too-short', duplicate: false });
    expect(dedup.stats).toMatchObject({ stored: 2, exact: 1, near: 1, skipped: 1 });
  });

  it('commits before the verdict returns: another reader sees the decision and the corpus line', async () => {
    const data = freshDir();
    const dedup = await openDedup(data);
    await dedup.judge({ url: 'https://a.example/1', text: firstText });
    await dedup.judge({ url: 'https://b.example/1', text: editedText });
    const results = readCrawlResults(data, defaultConfig());
    expect([...results.stored.keys()]).toEqual(['https://a.example/1']);
    expect(results.rejected.get('https://b.example/1')).toMatchObject({ kind: 'near', matchUrl: 'https://a.example/1' });
    expect(results.corpus.map((r) => r.url)).toEqual(['https://a.example/1']);
  });

  it('gives a URL one decision, in this run and after reopening the data folder', async () => {
    const data = freshDir();
    const dedup = await openDedup(data);
    const verdict = await dedup.judge({ url: 'https://a.example/1', text: firstText });
    // The same URL with another text: still its first decision, nothing new written.
    expect(await dedup.judge({ url: 'https://a.example/1', text: secondText })).toEqual(verdict);
    await dedup.close();
    const again = await openDedup(data);
    expect(await again.judge({ url: 'https://a.example/1', text: secondText })).toEqual(verdict);
    // A copy met in the later run is judged against the page stored in the earlier one.
    expect(await again.judge({ url: 'https://c.example/1', text: firstText })).toMatchObject({ kind: 'exact', match: { url: 'https://a.example/1' } });
    const results = readCrawlResults(data, defaultConfig());
    expect(results.stored.size).toBe(1);
    expect(results.corpus).toHaveLength(1);
  });

  it.each([
    [null, /Expected a crawling context or \{ url, html \}/],
    [{ url: '', text: 'x' }, /Expected `url` to be a non-empty string/],
    [{ url: 'https://a.example/' }, /Expected `html` or `text` to be a string/],
    [{ request: { url: 'https://a.example/' } }, /Expected a crawling context with `\$`/],
  ])('refuses %j with a ValidationError', async (source, message) => {
    const dedup = await openDedup(freshDir());
    await expect(dedup.judge(source as never)).rejects.toThrow(message);
    await expect(dedup.judge(source as never)).rejects.toBeInstanceOf(ValidationError);
  });

  it('refuses an empty data folder name', async () => {
    await expect(Deduplicator.open({ data: '' })).rejects.toThrow(/Expected `data` to be a folder path/);
  });
});

describe('Deduplicator runs the flag stages as `neardup crawl` does', () => {
  const sources = [devTexts[1]!.text, devTexts[4]!.text, devTexts[7]!.text];
  const compiled = compilePage(sources, 600, seededRandom(8));
  const spoofed = homoglyphCopy(devTexts[9]!.text, 0.4, seededRandom(3));

  it('gives the flags in the verdict and on the corpus line, the same as the pipeline', async () => {
    const data = freshDir();
    const dedup = await openDedup(data);
    for (const [i, text] of sources.entries()) expect((await dedup.judge({ url: `https://src.example/${i}`, text })).flags).toEqual([]);
    const homoglyph = await dedup.judge({ url: 'https://made.example/spoofed', text: spoofed });
    expect(homoglyph.flags.map((f) => f.kind)).toEqual(['homoglyph']);
    const made = await dedup.judge({ url: 'https://made.example/compiled', text: compiled });
    expect(made).toMatchObject({ kind: 'stored' });
    const flag = made.flags.find((f) => f.kind === 'compiled');
    expect(flag?.kind === 'compiled' ? flag.sources.map((s) => s.url).sort() : []).toEqual(['https://src.example/0', 'https://src.example/1', 'https://src.example/2']);
    expect(dedup.stats.flagged).toMatchObject({ homoglyph: 1, compiled: 1 });
    await dedup.close();
    const lines = readFileSync(join(data, 'corpus.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { url: string; flags: string[] });
    expect(new Map(lines.map((l) => [l.url, l.flags]))).toEqual(new Map([
      ['https://src.example/0', []], ['https://src.example/1', []], ['https://src.example/2', []],
      ['https://made.example/spoofed', ['homoglyph']], ['https://made.example/compiled', ['compiled']],
    ]));
  });

  it('runs no stage the config turns off', async () => {
    const dedup = await Deduplicator.open({ data: freshDir(), config: { cascade: { homoglyph: { enabled: false } } } as never });
    open.push(dedup);
    expect((await dedup.judge({ url: 'https://made.example/spoofed', text: spoofed })).flags).toEqual([]);
  });
});

describe('Deduplicator.judge with a window, as JSDOMCrawler gives', () => {
  it('reads the page from window.document', async () => {
    const dedup = await openDedup(freshDir());
    await dedup.judge({ url: 'https://a.example/1', html: articleHtml(first) });
    const { window } = parseHTML(articleHtml(first));
    expect(await dedup.judge({ request: { url: 'https://b.example/1' }, window })).toMatchObject({ kind: 'exact', match: { url: 'https://a.example/1' } });
  });
});

describe('Deduplicator in real crawlers against a local site', () => {
  let site: FixtureSite;
  const html = (body: string) => ({ body, headers: { 'content-type': 'text/html; charset=utf-8' } });
  beforeAll(async () => {
    site = await startFixtureSite({
      '127.0.0.1': {
        '/': html('<html><body><a href="/a">a</a> <a href="/copy">copy</a> <a href="/b">b</a> <a href="/gone">gone</a></body></html>'),
        '/a': html(articleHtml(first).replace('</body>', '<a href="/after-a">next</a></body>')),
        '/copy': html(articleHtml(first).replace('</body>', '<a href="/after-copy">next</a></body>')),
        '/b': html(articleHtml(second)),
        '/after-a': html(dailySamplePage({ title: 'After a', paragraphs: ['A page only the original links to, long enough to be judged on its own words.'] })),
        '/after-copy': html(dailySamplePage({ title: 'After copy', paragraphs: ['A page only the copy links to, which a crawl that skips duplicates never fetches.'] })),
        '/report.pdf': { body: new Uint8Array(Buffer.from('%PDF-1.4\n')), headers: { 'content-type': 'application/pdf' } },
        '/gone': { status: 404, body: '<html><body>Not found</body></html>', headers: { 'content-type': 'text/html' } },
      },
    });
  });
  afterAll(async () => {
    await site?.close();
  });

  const crawleeConfig = () => new Configuration({ persistStorage: false, logLevel: LogLevel.OFF });
  const fetched = (path: string) => site.hits.some((hit) => hit.path === path);

  it('CheerioCrawler: judges each page once and enqueues links only from pages that are not duplicates', async () => {
    const dedup = await openDedup(freshDir());
    const verdicts = new Map<string, Verdict>();
    const crawler = new CheerioCrawler({
      maxConcurrency: 1,
      async requestHandler(context) {
        const verdict = await dedup.judge(context);
        expect(await dedup.judge(context)).toBe(verdict);
        verdicts.set(new URL(verdict.url).pathname, verdict);
        await dedup.enqueueLinks(context);
      },
    }, crawleeConfig());
    site.hits.length = 0;
    await crawler.run([site.url('127.0.0.1', '/')]);
    expect(verdicts.get('/a')).toMatchObject({ kind: 'stored' });
    expect(verdicts.get('/copy')).toMatchObject({ kind: 'exact', match: { url: site.url('127.0.0.1', '/a') } });
    expect(verdicts.get('/b')).toMatchObject({ kind: 'stored' });
    expect(verdicts.get('/gone')).toMatchObject({ kind: 'skipped', reason: 'http-error' });
    expect(fetched('/after-a')).toBe(true);
    expect(fetched('/after-copy')).toBe(false);
  });

  it('HttpCrawler: judges the body, and records a non-HTML response as not-html', async () => {
    const dedup = await openDedup(freshDir());
    const verdicts = new Map<string, Verdict>();
    const crawler = new HttpCrawler({
      maxConcurrency: 1,
      additionalMimeTypes: ['application/pdf'],
      async requestHandler(context) {
        verdicts.set(new URL(context.request.url).pathname, await dedup.judge(context));
      },
    }, crawleeConfig());
    await crawler.run(['/a', '/copy', '/report.pdf'].map((path) => site.url('127.0.0.1', path)));
    expect(verdicts.get('/a')).toMatchObject({ kind: 'stored' });
    expect(verdicts.get('/copy')).toMatchObject({ kind: 'exact' });
    expect(verdicts.get('/report.pdf')).toMatchObject({ kind: 'skipped', reason: 'not-html', detail: 'application/pdf' });
  });
});
