/**
 * Issue 28, case 7: a WARC record whose Content-Length lies lost or truncated records silently
 * (`abc` swallowed every later record, +5000 swallowed the next ones, −300 stored a record cut
 * short), with only a raw warcio console.warn. Now the lie is detected (the declared end is not
 * followed by the next record's `WARC/1.` header or the end of the file), reported in neardup's
 * format as a problem, and reading resynchronises on the next `WARC/1.` header.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerDedup } from '../../src/cli/dedup-command.js';
import { runInProcess } from '../helpers/run-cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { writeWarc } from '../input/warc-fixture.js';
import { htmlResponse, readWarcInChild } from './warc-hostile-helpers.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir('neardup-lying-length-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const count = 10;
const urls = Array.from({ length: count }, (_, i) => `http://l.example/${i}`);
const titles = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot', 'Golf', 'Hotel', 'India', 'Juliett'];

/** A WARC of `count` HTML responses whose record `victim` declares `length(real)` as its Content-Length. */
async function lyingWarc(victim: number, length: (real: number) => string): Promise<string> {
  const full = join(dir, 'full.warc');
  await writeWarc(full, urls.map((url, i) => htmlResponse(url, titles[i]!)));
  const text = (await readFile(full)).toString('latin1');
  const start = text.indexOf(`WARC-Target-URI: ${urls[victim]}\r\n`);
  const recordStart = text.lastIndexOf('WARC/1.1\r\n', start);
  const at = text.indexOf('Content-Length: ', recordStart);
  const end = text.indexOf('\r\n', at);
  const real = Number(text.slice(at + 'Content-Length: '.length, end));
  const path = join(dir, 'lying.warc');
  await writeFile(path, Buffer.from(`${text.slice(0, at)}Content-Length: ${length(real)}${text.slice(end)}`, 'latin1'));
  return path;
}

const lies: Record<string, (real: number) => string> = {
  'not a number (abc)': () => 'abc',
  'too large by 5000': (real) => String(real + 5000),
  'too small by 300': (real) => String(real - 300),
  'negative': () => '-12',
};

describe('a WARC record with a lying Content-Length', () => {
  for (const [name, lie] of Object.entries(lies)) {
    it(`is one problem, and every other record is read: ${name}`, async () => {
      const path = await lyingWarc(3, lie);
      const read = await readWarcInChild(path);
      expect(read.finished).toBe(true);
      const pages = read.entries.filter((e) => e.kind === 'page');
      expect(pages.map((e) => e.url)).toEqual(urls.filter((_, i) => i !== 3));
      // No record comes out cut short.
      for (const p of pages) expect(p.html).toMatch(/<\/html>$/);
      const problems = read.entries.filter((e) => e.kind === 'problem');
      expect(problems).toHaveLength(1);
      expect(problems[0]!.message).toMatch(/Content-Length/);
      expect(read.stderr).toBe('');
    });
  }

  it('is reported by dedup in neardup\'s format and counted as an error', async () => {
    const path = await lyingWarc(3, (real) => String(real + 5000));
    const run = await runInProcess(registerDedup, ['dedup', '--data', join(dir, 'data'), '--workers', '1', '--json', '--no-progress', path]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(new RegExp(`^neardup: ${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}@\\d+: .*Content-Length`, 'm'));
    const summary = JSON.parse(run.stdout) as { errors: number; stored: number };
    expect(summary.errors).toBe(1);
    expect(summary.stored).toBe(count - 1);
  });
});
