/**
 * Issue 28 item 10: a symbolic link in the data folder was followed out of --data and its target
 * rewritten (a `corpus.jsonl` linked to another file had its last "torn" line cut and documents
 * appended). A link where neardup writes (corpus, index, crawlee's folder and what is in it) is
 * refused with one line before anything is opened, and the target keeps every byte; the data
 * folder itself may be a link.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CorpusWriter } from '../../src/store/corpus-writer.js';
import { spawnNeardup } from '../helpers/run-cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const words = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron';

describe('symbolic links in the data folder', () => {
  const work = makeTempDir('neardup-linked-data-');
  const input = join(work, 'docs.jsonl');
  writeFileSync(input, `${JSON.stringify({ url: 'http://a.example/1', text: words })}\n`);
  // A file of the user's elsewhere, ending without a newline (what the corpus would cut as torn).
  const precious = 'my notes\nline two without newline';

  it.each([
    ['corpus.jsonl', 'corpus.jsonl'],
    ['neardup.db', 'neardup.db'],
    ['a file in crawlee/', join('crawlee', 'neardup-frontier.jsonl')],
  ])('refuses a linked %s and leaves its target as it was', async (_what, entry) => {
    const data = join(work, `data-${entry.replace(/\W/g, '-')}`);
    mkdirSync(join(data, 'crawlee'), { recursive: true });
    const target = join(work, `target-${entry.replace(/\W/g, '-')}.txt`);
    writeFileSync(target, precious);
    symlinkSync(target, join(data, entry));
    const r = await spawnNeardup(['dedup', input, '--data', data, '--no-progress']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/^neardup: Refusing to use `.*`: it is a symbolic link \(to `.*target-.*`\), and neardup writes only inside the data folder/);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(readFileSync(target, 'utf8')).toBe(precious);
  });

  it('a linked data folder is fine', async () => {
    const real = join(work, 'real-data');
    mkdirSync(real);
    symlinkSync(real, join(work, 'linked-data'));
    const r = await spawnNeardup(['dedup', input, '--data', join(work, 'linked-data'), '--no-progress']);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(real, 'corpus.jsonl'), 'utf8')).toContain('http://a.example/1');
  });

  it('the corpus writer itself never opens through a link', () => {
    const target = join(work, 'writer-target.txt');
    writeFileSync(target, precious);
    const link = join(work, 'writer-link.jsonl');
    symlinkSync(target, link);
    expect(() => CorpusWriter.open(link)).toThrow(/Cannot open corpus file/);
    expect(readFileSync(target, 'utf8')).toBe(precious);
  });
});
