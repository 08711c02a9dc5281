import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import iconv from 'iconv-lite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import type { BatchEntry } from '../../src/input/batch-entry.js';
import { readInputs, resolveInputs } from '../../src/input/read-inputs.js';
import { writeWarc } from './warc-fixture.js';
import { makeTempDir } from '../helpers/temp-dir.js';

let dir: string;
beforeEach(async () => {
  dir = makeTempDir('neardup-inputs-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function collect(paths: string[]): Promise<BatchEntry[]> {
  const out: BatchEntry[] = [];
  for await (const e of readInputs(await resolveInputs(paths))) out.push(e);
  return out;
}

const rel = (p: string) => p.slice(dir.length + 1);

describe('readInputs', () => {
  it('walks folders recursively in sorted order and reads every kind it knows', async () => {
    const corpus = join(dir, 'corpus');
    await mkdir(join(corpus, 'b', 'deep'), { recursive: true });
    await mkdir(join(corpus, 'a'), { recursive: true });
    await writeFile(join(corpus, 'b', 'deep', 'z.htm'), '<html><body><p>z</p></body></html>');
    await writeFile(join(corpus, 'b', 'page.html.gz'), gzipSync('<html><body><p>gz page</p></body></html>'));
    await writeFile(join(corpus, 'a', 'note.txt'), 'plain text note');
    await writeFile(join(corpus, 'a', 'image.png'), 'not read');
    await writeFile(join(corpus, 'README'), 'not read');
    await writeFile(join(corpus, 'c.jsonl'), `${JSON.stringify({ url: 'http://j/1', text: 'from jsonl' })}\n`);
    await writeWarc(join(corpus, 'd.warc.gz'), [{ type: 'response', url: 'http://w/1', httpHeaders: { 'Content-Type': 'text/html' }, body: '<html><body>warc</body></html>' }], true);
    await symlink(join(corpus, 'a'), join(corpus, 'e-link-to-folder'));

    const entries = await collect([corpus]);
    const pages = entries.flatMap((e) => (e.kind === 'page' ? [e] : []));
    expect(pages.map((p) => rel(p.position))).toEqual([
      'corpus/a/note.txt',
      'corpus/b/deep/z.htm',
      'corpus/b/page.html.gz',
      'corpus/c.jsonl:1',
      expect.stringMatching(/^corpus\/d\.warc\.gz@\d+$/),
    ]);
    expect(pages[0]!.input).toMatchObject({ url: join(corpus, 'a', 'note.txt'), text: 'plain text note' });
    expect(pages[0]!.input.lastModified).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(pages[2]!.input.html).toContain('gz page');
    expect(pages[3]!.input.url).toBe('http://j/1');
    expect(pages[4]!.input.url).toBe('http://w/1');
    expect(entries.filter((e) => e.kind === 'problem')).toEqual([]);
  });

  it('keeps the order of the inputs as given, folders and files mixed', async () => {
    await writeFile(join(dir, 'x.txt'), 'x');
    await mkdir(join(dir, 'f'));
    await writeFile(join(dir, 'f', 'y.txt'), 'y');
    const entries = await collect([join(dir, 'f'), join(dir, 'x.txt')]);
    expect(entries.map((e) => rel(e.position))).toEqual(['f/y.txt', 'x.txt']);
  });

  it('reports a truncated .html.gz as a problem and reads the next file', async () => {
    const gz = gzipSync(`<html><body>${'<p>some words here</p>'.repeat(500)}</body></html>`);
    await writeFile(join(dir, 'a-cut.html.gz'), gz.subarray(0, gz.length >> 1));
    await writeFile(join(dir, 'b-ok.html'), '<html><body>ok</body></html>');
    const entries = await collect([dir]);
    expect(entries.map((e) => `${e.kind} ${rel(e.position)}`)).toEqual(['problem a-cut.html.gz', 'page b-ok.html']);
    expect(entries[0]!.kind === 'problem' && entries[0]!.message).toMatch(/unexpected end of file/);
  });

  it('decodes a windows-1251 HTML file from its <meta charset>', async () => {
    const html = '<html><head><meta charset="windows-1251"><title>Тест</title></head><body><p>Съешь же ещё этих мягких французских булок</p></body></html>';
    await writeFile(join(dir, 'ru.html'), iconv.encode(html, 'windows-1251'));
    const [entry] = await collect([join(dir, 'ru.html')]);
    expect(entry!.kind === 'page' && entry!.input.html).toBe(html);
  });

  it('skips a file over the size limit without reading it', async () => {
    await writeFile(join(dir, 'big.txt'), 'w '.repeat(2000));
    const out: BatchEntry[] = [];
    for await (const e of readInputs(await resolveInputs([join(dir, 'big.txt')]), { maxDocumentBytes: 1000 })) out.push(e);
    expect(out).toMatchObject([{ kind: 'skip', reason: 'too-large' }]);
  });

  it.each([
    ['a missing path', (d: string) => [join(d, 'nope')], /Cannot read input `.*nope`: no such file or folder/],
    ['an unsupported file', (d: string) => [join(d, 'x.pdf')], /Unsupported input `.*x\.pdf`: expected/],
    ['no input', () => [], /No input given/],
  ])('refuses %s before reading anything', async (_name, paths, message) => {
    await writeFile(join(dir, 'x.pdf'), '%PDF');
    const error = await resolveInputs(paths(dir)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toMatch(message);
  });
});
