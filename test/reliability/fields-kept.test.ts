/**
 * Issue 29, fields kept: `dedup` on `{"url","text","lang","source"}` wrote corpus lines without
 * `lang` and `source`. Every input field beside the ones neardup reads is carried into the corpus
 * line unchanged, after neardup's own fields; one whose name a corpus line already uses (`id`,
 * `title`, `language`, ...) is kept under `input`. The same for the plug-in's `judge({ url, text,
 * ... })`.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerDedup } from '../../src/cli/dedup-command.js';
import { Deduplicator } from '../../src/crawlee/deduplicator.js';
import { runInProcess } from '../helpers/run-cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir('neardup-fields-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const text = (topic: string) => Array.from({ length: 60 }, (_, i) => `${topic} sentence number ${i} about ${topic}${i % 7}`).join('. ');

async function corpusLines(): Promise<Record<string, unknown>[]> {
  return (await readFile(join(dir, 'data', 'corpus.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('input fields kept in the corpus', () => {
  it('dedup carries every JSONL field it does not read, unchanged', async () => {
    const path = join(dir, 'in.jsonl');
    const meta = { tags: ['a', 'b'], score: 0.5, nested: { deep: null } };
    await writeFile(path, [
      JSON.stringify({ url: 'http://k.example/1', text: text('orchards'), lang: 'en', source: 'crawl-2024', meta, title: 'Orchards' }),
      JSON.stringify({ id: 'doc-2', text: text('harbours'), lang: 'fr' }),
      JSON.stringify({ url: 'http://k.example/3', id: 17, html: `<html><head><title>Page title</title></head><body><p>${text('glaciers')}</p></body></html>`, title: 'Given title', language: 'xx', flags: 3 }),
    ].join('\n'));
    const run = await runInProcess(registerDedup, ['dedup', '--data', join(dir, 'data'), '--workers', '1', '--json', '--no-progress', path]);
    expect(run.stderr).toBe('');
    const [first, second, third] = await corpusLines();
    expect(first).toMatchObject({ url: 'http://k.example/1', title: 'Orchards', lang: 'en', source: 'crawl-2024', meta });
    expect(first!.input).toBeUndefined();
    // `id` made the URL: it is read, not carried.
    expect(second).toMatchObject({ url: `${path}#doc-2`, lang: 'fr' });
    expect(second!.input).toBeUndefined();
    // Names the corpus line uses itself are kept under `input`; neardup's own values stand.
    expect(third).toMatchObject({ title: 'Page title', input: { id: 17, title: 'Given title', language: 'xx', flags: 3 } });
    expect(typeof third!.id).toBe('number');
    expect(third!.language).not.toBe('xx');
    // neardup's own fields come first, `id` leading (corpus-writer's invariant).
    expect(Object.keys(first!).slice(0, 2)).toEqual(['id', 'url']);
  });

  it('the plug-in\'s judge() carries the page\'s other fields', async () => {
    const dedup = await Deduplicator.open({ data: join(dir, 'data') });
    try {
      const verdict = await dedup.judge({ url: 'http://k.example/p', text: text('meadows'), lang: 'de', source: { feed: 'rss' } } as Parameters<Deduplicator['judge']>[0]);
      expect(verdict.kind).toBe('stored');
    } finally {
      await dedup.close();
    }
    const [line] = await corpusLines();
    expect(line).toMatchObject({ url: 'http://k.example/p', lang: 'de', source: { feed: 'rss' } });
  });
});
