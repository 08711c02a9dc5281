import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import iconv from 'iconv-lite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BatchEntry, PageEntry } from '../../src/input/batch-entry.js';
import { readWarc } from '../../src/input/read-warc.js';
import { writeWarc, type WarcFixtureRecord } from './warc-fixture.js';
import { makeTempDir } from '../helpers/temp-dir.js';

let dir: string;
beforeEach(async () => {
  dir = makeTempDir('neardup-warc-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function collect(path: string, maxDocumentBytes?: number): Promise<BatchEntry[]> {
  const out: BatchEntry[] = [];
  for await (const e of readWarc(path, maxDocumentBytes === undefined ? {} : { maxDocumentBytes })) out.push(e);
  return out;
}

const page = (title: string) => `<!doctype html><html><head><title>${title}</title></head><body><p>${title} body text</p></body></html>`;

const mixed: WarcFixtureRecord[] = [
  { type: 'request', url: 'http://a.example/', body: '' },
  { type: 'response', url: 'http://a.example/', httpHeaders: { 'Content-Type': 'text/html; charset=utf-8', 'Last-Modified': 'Tue, 02 Jan 2024 10:00:00 GMT' }, body: page('Alpha') },
  { type: 'response', url: 'http://a.example/logo.png', httpHeaders: { 'Content-Type': 'image/png' }, body: new Uint8Array([0x89, 0x50, 0x4e, 0x47]) },
  { type: 'response', url: 'http://a.example/missing', statusline: 'HTTP/1.1 404 Not Found', httpHeaders: { 'Content-Type': 'text/html' }, body: page('Not found') },
  { type: 'metadata', url: 'http://a.example/', body: 'via: x' },
  { type: 'response', url: 'http://a.example/data.json', httpHeaders: { 'Content-Type': 'application/json' }, body: '{"a":1}' },
  { type: 'resource', url: 'http://a.example/saved.html', warcContentType: 'text/html', body: page('Resource') },
  { type: 'response', url: 'http://a.example/xhtml', httpHeaders: { 'Content-Type': 'application/xhtml+xml' }, body: page('Xhtml') },
];

describe('readWarc', () => {
  for (const gzip of [false, true]) {
    it(`keeps only HTML responses and counts the rest as ignored (${gzip ? 'warc.gz' : 'warc'})`, async () => {
      const path = join(dir, gzip ? 'mixed.warc.gz' : 'mixed.warc');
      await writeWarc(path, mixed, gzip);
      const entries = await collect(path);
      const pages = entries.filter((e): e is PageEntry => e.kind === 'page');
      expect(pages.map((p) => p.input.url)).toEqual(['http://a.example/', 'http://a.example/saved.html', 'http://a.example/xhtml']);
      expect(pages[0]!.input.html).toContain('<title>Alpha</title>');
      expect(pages[0]!.input.lastModified).toBe('2024-01-02T10:00:00.000Z');
      expect(pages[0]!.input.fetchedAt).toBe(Date.parse('2024-01-02T03:04:05Z'));
      const ignored = entries.filter((e) => e.kind === 'ignored').map((e) => (e.kind === 'ignored' ? e.reason : ''));
      expect(ignored).toEqual(['warc-warcinfo', 'warc-request', 'not-html', 'http-404', 'warc-metadata', 'not-html']);
      expect(entries.filter((e) => e.kind === 'problem')).toEqual([]);
      // Positions are distinct byte offsets, increasing through the file.
      const offsets = entries.map((e) => Number(e.position.split('@')[1]));
      expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
      expect(new Set(offsets).size).toBe(offsets.length);
    });
  }

  it('decodes a windows-1251 page from the HTTP charset', async () => {
    const path = join(dir, 'cp1251.warc');
    const html = '<html><head><title>Новости</title></head><body><p>Привет, мир! Это проверка кодировки.</p></body></html>';
    await writeWarc(path, [{ type: 'response', url: 'http://ru.example/', httpHeaders: { 'Content-Type': 'text/html; charset=windows-1251' }, body: iconv.encode(html, 'windows-1251') }]);
    const [entry] = (await collect(path)).filter((e) => e.kind === 'page') as PageEntry[];
    expect(entry!.input.html).toBe(html);
  });

  it('inflates a gzip Content-Encoding body', async () => {
    const path = join(dir, 'encoded.warc');
    await writeWarc(path, [{ type: 'response', url: 'http://z.example/', httpHeaders: { 'Content-Type': 'text/html', 'Content-Encoding': 'gzip' }, body: gzipSync(page('Zipped')) }]);
    const [entry] = (await collect(path)).filter((e) => e.kind === 'page') as PageEntry[];
    expect(entry!.input.html).toContain('Zipped body text');
  });

  it('decodes a brotli body, and records an undecodable one as a decode-error skip', async () => {
    const path = join(dir, 'br.warc');
    await writeWarc(path, [
      { type: 'response', url: 'http://br.example/ok', httpHeaders: { 'Content-Type': 'text/html', 'Content-Encoding': 'br' }, body: brotliCompressSync(page('Brotli')) },
      { type: 'response', url: 'http://br.example/bad', httpHeaders: { 'Content-Type': 'text/html', 'Content-Encoding': 'br' }, body: new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]) },
    ]);
    const entries = (await collect(path)).filter((e) => e.kind !== 'ignored');
    expect(entries[0]!.kind === 'page' && entries[0]!.input.html).toContain('Brotli body text');
    expect(entries[1]).toMatchObject({ kind: 'skip', url: 'http://br.example/bad', reason: 'decode-error' });
  });

  it('skips a body over the size limit without failing the file', async () => {
    const path = join(dir, 'big.warc');
    await writeWarc(path, [
      { type: 'response', url: 'http://b.example/big', httpHeaders: { 'Content-Type': 'text/html' }, body: `<html><body>${'x'.repeat(5000)}</body></html>` },
      { type: 'response', url: 'http://b.example/small', httpHeaders: { 'Content-Type': 'text/html' }, body: page('Small') },
    ]);
    const entries = (await collect(path, 1000)).filter((e) => e.kind !== 'ignored');
    expect(entries.map((e) => e.kind)).toEqual(['skip', 'page']);
    expect(entries[0]!.kind === 'skip' && entries[0]!.reason).toBe('too-large');
  });

  it('reports a truncated WARC.gz as a problem after the records before the cut', async () => {
    const full = join(dir, 'full.warc.gz');
    await writeWarc(full, mixed, true);
    const bytes = await readFile(full);
    const cut = join(dir, 'cut.warc.gz');
    await writeFile(cut, bytes.subarray(0, Math.floor(bytes.length * 0.8)));
    const entries = await collect(cut);
    const pages = entries.filter((e) => e.kind === 'page');
    expect(pages.length).toBeGreaterThanOrEqual(1);
    expect(pages.length).toBeLessThan(3);
    expect(entries.at(-1)!.kind).toBe('problem');
  });

  it('reports a plain WARC cut inside a record as truncated', async () => {
    const full = join(dir, 'full.warc');
    await writeWarc(full, mixed.slice(0, 2), false);
    const bytes = await readFile(full);
    const cut = join(dir, 'cut.warc');
    await writeFile(cut, bytes.subarray(0, bytes.length - 40));
    const entries = await collect(cut);
    const last = entries.at(-1)!;
    expect(last.kind).toBe('problem');
    expect(last.kind === 'problem' && last.message).toMatch(/truncated/);
  });

  it('reports a file that is not a WARC as a problem', async () => {
    const path = join(dir, 'junk.warc');
    await writeFile(path, 'this is not a warc file\nat all\n');
    const entries = await collect(path);
    expect(entries.map((e) => e.kind)).toEqual(['problem']);
  });
});
