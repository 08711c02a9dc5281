/**
 * src/analyze/analyze-page.ts (analyzePage / analyzeParsedPage, pure) and src/pipeline.ts (the Pipeline:
 * index + corpus.jsonl + counters + links).
 */
import { citationCounts } from '../src/report/citation-counts.js';
import { readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dailySamplePage, loadDemoArticles, mirrorTimesPage } from './helpers/demo-site/demo-site.js';
import { loadConfig } from '../src/config.js';
import { StorageError, ValidationError } from '../src/errors.js';
import { Pipeline } from '../src/pipeline.js';
import { analyzePage, analyzeParsedPage, parsePage } from '../src/analyze/analyze-page.js';
import { corpusFileName } from '../src/store/data-folder.js';
import type { AnalyzedPage } from '../src/analyze/analyze-page.js';
import type { CorpusRecord } from '../src/store/corpus-writer.js';
import { makeTempDir } from './helpers/temp-dir.js';

const config = loadConfig({ env: {} });
const articles = loadDemoArticles();
const text = (i: number) => articles[i]!.paragraphs.join('\n\n');
const htmlOf = (i: number, links: readonly string[] = []) =>
  dailySamplePage({ title: articles[i]!.title, paragraphs: articles[i]!.paragraphs, related: links.map((href) => ({ href, title: href })) });

let dir: string;
beforeEach(() => {
  dir = makeTempDir('neardup-pipeline-');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function corpusLines(): CorpusRecord[] {
  return readFileSync(join(dir, corpusFileName), 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as CorpusRecord);
}

describe('analyzePage', () => {
  it('extracts and fingerprints an HTML page, keeping its metadata and links', () => {
    const page = analyzePage({ url: 'http://a.test/x', finalUrl: 'http://a.test/y', html: htmlOf(0, ['/other']), fetchedAt: 1000, depth: 2 }, config);
    expect(page.skip).toBeNull();
    expect(page.analysis?.fingerprint).not.toBeNull();
    expect(page.analysis?.language).toBe('eng');
    expect(page.finalUrl).toBe('http://a.test/y');
    expect(page.meta).toMatchObject({ url: 'http://a.test/x', finalUrl: 'http://a.test/y', title: `${articles[0]!.title} | The Daily Sample`, language: 'eng', fetchedAt: 1000, depth: 2 });
    expect(page.meta.textLength).toBe(page.text.length);
    expect(page.text).toContain(articles[0]!.paragraphs[1]!);
    // Links resolve against the final URL.
    expect(page.page?.links).toContain('http://a.test/other');
    expect(() => structuredClone(page)).not.toThrow();
  });

  it('fingerprints text input, and gives the same fingerprint as the same text in HTML', () => {
    const fromText = analyzePage({ url: 'doc-1', text: text(1) }, config);
    const fromHtml = analyzePage({ url: 'doc-2', html: htmlOf(1) }, config);
    expect(fromText.page).toBeNull();
    expect(fromText.finalUrl).toBeNull();
    expect(fromText.analysis?.fingerprint).toEqual(fromHtml.analysis?.fingerprint);
    expect(fromText.analysis?.textHash).toBe(fromHtml.analysis?.textHash);
  });

  it.each([
    ['empty text', { url: 'u', text: '' }, 'no-text'],
    ['whitespace', { url: 'u', text: ' \n\t ' }, 'no-text'],
    ['neither html nor text', { url: 'u' }, 'no-text'],
    ['a page without main text', { url: 'u', html: '<html><body><nav><a href="/">Home</a></nav></body></html>' }, 'no-text'],
    ['too few tokens', { url: 'u', text: 'Three small words' }, 'too-short'],
  ])('skips %s', (_name, input, reason) => {
    const page = analyzePage(input, config);
    expect(page.skip?.reason).toBe(reason);
    expect(page.analysis).toBeNull();
  });

  it('keeps the links of a page too short to judge', () => {
    const page = analyzePage({ url: 'http://a.test/', html: '<ul><li><a href="/a">A</a></li><li><a href="/b">B</a></li></ul>' }, config);
    expect(page.skip).not.toBeNull();
    expect(page.page?.links).toEqual(['http://a.test/a', 'http://a.test/b']);
  });

  it('follows minTokens from the config', () => {
    const strict = loadConfig({ env: {}, overrides: { fingerprint: { minTokens: 10_000 } } });
    expect(analyzePage({ url: 'u', text: text(0) }, strict).skip?.reason).toBe('too-short');
    const lax = loadConfig({ env: {}, overrides: { fingerprint: { minTokens: 0 } } });
    expect(analyzePage({ url: 'u', text: 'one' }, lax).skip).toBeNull();
  });

  it('analyzeParsedPage on a parsed page equals analyzePage on its HTML', () => {
    const input = { url: 'http://a.test/p', html: htmlOf(2), fetchedAt: 5 };
    expect(analyzeParsedPage(parsePage(input.html), input, config)).toEqual(analyzePage(input, config));
  });
});

describe('Pipeline', () => {
  const open = () => Pipeline.open({ dataDir: dir, config });

  it('stores new pages, rejects exact and near copies, and counts', async () => {
    const pipeline = await open();
    try {
      expect(await pipeline.process({ url: 'http://a.test/1', html: htmlOf(0) })).toMatchObject({ kind: 'stored' });
      expect(await pipeline.process({ url: 'http://a.test/2', html: htmlOf(1) })).toMatchObject({ kind: 'stored' });
      // The same text on another template: an exact duplicate.
      expect(await pipeline.process({ url: 'http://b.test/1', html: mirrorTimesPage({ title: 'x', paragraphs: articles[0]!.paragraphs }) }))
        .toMatchObject({ kind: 'exact', matchUrl: 'http://a.test/1', distance: 0 });
      const edited = articles[1]!.paragraphs.map((p, i) => (i === 2 ? p.replace(/\bthe\b/, 'this') : p));
      const near = await pipeline.process({ url: 'http://b.test/2', text: edited.join('\n\n') });
      expect(near.kind === 'near' || near.kind === 'exact').toBe(true);
      expect(near).toMatchObject({ matchUrl: 'http://a.test/2' });
      expect(await pipeline.process({ url: 'http://a.test/empty', text: '' })).toEqual({ kind: 'skipped', reason: 'no-text' });
      await pipeline.recordSkip('http://a.test/robots', 'robots', 'disallowed');
      expect(pipeline.counters).toMatchObject({
        processed: 6, stored: 2, exact: 1, near: near.kind === 'near' ? 1 : 0, skipped: 2, skippedBy: { 'no-text': 1, robots: 1 }, errors: 0,
      });
    } finally {
      await pipeline.close();
    }
    expect(corpusLines().map((r) => r.url)).toEqual(['http://a.test/1', 'http://a.test/2']);
  });

  it('writes complete corpus lines', async () => {
    const pipeline = await open();
    await pipeline.process({ url: 'http://a.test/1', finalUrl: 'http://a.test/one', html: htmlOf(3), fetchedAt: Date.UTC(2024, 0, 2) });
    await pipeline.close();
    const [line] = corpusLines();
    expect(line).toMatchObject({
      url: 'http://a.test/1', finalUrl: 'http://a.test/one', title: `${articles[3]!.title} | The Daily Sample`, language: 'eng', fetchedAt: '2024-01-02T00:00:00.000Z',
    });
    expect(line!.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(line!.text).toContain(articles[3]!.paragraphs[0]!);
  });

  it('commitMany decides like commit, in order', async () => {
    const pages: AnalyzedPage[] = [
      analyzePage({ url: 'http://a.test/1', html: htmlOf(4) }, config),
      analyzePage({ url: 'http://a.test/short', text: 'too short' }, config),
      analyzePage({ url: 'http://a.test/2', text: text(4) }, config),
      analyzePage({ url: 'http://a.test/3', text: text(5) }, config),
    ];
    const pipeline = await open();
    const decisions = await pipeline.commitMany(pages);
    await pipeline.close();
    expect(decisions.map((d) => d.kind)).toEqual(['stored', 'skipped', 'exact', 'stored']);
    expect(corpusLines().map((r) => r.url)).toEqual(['http://a.test/1', 'http://a.test/3']);
  });

  it('answers a URL seen before with its earlier decision, writing nothing new', async () => {
    const first = await open();
    const stored = await first.process({ url: 'http://a.test/1', html: htmlOf(6) });
    await first.close();
    const second = await open();
    expect(await second.process({ url: 'http://a.test/1', html: htmlOf(6) })).toEqual({ ...stored, repeated: true });
    await second.close();
    expect(corpusLines()).toHaveLength(1);
  });

  it('writes the line of a stored page whose line was lost (crash between commit and append)', async () => {
    const first = await open();
    await first.process({ url: 'http://a.test/1', html: htmlOf(7) });
    const decision = await first.process({ url: 'http://a.test/2', html: htmlOf(8) });
    await first.close();
    // The crash: the second line torn half-way.
    const path = join(dir, corpusFileName);
    const whole = readFileSync(path, 'utf8');
    truncateSync(path, whole.indexOf('\n') + 1 + 30);
    const second = await open();
    expect(await second.process({ url: 'http://a.test/2', html: htmlOf(8) })).toEqual({ ...decision, repeated: true });
    await second.process({ url: 'http://a.test/1', html: htmlOf(7) });
    await second.close();
    expect(corpusLines().map((r) => r.url)).toEqual(['http://a.test/1', 'http://a.test/2']);
    // The line written again is the one lost: the database's record (its fetch time) with the page's text.
    expect(readFileSync(path, 'utf8')).toBe(whole);
  });

  it('does not write a lost line again when the page has changed since it was judged', async () => {
    const first = await open();
    await first.process({ url: 'http://a.test/1', html: htmlOf(7) });
    await first.close();
    truncateSync(join(dir, corpusFileName), 0);
    const second = await open();
    expect(await second.process({ url: 'http://a.test/1', html: htmlOf(8) })).toMatchObject({ kind: 'stored' });
    await second.close();
    expect(corpusLines()).toEqual([]);
  });

  it('records the links of processed pages for in-link counts (citations), short pages included', async () => {
    const pipeline = await open();
    // Same-host links outside any main text (a short home page, an article's related-links box) are
    // template links; a link from another host is a citation, even from a page too short to judge.
    await pipeline.process({ url: 'http://a.test/', html: '<a href="/1">one</a> <a href="/2">two</a>' });
    await pipeline.process({ url: 'http://a.test/1', html: htmlOf(9, ['/2']) });
    await pipeline.process({ url: 'http://b.test/', html: '<a href="http://a.test/2">two</a>' });
    const counts = citationCounts(await pipeline.index.linkRows());
    await pipeline.close();
    expect(counts.get('http://a.test/2')).toBe(1);
    expect(counts.get('http://a.test/1')).toBeUndefined();
  });

  it('refuses a bad data folder with a clear error', async () => {
    await expect(Pipeline.open({ dataDir: '', config })).rejects.toThrow(ValidationError);
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    await expect(Pipeline.open({ dataDir: file, config })).rejects.toThrow(StorageError);
  });

  it('refuses to work once closed', async () => {
    const pipeline = await open();
    await pipeline.close();
    await pipeline.close();
    await expect(pipeline.process({ url: 'http://a.test/1', text: text(0) })).rejects.toThrow(StorageError);
  });
});
