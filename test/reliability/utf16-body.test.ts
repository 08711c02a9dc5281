/**
 * Issue 19, case 2: a UTF-16 page without a byte-order mark, declared by its Content-Type
 * (`charset=utf-16`, which the WHATWG Encoding standard maps to UTF-16LE) and/or by a
 * `<meta charset>` written in UTF-16 itself, is text: decoded and stored, not refused as binary.
 */
import iconv from 'iconv-lite';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeHtmlBytes, looksBinary, utf16ByteOrder } from '../../src/input/decode-html-bytes.js';
import { startFixtureSite } from '../helpers/fixture-site.js';
import { crawlInto, freshDataDir, randomWords, wordsPage } from '../helpers/small-crawl.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Case {
  readonly path: string;
  readonly contentType: string;
  readonly meta: string;
  readonly encoding: 'utf-16le' | 'utf-16be';
  readonly seed: number;
}

const cases: readonly Case[] = [
  { path: '/header-only', contentType: 'text/html; charset=utf-16', meta: '', encoding: 'utf-16le', seed: 21 },
  { path: '/header-and-meta', contentType: 'text/html; charset=utf-16', meta: '<meta charset="utf-16le">', encoding: 'utf-16le', seed: 22 },
  { path: '/meta-only', contentType: 'text/html', meta: '<meta charset="utf-16le">', encoding: 'utf-16le', seed: 23 },
  { path: '/header-le', contentType: 'text/html; charset=UTF-16LE', meta: '', encoding: 'utf-16le', seed: 24 },
  { path: '/header-be', contentType: 'text/html; charset=utf-16be', meta: '<meta charset="utf-16be">', encoding: 'utf-16be', seed: 25 },
];

/** Non-ASCII letters too, so that a page decoded as the wrong thing cannot pass. */
const accented = 'café crème brûlée naïve façade';

describe('a UTF-16 page without a BOM', () => {
  it.each(cases)('$path ($contentType) is decoded and stored', async (c) => {
    const site = await startFixtureSite({});
    cleanups.push(() => site.close());
    const html = wordsPage(c.seed, { title: `Sixteen ${c.seed}`, head: c.meta, words: 120 }).replace('</h1>', `</h1><p>${accented}</p>`);
    const body = iconv.encode(html, c.encoding); // iconv-lite writes no BOM for utf-16le/be
    expect(body[0] === 0xff || body[0] === 0xfe).toBe(false);
    site.setRoute('127.0.0.1', c.path, { headers: { 'content-type': c.contentType }, body });
    const { dataDir, remove } = freshDataDir('utf16');
    cleanups.push(remove);
    const { results } = await crawlInto(dataDir, [site.url('127.0.0.1', c.path)]);
    const url = site.url('127.0.0.1', c.path);
    expect(results.skipped.get(url), `skipped: ${JSON.stringify(results.skipped.get(url))}`).toBeUndefined();
    const line = results.corpus.find((r) => r.url === url);
    expect(line?.title).toBe(`Sixteen ${c.seed}`);
    expect(String(line?.text)).toContain(accented);
    expect(String(line?.text)).toContain(randomWords(c.seed, 120).split(' ').slice(0, 20).join(' '));
  });

  it('an ASCII page mislabelled `charset=utf-16` is still read as the ASCII it is', async () => {
    const site = await startFixtureSite({});
    cleanups.push(() => site.close());
    site.setRoute('127.0.0.1', '/mislabelled', { headers: { 'content-type': 'text/html; charset=utf-16' }, body: Buffer.from(wordsPage(26, { title: 'Plain' }), 'utf8') });
    const { dataDir, remove } = freshDataDir('utf16');
    cleanups.push(remove);
    const { results } = await crawlInto(dataDir, [site.url('127.0.0.1', '/mislabelled')]);
    expect(results.corpus.find((r) => r.url === site.url('127.0.0.1', '/mislabelled'))?.title).toBe('Plain');
  });

  it('is text to the shared decoder too (batch files and WARC records use it), in either byte order', () => {
    const html = '<!doctype html><meta charset="utf-16"><title>Ça</title><p>héllo wörld, this is text</p>';
    for (const order of ['utf-16le', 'utf-16be'] as const) {
      const bytes = iconv.encode(html, order);
      expect(utf16ByteOrder(bytes)).toBe(order);
      expect(looksBinary(bytes)).toBe(false);
      expect(decodeHtmlBytes(bytes, 'text/html; charset=utf-16').html).toBe(html);
      expect(decodeHtmlBytes(bytes, null).html).toBe(html);
    }
    // Binary data stays binary: 16-bit integers are not printable ASCII paired with zeros.
    const samples = new Uint8Array(1024);
    for (let i = 0; i < samples.length; i += 2) samples[i] = (i * 7) & 0x1f;
    expect(utf16ByteOrder(samples)).toBe(null);
    expect(looksBinary(samples)).toBe(true);
  });
});
