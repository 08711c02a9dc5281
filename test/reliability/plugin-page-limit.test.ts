/**
 * Issue 28 item 16 (plug-in half): `judge()` analysed a page of any size on the crawler's thread
 * (50 MB of HTML: 18 s). crawl.maxPageBytes now applies there as in `crawl` and `dedup`: a larger
 * page (html, text, or a crawling context's body) is recorded as a `too-large` skip without being
 * analysed; a page within the limit is judged as before.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Deduplicator } from '../../src/crawlee/deduplicator.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const paragraph = 'The council approved the transport budget on Tuesday after a long debate about ticket prices and routes. ';
const opened: Deduplicator[] = [];
afterEach(async () => {
  for (const d of opened.splice(0)) await d.close();
});

async function open(maxPageBytes: number): Promise<Deduplicator> {
  const dedup = await Deduplicator.open({ data: join(makeTempDir('neardup-plugin-limit-'), 'data'), config: { crawl: { maxPageBytes } } });
  opened.push(dedup);
  return dedup;
}

describe('the plug-in applies crawl.maxPageBytes', () => {
  it('skips larger html or text as too-large, judges a page within the limit', async () => {
    const dedup = await open(4096);
    const big = `<html><body><article><p>${paragraph.repeat(60)}</p></article></body></html>`;
    expect(await dedup.judge({ url: 'https://a.example/big', html: big })).toMatchObject({ kind: 'skipped', reason: 'too-large', duplicate: false });
    expect(await dedup.judge({ url: 'https://a.example/big-text', text: paragraph.repeat(60) })).toMatchObject({ kind: 'skipped', reason: 'too-large' });
    // Counted in UTF-8 bytes: 1,500 three-byte characters are 4,500 bytes.
    expect(await dedup.judge({ url: 'https://a.example/wide', text: '東'.repeat(1500) })).toMatchObject({ kind: 'skipped', reason: 'too-large' });
    expect(await dedup.judge({ url: 'https://a.example/small', html: `<html><body><article><p>${paragraph.repeat(5)}</p></article></body></html>` })).toMatchObject({ kind: 'stored' });
    expect(dedup.stats.skippedBy).toMatchObject({ 'too-large': 3 });
  });

  it("skips a crawling context whose body is larger, before analysing it", async () => {
    const dedup = await open(4096);
    const body = Buffer.from(`<html><body><p>${paragraph.repeat(60)}</p></body></html>`);
    const context = { request: { url: 'https://a.example/ctx', loadedUrl: 'https://a.example/ctx' }, body, response: { statusCode: 200, headers: { 'content-type': 'text/html' } } };
    const verdict = await dedup.judge(context);
    expect(verdict).toMatchObject({ kind: 'skipped', reason: 'too-large' });
    expect((verdict as { detail: string }).detail).toMatch(/^\d+ bytes \(limit 4096, config crawl\.maxPageBytes\)$/);
  });
});
