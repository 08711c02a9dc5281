/**
 * Issue 19, case 1: a compressed body cut short (Content-Length matching the cut, so HTTP sees a
 * complete response) must not enter the corpus as a whole page. The crawl retries it (the server
 * may send all of it next time) and, if every attempt is cut, records it skipped `truncated`.
 */
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { startFixtureSite } from '../helpers/fixture-site.js';
import type { FixtureSite } from '../helpers/fixture-site.js';
import { crawlInto, freshDataDir, wordsPage } from '../helpers/small-crawl.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A gzip body cut to half its bytes, with a Content-Length saying that half is all. */
function truncatedGzip(html: string): { headers: Record<string, string | number>; body: Uint8Array } {
  const full = gzipSync(Buffer.from(html, 'utf8'));
  const half = full.subarray(0, Math.floor(full.byteLength / 2));
  return { headers: { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip', 'content-length': half.byteLength }, body: half };
}

async function site(): Promise<FixtureSite> {
  const s = await startFixtureSite({});
  cleanups.push(() => s.close());
  return s;
}

describe('a truncated compressed body', () => {
  it('is never stored: skipped `truncated` when every attempt is cut', async () => {
    const s = await site();
    const cut = wordsPage(2, { words: 240 });
    s.setRoute('127.0.0.1', '/', { body: wordsPage(1, { links: ['/cut'] }) });
    s.setRoute('127.0.0.1', '/cut', truncatedGzip(cut));
    const { dataDir, remove } = freshDataDir('truncated');
    cleanups.push(remove);
    const { results, summary } = await crawlInto(dataDir, [s.url('127.0.0.1', '/')]);
    const url = s.url('127.0.0.1', '/cut');
    expect(results.stored.has(url), 'the half page was stored as if complete').toBe(false);
    expect(results.corpus.map((r) => r.url)).not.toContain(url);
    expect(results.skipped.get(url)?.reason).toBe('truncated');
    expect(summary.skippedBy.truncated).toBe(1);
    // Retried like any transient failure before it was given up.
    expect(s.pathsFetched('127.0.0.1').filter((p) => p === '/cut').length).toBeGreaterThan(1);
  });

  it('is retried, and stored whole once the server sends all of it', async () => {
    const s = await site();
    const html = wordsPage(3, { words: 240 });
    let served = 0;
    s.setRoute('127.0.0.1', '/', { body: wordsPage(4, { links: ['/flaky'] }) });
    s.setRoute('127.0.0.1', '/flaky', () => {
      served++;
      if (served === 1) return truncatedGzip(html);
      const full = gzipSync(Buffer.from(html, 'utf8'));
      return { headers: { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip' }, body: full };
    });
    const { dataDir, remove } = freshDataDir('truncated');
    cleanups.push(remove);
    const { results } = await crawlInto(dataDir, [s.url('127.0.0.1', '/')]);
    const url = s.url('127.0.0.1', '/flaky');
    expect(served).toBe(2);
    expect(results.skipped.has(url)).toBe(false);
    const line = results.corpus.find((r) => r.url === url);
    expect(line, 'the page was not stored after its full retry').toBeDefined();
    expect(String(line!.text).split(/\s+/).filter((w) => w !== '').length).toBeGreaterThanOrEqual(240);
  });

  it('a whole compressed body that decodes past --max-page-bytes is skipped `too-large`, once', async () => {
    const s = await site();
    const big = gzipSync(Buffer.from(wordsPage(5, { words: 40_000 }), 'utf8'));
    s.setRoute('127.0.0.1', '/', { body: wordsPage(6, { links: ['/bomb'] }) });
    s.setRoute('127.0.0.1', '/bomb', { headers: { 'content-type': 'text/html', 'content-encoding': 'gzip' }, body: big });
    const { dataDir, remove } = freshDataDir('truncated');
    cleanups.push(remove);
    expect(big.byteLength).toBeLessThan(65_536);
    const { results } = await crawlInto(dataDir, [s.url('127.0.0.1', '/')], { maxPageBytes: 65_536 });
    expect(results.skipped.get(s.url('127.0.0.1', '/bomb'))?.reason).toBe('too-large');
    expect(s.pathsFetched('127.0.0.1').filter((p) => p === '/bomb')).toHaveLength(1);
  });
});
