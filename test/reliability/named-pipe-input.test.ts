/**
 * Issue 28, case 15: a named pipe as `dedup` input failed with "unexpected error: ESPIPE" (exit
 * 70): the gzip check read the file at an offset. A pipe is streamed like a file, gzip or not.
 */
import { execFileSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerDedup } from '../../src/cli/dedup-command.js';
import { runInProcess } from '../helpers/run-cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { writeWarc } from '../input/warc-fixture.js';
import { htmlPage } from './warc-hostile-helpers.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir('neardup-fifo-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const text = (topic: string) => Array.from({ length: 60 }, (_, i) => `${topic} sentence number ${i} about ${topic}${i % 7}`).join('. ');

/** Makes a named pipe and writes `bytes` into it (in small pieces) once a reader opens it. */
function pipeOf(name: string, bytes: Buffer): string {
  const path = join(dir, name);
  execFileSync('mkfifo', [path]);
  const writer = createWriteStream(path);
  for (let at = 0; at < bytes.length; at += 7) writer.write(bytes.subarray(at, at + 7));
  writer.end();
  return path;
}

async function dedupOf(path: string) {
  const run = await runInProcess(registerDedup, ['dedup', '--data', join(dir, 'data'), '--workers', '1', '--json', '--no-progress', path]);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as { stored: number; errors: number };
}

const jsonl = Buffer.from(['lakes', 'ridges', 'comets'].map((t, i) => JSON.stringify({ url: `http://p.example/${i}`, text: text(t) })).join('\n'));

describe('a named pipe as dedup input', () => {
  it('is streamed (JSONL)', async () => {
    expect(await dedupOf(pipeOf('in.jsonl', jsonl))).toMatchObject({ stored: 3, errors: 0 });
  });

  it('is streamed (gzip JSONL)', async () => {
    expect(await dedupOf(pipeOf('in.jsonl.gz', gzipSync(jsonl)))).toMatchObject({ stored: 3, errors: 0 });
  });

  it('is streamed (WARC)', async () => {
    const file = join(dir, 'file.warc');
    await writeWarc(file, ['Alpha', 'Bravo'].map((t, i) => ({ type: 'response', url: `http://p.example/w${i}`, httpHeaders: { 'Content-Type': 'text/html' }, body: htmlPage(t, 80) })));
    const bytes = execFileSync('cat', [file]);
    expect(await dedupOf(pipeOf('in.warc', bytes))).toMatchObject({ stored: 2, errors: 0 });
  });
});
