/**
 * Issue 28, case 6: one damaged gzip member of a per-record .warc.gz lost every record after it.
 * Now reading resumes at the next gzip member, and the problem names the damaged member's byte
 * offset in the compressed file.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers/temp-dir.js';
import { writeWarc } from '../input/warc-fixture.js';
import { htmlResponse, readWarcInChild } from './warc-hostile-helpers.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir('neardup-gzip-member-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const count = 40;
const urls = Array.from({ length: count }, (_, i) => `http://g.example/${i}`);

/** The records of a plain WARC (warcinfo first), each as its own bytes. */
async function recordsOf(): Promise<Buffer[]> {
  const plain = join(dir, 'plain.warc');
  await writeWarc(plain, urls.map((url, i) => htmlResponse(url, `Page${i}x`)));
  const text = (await readFile(plain)).toString('latin1');
  const starts: number[] = [];
  for (let at = text.indexOf('WARC/1.1\r\n'); at !== -1; at = text.indexOf('\r\n\r\nWARC/1.1\r\n', at + 1)) starts.push(at === 0 ? 0 : at + 4);
  return starts.map((s, i) => Buffer.from(text.slice(s, starts[i + 1] ?? text.length), 'latin1'));
}

type Damage = (member: Buffer) => Buffer;
const damages: Record<string, Damage> = {
  'cut in half': (m) => m.subarray(0, Math.floor(m.length / 2)),
  'bytes overwritten': (m) => {
    const copy = Buffer.from(m);
    for (let i = 20; i < copy.length - 12; i += 7) copy[i] = copy[i]! ^ 0x5a;
    return copy;
  },
};

describe('a per-record .warc.gz with one damaged member', () => {
  for (const [name, damage] of Object.entries(damages)) {
    it(`resumes at the next member and reports the compressed offset: ${name}`, async () => {
      const members = (await recordsOf()).map((r) => gzipSync(r));
      const victim = 1 + 12; // the warcinfo record is member 0
      const damaged = members.map((m, i) => (i === victim ? damage(m) : m));
      const offset = damaged.slice(0, victim).reduce((sum, m) => sum + m.length, 0);
      const path = join(dir, 'damaged.warc.gz');
      await writeFile(path, Buffer.concat(damaged));
      const read = await readWarcInChild(path);
      expect(read.finished).toBe(true);
      expect(read.entries.filter((e) => e.kind === 'page').map((e) => e.url)).toEqual(urls.filter((_, i) => i !== 12));
      const problems = read.entries.filter((e) => e.kind === 'problem');
      expect(problems.length).toBeGreaterThanOrEqual(1);
      expect(problems.map((p) => p.message).join('\n')).toContain(`compressed offset ${offset}`);
    });
  }

  it('reads a whole-file gzip (one member) as before', async () => {
    const path = join(dir, 'whole.warc.gz');
    await writeFile(path, gzipSync(Buffer.concat(await recordsOf())));
    const read = await readWarcInChild(path);
    expect(read.finished).toBe(true);
    expect(read.entries.filter((e) => e.kind === 'page').map((e) => e.url)).toEqual(urls);
    expect(read.entries.filter((e) => e.kind === 'problem')).toEqual([]);
  });
});
