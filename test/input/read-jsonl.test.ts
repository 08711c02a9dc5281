import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BatchEntry } from '../../src/input/batch-entry.js';
import { jsonlRecordToEntry, readJsonl } from '../../src/input/read-jsonl.js';
import { makeTempDir } from '../helpers/temp-dir.js';

let dir: string;
beforeEach(async () => {
  dir = makeTempDir('neardup-jsonl-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function collect(path: string, maxDocumentBytes?: number): Promise<BatchEntry[]> {
  const out: BatchEntry[] = [];
  for await (const e of readJsonl(path, maxDocumentBytes === undefined ? {} : { maxDocumentBytes })) out.push(e);
  return out;
}

const lines = [
  JSON.stringify({ url: 'http://x/1', text: 'first document', lang: 'en', tags: ['a'] }),
  JSON.stringify({ url: 'http://x/2', html: '<p>second</p>', lastModified: '2024-01-01T00:00:00Z', fetchedAt: 5 }),
  '{"url": "http://x/3", "text": ', // bad JSON
  '',
  '[1,2,3]',
  JSON.stringify({ text: 'no url' }),
  JSON.stringify({ url: 'http://x/7' }),
  JSON.stringify({ id: 42, text: 'by id' }),
  JSON.stringify({ url: 'http://x/9', text: 'text wins', html: '<p>ignored</p>', id: 'keep-me' }),
  `${JSON.stringify({ url: 'http://x/10', text: 'crlf line' })}\r`,
];

describe('readJsonl', () => {
  for (const gz of [false, true]) {
    it(`reads documents, keeps extra fields, reports malformed lines with positions (${gz ? '.jsonl.gz' : '.jsonl'})`, async () => {
      const path = join(dir, gz ? 'docs.jsonl.gz' : 'docs.jsonl');
      const body = `${lines.join('\n')}\n`;
      await writeFile(path, gz ? gzipSync(body) : body);
      const entries = await collect(path);
      expect(entries.map((e) => `${e.kind} ${e.position.slice(dir.length + 1)}`)).toEqual([
        `page ${gz ? 'docs.jsonl.gz' : 'docs.jsonl'}:1`,
        `page ${gz ? 'docs.jsonl.gz' : 'docs.jsonl'}:2`,
        `problem ${gz ? 'docs.jsonl.gz' : 'docs.jsonl'}:3`,
        `problem ${gz ? 'docs.jsonl.gz' : 'docs.jsonl'}:5`,
        `problem ${gz ? 'docs.jsonl.gz' : 'docs.jsonl'}:6`,
        `problem ${gz ? 'docs.jsonl.gz' : 'docs.jsonl'}:7`,
        `page ${gz ? 'docs.jsonl.gz' : 'docs.jsonl'}:8`,
        `page ${gz ? 'docs.jsonl.gz' : 'docs.jsonl'}:9`,
        `page ${gz ? 'docs.jsonl.gz' : 'docs.jsonl'}:10`,
      ]);
      const pages = entries.flatMap((e) => (e.kind === 'page' ? [e.input] : []));
      expect(pages[0]).toEqual({ url: 'http://x/1', text: 'first document', extra: { lang: 'en', tags: ['a'] } });
      expect(pages[1]).toEqual({ url: 'http://x/2', html: '<p>second</p>', lastModified: '2024-01-01T00:00:00Z', fetchedAt: 5 });
      expect(pages[2]).toEqual({ url: `${path}#42`, text: 'by id' });
      expect(pages[3]).toEqual({ url: 'http://x/9', text: 'text wins', extra: { id: 'keep-me' } });
      expect(pages[4]).toEqual({ url: 'http://x/10', text: 'crlf line' });
      const messages = entries.flatMap((e) => (e.kind === 'problem' ? [e.message] : []));
      expect(messages[0]).toMatch(/^invalid JSON/);
      expect(messages[1]).toBe('expected a JSON object, got an array');
      expect(messages[2]).toMatch(/`url`/);
      expect(messages[3]).toMatch(/`text` or `html`/);
    });
  }

  it('reports a truncated .jsonl.gz after the lines before the cut', async () => {
    const body = Array.from({ length: 2000 }, (_, i) => JSON.stringify({ url: `http://x/${i}`, text: `document number ${i} ${'word '.repeat(i % 50)}` })).join('\n');
    const gz = gzipSync(body);
    const path = join(dir, 'cut.jsonl.gz');
    await writeFile(path, gz.subarray(0, Math.floor(gz.length / 2)));
    const entries = await collect(path);
    const pages = entries.filter((e) => e.kind === 'page');
    expect(pages.length).toBeGreaterThan(100);
    expect(pages.length).toBeLessThan(2000);
    const last = entries.at(-1)!;
    expect(last.kind).toBe('problem');
    expect(last.kind === 'problem' && last.message).toMatch(/unexpected end of file/);
    expect(last.position).toBe(`${path}:${pages.length + 1}`);
  });

  it('skips a line longer than the limit without holding it, then goes on', async () => {
    const path = join(dir, 'long.jsonl');
    const huge = JSON.stringify({ url: 'http://x/huge', text: 'y'.repeat(200_000) });
    await writeFile(path, `${huge}\n${JSON.stringify({ url: 'http://x/ok', text: 'fine' })}\n`);
    const entries = await collect(path, 10_000);
    expect(entries.map((e) => e.kind)).toEqual(['problem', 'page']);
    expect(entries[0]!.position).toBe(`${path}:1`);
  });

  it('turns a document over the size limit into a too-large skip', () => {
    const entry = jsonlRecordToEntry({ url: 'u', text: 'z'.repeat(101) }, 'f.jsonl', 'f.jsonl:1', 100);
    expect(entry).toMatchObject({ kind: 'skip', url: 'u', reason: 'too-large' });
  });
});
