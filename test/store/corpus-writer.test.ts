import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CorpusWriter } from '../../src/store/corpus-writer.js';
import type { CorpusRecord } from '../../src/store/corpus-writer.js';
import { StorageError } from '../../src/errors.js';
import { makeTempDir } from '../helpers/temp-dir.js';

let dir: string;
let path: string;

beforeEach(() => {
  dir = makeTempDir('neardup-corpus-');
  path = join(dir, 'corpus.jsonl');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function record(id: number, text = `text of document ${id}`): CorpusRecord {
  return {
    id,
    url: `http://example.test/${id}`,
    finalUrl: null,
    title: `Title ${id}`,
    language: 'eng',
    text,
    fingerprint: id.toString(16).padStart(16, '0'),
    fetchedAt: '2024-01-02T03:04:05.000Z',
  };
}

function lines(): string[] {
  return readFileSync(path, 'utf8').split('\n').filter((line) => line !== '');
}

describe('CorpusWriter', () => {
  it('writes one JSON line per document, id first, with every field', () => {
    const writer = CorpusWriter.open(path);
    expect(writer.append(record(1))).toBe(true);
    expect(writer.append({ ...record(2), finalUrl: 'http://example.test/2b', text: 'line\nbreak "quoted" \u2028' })).toBe(true);
    writer.close();
    const parsed = lines().map((line) => JSON.parse(line) as CorpusRecord);
    expect(parsed).toEqual([record(1), { ...record(2), finalUrl: 'http://example.test/2b', text: 'line\nbreak "quoted" \u2028' }]);
    expect(lines()[0]!.startsWith('{"id":1,')).toBe(true);
    expect(readFileSync(path, 'utf8').endsWith('\n')).toBe(true);
  });

  it('never writes an id twice, within a run or across reopenings', () => {
    const first = CorpusWriter.open(path);
    first.append(record(7));
    expect(first.append(record(7, 'other text'))).toBe(false);
    first.close();
    const second = CorpusWriter.open(path);
    expect(second.has(7)).toBe(true);
    expect(second.has(8)).toBe(false);
    expect(second.append(record(7))).toBe(false);
    expect(second.append(record(8))).toBe(true);
    second.close();
    expect(lines().map((line) => (JSON.parse(line) as CorpusRecord).id)).toEqual([7, 8]);
  });

  it('reads tombstones back: after a reopen, or a refresh seeing another writer\'s, a superseded line stays withdrawn and compaction removes it', () => {
    const first = CorpusWriter.open(path);
    first.appendMany([record(1), record(2)]);
    const other = CorpusWriter.open(path);
    expect(first.supersede([{ id: 1, by: 2 }])).toBe(1);
    expect([first.supersededCount, first.size]).toEqual([1, 1]);
    first.close();
    other.refresh();
    expect([other.supersededCount, other.size, other.isLive(1)]).toEqual([1, 1, false]);
    other.close();
    const reopened = CorpusWriter.open(path);
    expect([reopened.supersededCount, reopened.size, reopened.isLive(1), reopened.isLive(2)]).toEqual([1, 1, false, true]);
    expect(reopened.compact()).toBeGreaterThan(0);
    reopened.close();
    expect(lines().map((line) => (JSON.parse(line) as CorpusRecord).id)).toEqual([2]);
  });

  it('appends many lines at once, skipping ids already written or repeated in the batch', () => {
    const writer = CorpusWriter.open(path);
    writer.append(record(1));
    expect(writer.appendMany([record(2), record(1, 'again'), record(3), record(2, 'twice'), record(4)])).toEqual([true, false, true, false, true]);
    expect(writer.appendMany([])).toEqual([]);
    expect(writer.appendMany([record(3)])).toEqual([false]);
    expect(writer.size).toBe(4);
    writer.close();
    expect(lines().map((line) => JSON.parse(line) as CorpusRecord)).toEqual([record(1), record(2), record(3), record(4)]);
    const reopened = CorpusWriter.open(path);
    expect(reopened.openReport).toEqual({ lines: 4, truncatedBytes: 0, unreadableLines: 0 });
    reopened.close();
  });

  it('sees lines another writer appended once it refreshes', () => {
    const first = CorpusWriter.open(path);
    const second = CorpusWriter.open(path);
    first.appendMany([record(1), record(2)]);
    expect(second.has(2)).toBe(false);
    second.refresh();
    expect(second.has(1) && second.has(2)).toBe(true);
    expect(second.appendMany([record(2), record(3)])).toEqual([false, true]);
    first.refresh();
    expect(first.has(3)).toBe(true);
    first.close();
    second.close();
    expect(lines().map((line) => (JSON.parse(line) as CorpusRecord).id)).toEqual([1, 2, 3]);
  });

  it('refuses a batch with a bad id before writing any of it', () => {
    const writer = CorpusWriter.open(path);
    expect(() => writer.appendMany([record(1), { ...record(2), id: -2 }])).toThrow(StorageError);
    expect(writer.size).toBe(0);
    writer.close();
    expect(readFileSync(path, 'utf8')).toBe('');
  });

  it('cuts a torn last line on open and reports it', () => {
    const writer = CorpusWriter.open(path);
    writer.append(record(1));
    writer.append(record(2));
    writer.close();
    const whole = readFileSync(path, 'utf8');
    const torn = JSON.stringify(record(3)).slice(0, 40);
    appendFileSync(path, torn);
    const reopened = CorpusWriter.open(path);
    expect(reopened.openReport).toEqual({ lines: 2, truncatedBytes: Buffer.byteLength(torn), unreadableLines: 0 });
    expect(reopened.has(3)).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe(whole);
    // The document of the torn line can be written again, whole.
    expect(reopened.append(record(3))).toBe(true);
    reopened.close();
    expect(lines().map((line) => (JSON.parse(line) as CorpusRecord).id)).toEqual([1, 2, 3]);
  });

  it('cuts a torn line that is only a few bytes, and an id torn in the middle', () => {
    writeFileSync(path, `${JSON.stringify(record(10))}\n{"id":1`);
    const writer = CorpusWriter.open(path);
    expect(writer.size).toBe(1);
    expect(writer.has(1)).toBe(false);
    expect(writer.has(10)).toBe(true);
    writer.close();
    expect(lines()).toHaveLength(1);
  });

  it('reads ids of lines that cross the 1 MiB read chunks', () => {
    const writer = CorpusWriter.open(path);
    // Lines of varied lengths so that line starts fall at and around chunk boundaries.
    const ids: number[] = [];
    for (let id = 1; id <= 40; id++) {
      writer.append(record(id, 'x'.repeat(((id * 104_729) % 150_000) + (id % 3 === 0 ? 1_048_000 : 0))));
      ids.push(id);
    }
    writer.close();
    const reopened = CorpusWriter.open(path);
    expect(reopened.openReport.lines).toBe(40);
    expect(reopened.openReport.unreadableLines).toBe(0);
    expect(reopened.missingIds(ids)).toEqual([]);
    expect(reopened.missingIds([41, 3, 42])).toEqual([41, 42]);
    reopened.close();
  });

  it('leaves a line it cannot read in place and counts it', () => {
    writeFileSync(path, `not json\n${JSON.stringify(record(5))}\n`);
    const writer = CorpusWriter.open(path);
    expect(writer.openReport).toEqual({ lines: 2, truncatedBytes: 0, unreadableLines: 1 });
    expect(writer.has(5)).toBe(true);
    writer.close();
  });

  it('refuses bad ids and writes after close with a StorageError', () => {
    const writer = CorpusWriter.open(path);
    expect(() => writer.append({ ...record(1), id: -1 })).toThrow(StorageError);
    expect(() => writer.append({ ...record(1), id: 1.5 })).toThrow(StorageError);
    writer.close();
    writer.close();
    expect(() => writer.append(record(1))).toThrow(StorageError);
  });

  it('fails with a StorageError when the file cannot be opened', () => {
    expect(() => CorpusWriter.open(join(dir, 'missing-folder', 'corpus.jsonl'))).toThrow(StorageError);
  });
});
