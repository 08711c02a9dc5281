/**
 * Issue 28, case 11: a UTF-8 byte-order mark cost the first record of a JSONL file (`dedup`: its
 * line was invalid JSON) and the first list of `filter` input. The shared line reader drops a BOM
 * at the start of a stream, even when the stream hands it over one byte at a time.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerDedup } from '../../src/cli/dedup-command.js';
import { readLines } from '../../src/input/read-lines.js';
import { runInProcess } from '../helpers/run-cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir('neardup-bom-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const bom = Buffer.from([0xef, 0xbb, 0xbf]);
const text = (topic: string) => Array.from({ length: 60 }, (_, i) => `${topic} sentence number ${i} about ${topic}${i % 7}`).join('. ');

describe('a UTF-8 BOM at the start of line input', () => {
  it('is dropped by the line reader, whatever the chunking, and only at the start', async () => {
    const bytes = Buffer.concat([bom, Buffer.from('{"a":1}\n'), bom, Buffer.from('x\n')]);
    for (let cut = 0; cut <= 4; cut++) {
      const out: Array<string | null> = [];
      for await (const l of readLines(Readable.from([bytes.subarray(0, 1), bytes.subarray(1, cut + 1), bytes.subarray(cut + 1)]), 100)) out.push(l.text);
      expect(out).toEqual(['{"a":1}', '\ufeffx']);
    }
  });

  for (const gzip of [false, true]) {
    it(`costs dedup no record (${gzip ? '.jsonl.gz' : '.jsonl'})`, async () => {
      const path = join(dir, gzip ? 'bom.jsonl.gz' : 'bom.jsonl');
      const body = Buffer.concat([bom, Buffer.from(`${JSON.stringify({ url: 'http://b.example/1', text: text('lakes') })}\n${JSON.stringify({ url: 'http://b.example/2', text: text('ridges') })}\n`)]);
      await writeFile(path, gzip ? gzipSync(body) : body);
      const run = await runInProcess(registerDedup, ['dedup', '--data', join(dir, 'data'), '--workers', '1', '--json', '--no-progress', path]);
      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout)).toMatchObject({ stored: 2, errors: 0 });
    });
  }
});
