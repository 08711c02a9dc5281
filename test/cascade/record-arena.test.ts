/** src/cascade/record-arena.ts: stored records kept as bytes by id, read back as the codec decodes them. */
import { describe, expect, it } from 'vitest';
import { cascadeRecord } from '../../src/cascade/cascade-record.js';
import { decodeCascadeRecord, encodeCascadeRecord, storedPart } from '../../src/cascade/cascade-record-codec.js';
import { RecordArena } from '../../src/cascade/record-arena.js';
import { devTexts } from './dev-texts.js';

const stored = (i: number) => storedPart(encodeCascadeRecord(cascadeRecord(devTexts[i]!.text, 'eng'), false));
const plain = (bytes: Uint8Array) => {
  const r = decodeCascadeRecord(bytes);
  return { words: r.words, shingles: [...r.shingles], terms: [...r.terms], tag: r.tagSketch && [...r.tagSketch] };
};

describe('RecordArena', () => {
  it('gives back each page\'s record and URL by id, whatever the order they were put in, and forgets deleted ones', () => {
    const arena = new RecordArena();
    const records = [0, 1, 2, 3].map(stored);
    // Ids out of order and sparse; a URL of odd length and non-ASCII letters (records must stay aligned).
    const ids = [4000, 7, 12, 3];
    ids.forEach((id, k) => arena.put(id, `https://example.org/é/${k}${'x'.repeat(k)}`, records[k]!));
    ids.forEach((id, k) => {
      const page = arena.get(id)!;
      expect(page.url).toBe(`https://example.org/é/${k}${'x'.repeat(k)}`);
      expect(plain(storedPart(encodeCascadeRecord(page.record, false)))).toEqual(plain(records[k]!));
    });
    expect(arena.get(8)).toBeUndefined();
    expect(arena.get(1 << 20)).toBeUndefined();
    arena.delete(7);
    expect(arena.get(7)).toBeUndefined();
    arena.put(7, 'https://example.org/again', records[3]!);
    expect(arena.get(7)!.url).toBe('https://example.org/again');
    expect(arena.bytes).toBeGreaterThan(0);
  });
});

describe('RecordArena.hashesOf', () => {
  it('gives the indexed hashes of a record without decoding it whole', () => {
    const arena = new RecordArena();
    const bytes = stored(5);
    arena.put(9, 'https://example.org/9', bytes);
    const whole = decodeCascadeRecord(bytes);
    const hashes = arena.hashesOf(9)!;
    expect([...hashes.shingles]).toEqual([...whole.shingles]);
    expect([...hashes.tagSketch!]).toEqual([...whole.tagSketch!]);
    expect(arena.hashesOf(10)).toBeUndefined();
  });
});
