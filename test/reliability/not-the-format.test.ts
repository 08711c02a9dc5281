/**
 * Issue 29 (refuse what is not the format) and issue 28 (dedup exit code): a CSV file named
 * `.jsonl` gave 1,049 error lines and exit 0. A JSONL file whose first lines are not JSON, or a
 * WARC that is not a WARC, is refused with one line; `dedup` exits 1 when no record at all could
 * be read.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerDedup } from '../../src/cli/dedup-command.js';
import { runInProcess } from '../helpers/run-cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir('neardup-format-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const text = (topic: string) => Array.from({ length: 60 }, (_, i) => `${topic} sentence number ${i} about ${topic}${i % 7}`).join('. ');
const csv = ['url,text,lang', ...Array.from({ length: 1049 }, (_, i) => `http://c.example/${i},"some text ${i}",en`)].join('\n');

async function dedup(...inputs: string[]) {
  return runInProcess(registerDedup, ['dedup', '--data', join(dir, 'data'), '--workers', '1', '--json', '--no-progress', ...inputs]);
}

describe('input that is not its format', () => {
  it('a CSV file named .jsonl is refused with one line, exit 1', async () => {
    const path = join(dir, 'table.jsonl');
    await writeFile(path, csv);
    const run = await dedup(path);
    expect(run.code).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^neardup: .*table\.jsonl.*not JSONL/);
  });

  it('a text file named .warc is refused with one line, exit 1', async () => {
    const path = join(dir, 'notes.warc');
    await writeFile(path, 'these are my notes\nabout many things\n'.repeat(100));
    const run = await dedup(path);
    expect(run.code).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^neardup: .*notes\.warc.*not a WARC/);
  });

  it('a JSONL file with one bad first line is read (not refused), exit 0', async () => {
    const path = join(dir, 'mostly.jsonl');
    await writeFile(path, ['oops, not json', ...['a', 'b'].map((t) => JSON.stringify({ url: `http://m.example/${t}`, text: text(`topic${t}`) }))].join('\n'));
    const run = await dedup(path);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ stored: 2, errors: 1 });
  });

  it('a refused file beside a good one: the good one is read, exit 0', async () => {
    const bad = join(dir, 'table.jsonl');
    await writeFile(bad, csv);
    const good = join(dir, 'good.jsonl');
    await writeFile(good, JSON.stringify({ url: 'http://g.example/', text: text('gardens') }));
    const run = await dedup(bad, good);
    expect(run.code).toBe(0);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ stored: 1, errors: 1 });
  });

  it('dedup exits 1 when no record at all could be read (JSON lines without a document)', async () => {
    const path = join(dir, 'empty-objects.jsonl');
    await writeFile(path, '{"a":1}\n{"b":2}\n');
    const run = await dedup(path);
    expect(run.code).toBe(1);
  });

  it('dedup exits 1 on an empty input, with a line saying so', async () => {
    const path = join(dir, 'empty.jsonl');
    await writeFile(path, '');
    const run = await dedup(path);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^neardup: no record could be read/m);
  });
});
