/**
 * Issue 28, case 2: one bad `fetchedAt` (-1, 1.5, 1e16, 8.64e15 + 1) ended `dedup` with exit 2
 * ("Invalid time value" for the last) and stored nothing of a 3-line file; a re-run died at the
 * same line. A malformed field is that line's problem, counted and reported with its position,
 * never fatal — for every field neardup reads, in JSONL and in WARC.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerDedup } from '../../src/cli/dedup-command.js';
import { runInProcess } from '../helpers/run-cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { writeWarc } from '../input/warc-fixture.js';
import { htmlPage } from './warc-hostile-helpers.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir('neardup-bad-fields-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const text = (topic: string) => Array.from({ length: 60 }, (_, i) => `${topic} sentence number ${i} about ${topic}${i % 7}`).join('. ');

async function dedup(...inputs: string[]) {
  const run = await runInProcess(registerDedup, ['dedup', '--data', join(dir, 'data'), '--workers', '1', '--json', '--no-progress', ...inputs]);
  return { ...run, summary: run.code === 0 || run.code === 1 ? JSON.parse(run.stdout) as { stored: number; errors: number; documents: number } : null };
}

const badFields: Record<string, string> = {
  'fetchedAt -1': '"fetchedAt": -1',
  'fetchedAt 1.5': '"fetchedAt": 1.5',
  'fetchedAt 1e16': '"fetchedAt": 1e16',
  'fetchedAt 8.64e15 + 1': '"fetchedAt": 8640000000000001',
  'fetchedAt a string that is no date': '"fetchedAt": "yesterday"',
  'fetchedAt an object': '"fetchedAt": {"ms": 1}',
  'finalUrl a number': '"finalUrl": 7',
  'lastModified an array': '"lastModified": ["x"]',
};

describe('a JSONL line with a bad field value', () => {
  for (const [name, field] of Object.entries(badFields)) {
    it(`is one counted problem at its line, the rest stored: ${name}`, async () => {
      const path = join(dir, 'in.jsonl');
      await writeFile(path, [
        JSON.stringify({ url: 'http://f.example/1', text: text('apples') }),
        `{"url": "http://f.example/2", "text": ${JSON.stringify(text('bridges'))}, ${field}}`,
        JSON.stringify({ url: 'http://f.example/3', text: text('comets') }),
      ].join('\n'));
      for (let round = 0; round < 2; round++) {
        const run = await dedup(path);
        expect(run.code).toBe(0);
        expect(run.stderr).toMatch(new RegExp(`in\\.jsonl:2: .*${name.split(' ')[0]}`));
        expect(run.summary!.errors).toBe(1);
        if (round === 0) expect(run.summary!.stored).toBe(2);
      }
      const corpus = (await readFile(join(dir, 'data', 'corpus.jsonl'), 'utf8')).trim().split('\n');
      expect(corpus).toHaveLength(2);
    });
  }

  it('takes an ISO date string as fetchedAt', async () => {
    const path = join(dir, 'iso.jsonl');
    await writeFile(path, `${JSON.stringify({ url: 'http://f.example/iso', text: text('deltas'), fetchedAt: '2024-03-04T05:06:07Z' })}\n`);
    const run = await dedup(path);
    expect(run.summary!.errors).toBe(0);
    const [line] = (await readFile(join(dir, 'data', 'corpus.jsonl'), 'utf8')).trim().split('\n');
    expect(JSON.parse(line!).fetchedAt).toBe('2024-03-04T05:06:07.000Z');
  });
});

describe('a WARC record with a WARC-Date before 1970', () => {
  it('is stored without a fetch time instead of stopping the run', async () => {
    const path = join(dir, 'old.warc');
    await writeWarc(path, [
      { type: 'response', url: 'http://w.example/old', date: '1960-01-01T00:00:00Z', httpHeaders: { 'Content-Type': 'text/html' }, body: htmlPage('Old', 80) },
      { type: 'response', url: 'http://w.example/new', httpHeaders: { 'Content-Type': 'text/html' }, body: htmlPage('New', 80) },
    ]);
    const run = await dedup(path);
    expect(run.code).toBe(0);
    expect(run.summary!.stored).toBe(2);
  });
});
