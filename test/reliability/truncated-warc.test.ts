/**
 * Issue 28, case 1: a WARC that ends inside a record neardup does not read (a request record, a
 * non-HTML response, a record claiming more than 4 × maxPageBytes) hung `dedup` at 100% CPU:
 * warcio's skip loops at the end of the stream. The reading of every record is bounded by what
 * the file holds: such a file gives the records before the cut and one problem.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeWarc, type WarcFixtureRecord } from '../input/warc-fixture.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { htmlResponse, readWarcInChild } from './warc-hostile-helpers.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir('neardup-truncated-warc-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const lastRecords: Record<string, WarcFixtureRecord> = {
  'a request record': { type: 'request', url: 'http://t.example/req', body: 'x'.repeat(2000) },
  'a non-HTML response': { type: 'response', url: 'http://t.example/img.png', httpHeaders: { 'Content-Type': 'image/png' }, body: 'x'.repeat(3000) },
  'a metadata record': { type: 'metadata', url: 'http://t.example/', body: 'via: x\n'.repeat(400) },
};

describe('a WARC that ends inside a record neardup skips', () => {
  for (const [name, last] of Object.entries(lastRecords)) {
    for (const gzip of [false, true]) {
      it(`ends with one problem after the records before it: ${name} (${gzip ? 'intact .warc.gz' : '.warc'})`, async () => {
        const full = join(dir, 'full.warc');
        await writeWarc(full, [htmlResponse('http://t.example/1', 'One'), last]);
        const bytes = await readFile(full);
        const cutBytes = bytes.subarray(0, bytes.length - 1000);
        const cut = join(dir, gzip ? 'cut.warc.gz' : 'cut.warc');
        // An intact gzip file whose WARC inside is cut: the gzip layer reports nothing.
        await writeFile(cut, gzip ? gzipSync(cutBytes) : cutBytes);
        const read = await readWarcInChild(cut);
        expect(read.finished).toBe(true);
        expect(read.entries.filter((e) => e.kind === 'page').map((e) => e.url)).toEqual(['http://t.example/1']);
        const problems = read.entries.filter((e) => e.kind === 'problem');
        expect(problems).toHaveLength(1);
        expect(problems[0]!.message).toMatch(/truncated/);
        expect(read.stderr).toBe('');
      });
    }
  }

  it('ends with one problem when the file ends inside a record header', async () => {
    const full = join(dir, 'full.warc');
    await writeWarc(full, [htmlResponse('http://t.example/1', 'One'), htmlResponse('http://t.example/2', 'Two')]);
    const text = (await readFile(full)).toString('latin1');
    const path = join(dir, 'cut-header.warc');
    await writeFile(path, Buffer.from(text.slice(0, text.lastIndexOf('WARC/1.1') + 40), 'latin1'));
    const read = await readWarcInChild(path);
    expect(read.finished).toBe(true);
    expect(read.entries.filter((e) => e.kind === 'page').map((e) => e.url)).toEqual(['http://t.example/1']);
    const problems = read.entries.filter((e) => e.kind === 'problem');
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).toMatch(/truncated/);
  });

  it('bounds a record that claims more than the file holds (Content-Length 2147483648 in a small file)', async () => {
    const full = join(dir, 'full.warc');
    await writeWarc(full, [htmlResponse('http://t.example/1', 'One'), htmlResponse('http://t.example/2', 'Two')]);
    const text = (await readFile(full)).toString('latin1');
    // The last record's Content-Length made huge: more than 4 × maxPageBytes, so it is skipped unread.
    const at = text.indexOf('Content-Length: ', text.lastIndexOf('WARC/1.1'));
    const end = text.indexOf('\r\n', at);
    const lying = `${text.slice(0, at)}Content-Length: 2147483648${text.slice(end)}`;
    const path = join(dir, 'huge.warc');
    await writeFile(path, Buffer.from(lying, 'latin1'));
    const read = await readWarcInChild(path);
    expect(read.finished).toBe(true);
    expect(read.entries.filter((e) => e.kind === 'page').map((e) => e.url)).toEqual(['http://t.example/1']);
    const problems = read.entries.filter((e) => e.kind === 'problem');
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).toMatch(/2147483648/);
  });
});
