/**
 * Memory stays bounded on a large input: a 200 MB generated JSONL file (and its .gz) are streamed
 * by a child process whose V8 heap is capped at 64 MB, far below the input's size; and the whole
 * batch driver (workers, reorder buffer, index) dedups 150 MB of generated HTML under a 48 MB heap.
 */
import { execFile } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers/temp-dir.js';

const run = promisify(execFile);
const helper = new URL('../fixtures/batch/count-entries.ts', import.meta.url).pathname;
const dedupHelper = new URL('../fixtures/batch/dedup-generated.ts', import.meta.url).pathname;
const docs = 40_000;
const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliett', 'kilo', 'lima'];

function* lines(): Generator<string> {
  let x = 12345;
  const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0);
  // 512 segments of 82 random words; a document is 10 of them (~5 KB), picked pseudo-randomly.
  const segments = Array.from({ length: 512 }, () => Array.from({ length: 82 }, () => words[next() % words.length]!).join(' '));
  for (let i = 0; i < docs; i += 1) {
    const parts: string[] = [];
    for (let s = 0; s < 10; s += 1) parts.push(segments[next() & 511]!);
    yield `${JSON.stringify({ url: `http://big.example/${i}`, text: parts.join(' ') })}\n`;
  }
}

let dir: string;
beforeAll(async () => {
  dir = makeTempDir('neardup-bigjsonl-');
  await pipeline(Readable.from(lines()), createWriteStream(join(dir, 'big.jsonl')));
  await pipeline(Readable.from(lines()), createGzip({ level: 1 }), createWriteStream(join(dir, 'big.jsonl.gz')));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('readers on a large input', () => {
  for (const name of ['big.jsonl', 'big.jsonl.gz']) {
    it(`streams ${name} under a 64 MB heap`, async () => {
      const path = join(dir, name);
      if (name === 'big.jsonl') expect((await stat(path)).size).toBeGreaterThan(190 * 1024 * 1024);
      const { stdout } = await run(process.execPath, ['--max-old-space-size=64', '--import', 'tsx', helper, path], { cwd: process.cwd() });
      const out = JSON.parse(stdout.trim().split('\n').at(-1)!) as { pages: number; problems: number; chars: number; maxRssMb: number };
      expect(out.pages).toBe(docs);
      expect(out.problems).toBe(0);
      expect(out.chars).toBeGreaterThan(190 * 1024 * 1024);
      // The whole input is > 190 MB of text (> 380 MB as JS strings); peak RSS stays well below it.
      expect(out.maxRssMb, `peak RSS ${out.maxRssMb} MB`).toBeLessThan(190);
    });
  }
});

describe('batch dedup on a large input', () => {
  it('dedups 1,500 documents of ~100 KB of HTML (150 MB) under a 48 MB heap', async () => {
    // Documents in flight are bounded (maxInFlight 32), and nothing keeps a committed batch alive
    // (p-queue's array of started tasks once did: 100 batches of 8 × 100 KB overflowed this heap).
    const { stdout } = await run(process.execPath, ['--max-old-space-size=48', '--import', 'tsx', dedupHelper, join(dir, 'dedup-data'), '1500'], { cwd: process.cwd() });
    const out = JSON.parse(stdout.trim().split('\n').at(-1)!) as { documents: number; stored: number; errors: number; maxRssMb: number };
    expect(out.documents).toBe(1500);
    expect(out.errors).toBe(0);
    expect(out.stored).toBeGreaterThan(1000);
  });
});
