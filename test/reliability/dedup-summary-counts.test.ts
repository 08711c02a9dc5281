/**
 * Issue 28, case 13: `dedup`'s summary miscounted. A URL given twice in one run was counted as
 * stored twice (stored 4; index and corpus 3), and a re-run reported everything as newly stored,
 * with flag counts that disagreed. A URL judged before (in this run or an earlier one) keeps its
 * earlier decision and is counted as `repeated`, not again as stored, rejected or flagged.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerDedup } from '../../src/cli/dedup-command.js';
import { runInProcess } from '../helpers/run-cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir('neardup-dedup-counts-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const text = (topic: string) => Array.from({ length: 60 }, (_, i) => `${topic} sentence number ${i} about ${topic}${i % 7}`).join('. ');
// A homoglyph copy (Cyrillic а/е/о for Latin) of `text`, to have a flag to count.
const homoglyph = (s: string) => s.replace(/a/g, 'а').replace(/e/g, 'е').replace(/o/g, 'о');

interface Summary { documents: number; stored: number; exact: number; near: number; similar: number; skipped: number; repeated: number; errors: number; flagged: Record<string, number> }

async function dedup(path: string): Promise<Summary> {
  const run = await runInProcess(registerDedup, ['dedup', '--data', join(dir, 'data'), '--workers', '1', '--json', '--no-progress', path]);
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as Summary;
}

describe('dedup summary counts', () => {
  it('count a URL given twice once, and a re-run as nothing new', async () => {
    const path = join(dir, 'in.jsonl');
    const lines = [
      { url: 'http://s.example/a', text: text('apples') },
      { url: 'http://s.example/b', text: text('bridges') },
      { url: 'http://s.example/a', text: text('apples') },
      { url: 'http://s.example/c', text: text('comets') },
      { url: 'http://s.example/copy', text: homoglyph(text('comets')) },
      { url: 'http://s.example/b', text: text('something else entirely') },
    ];
    await writeFile(path, lines.map((l) => JSON.stringify(l)).join('\n'));
    const first = await dedup(path);
    const corpus = (await readFile(join(dir, 'data', 'corpus.jsonl'), 'utf8')).trim().split('\n');
    expect(corpus).toHaveLength(3);
    expect(first).toMatchObject({ documents: 6, stored: 3, exact: 1, repeated: 2, errors: 0 });

    const again = await dedup(path);
    expect(again).toMatchObject({ documents: 6, stored: 0, exact: 0, near: 0, similar: 0, skipped: 0, repeated: 6, errors: 0 });
    expect(again.flagged).toEqual({});
    expect((await readFile(join(dir, 'data', 'corpus.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(3);
    const text3 = await runInProcess(registerDedup, ['dedup', '--data', join(dir, 'data'), '--workers', '1', '--no-progress', path]);
    expect(text3.stdout).toMatch(/stored 0, rejected 0 .*\n {2}already judged: 6 /);
  });
});
