/**
 * src/cascade/cascade-record-codec.ts: a record survives its bytes (version 4: the stored arrays
 * Rice-coded), whatever its arrays hold; the stored part is a multiple of 4 bytes; the bytes of
 * version 3 (and 2: page-cascade.test.ts) still decode to the same values.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SKETCH_SIZE, TAG_SKETCH_SIZE, cascadeRecord, type CascadeRecord, type ParagraphProfile } from '../../src/cascade/cascade-record.js';
import { decodeCascadeHashes, decodeCascadeRecord, encodeCascadeRecord, storedPart } from '../../src/cascade/cascade-record-codec.js';
import { CascadeModelError } from '../../src/errors.js';
import { devTexts } from './dev-texts.js';

function plain(record: CascadeRecord) {
  return {
    language: record.language, words: record.words, stems: [...record.stems], shingles: [...record.shingles], terms: [...record.terms],
    tagSketch: record.tagSketch === null ? null : [...record.tagSketch], wordSketch: [...record.wordSketch],
    paragraphs: record.paragraphs.map((p) => ({ words: p.words, shingles: [...p.shingles], terms: [...p.terms] })),
  };
}

const sortedDistinct = (values: readonly number[]) => Uint32Array.from([...new Set(values)].sort((a, b) => a - b));

/** A record of these arrays (the paragraphs: one holding them all, when `withParagraph`). */
function recordOf(shingles: Uint32Array, tag: Uint32Array | null, terms: Uint32Array, words = 1000, stems: string[] = [], withParagraph = false): CascadeRecord {
  const paragraphs: ParagraphProfile[] = withParagraph ? [{ words, shingles, terms }] : [];
  return { language: 'eng', words, stems, wordSketch: shingles.subarray(0, SKETCH_SIZE), shingles, terms, tagSketch: tag, paragraphs };
}

/** Encoded whole and stored only: both decode to the record (the stored part without stems and paragraphs). */
function expectRoundTrip(record: CascadeRecord): void {
  const whole = encodeCascadeRecord(record);
  const stored = storedPart(whole);
  expect(plain(decodeCascadeRecord(whole))).toEqual(plain(record));
  expect(plain(decodeCascadeRecord(stored))).toEqual({ ...plain(record), stems: [], paragraphs: [] });
  expect([...encodeCascadeRecord(record, false)]).toEqual([...stored]);
  expect(stored.length % 4).toBe(0);
  expect(storedPart(stored)).toEqual(stored);
  // As a database driver may hand them over: not 4-byte aligned in their buffer.
  const unaligned = new Uint8Array(stored.length + 1).subarray(1);
  unaligned.set(stored);
  expect(plain(decodeCascadeRecord(unaligned))).toEqual(plain(decodeCascadeRecord(stored)));
  const hashes = decodeCascadeHashes(stored);
  expect([...hashes.shingles]).toEqual([...record.shingles]);
  expect(hashes.tagSketch === null ? null : [...hashes.tagSketch]).toEqual(record.tagSketch === null ? null : [...record.tagSketch]);
}

/**
 * A record in the layout of version 3: header of 6 words (version | tag flag << 8, language, words,
 * shingle count, tag count, term count), shingles, sketch, 16-bit terms (padded); with
 * `withParagraphs` the transient section (stem bytes, paragraph count, stems, paragraphs) after it.
 */
function version3Bytes(record: CascadeRecord, withParagraphs: boolean): Uint8Array {
  const tag = record.tagSketch ?? new Uint32Array(0);
  const stored = 6 + record.shingles.length + tag.length + Math.ceil(record.terms.length / 2);
  const stems = new TextEncoder().encode(record.stems.join('\n'));
  const ps = record.paragraphs;
  const transient = !withParagraphs ? 0 : 2 + Math.ceil(stems.length / 4) + ps.reduce((sum, p) => sum + 3 + p.shingles.length + p.terms.length, 0);
  const words = new Uint32Array(stored + transient);
  words.set([3 | (record.tagSketch === null ? 0 : 1 << 8), 0x676e65, record.words, record.shingles.length, tag.length, record.terms.length]);
  words.set(record.shingles, 6);
  words.set(tag, 6 + record.shingles.length);
  new Uint16Array(words.buffer, 4 * (6 + record.shingles.length + tag.length), record.terms.length).set(record.terms);
  if (withParagraphs) {
    let at = stored;
    words[at++] = stems.length;
    words[at++] = ps.length;
    new Uint8Array(words.buffer, 4 * at).set(stems);
    at += Math.ceil(stems.length / 4);
    for (const p of ps) words.set([p.words, p.shingles.length, p.terms.length], (at += 3) - 3);
    for (const p of ps) words.set(p.shingles, (at += p.shingles.length) - p.shingles.length);
    for (const p of ps) words.set(p.terms, (at += p.terms.length) - p.terms.length);
  }
  return new Uint8Array(words.buffer);
}

const shingleArb = fc.uniqueArray(fc.integer({ min: 0, max: 2 ** 29 - 1 }), { maxLength: 400 }).map((xs) => sortedDistinct(xs.map((x) => x * 8)));
const tagArb = fc.option(fc.uniqueArray(fc.integer({ min: 0, max: 0xffffffff }), { maxLength: TAG_SKETCH_SIZE }).map(sortedDistinct), { nil: null });
const termArb = fc.uniqueArray(fc.integer({ min: 0, max: 0xffff }), { maxLength: 1500 }).map(sortedDistinct);

describe('cascade record codec, version 4', () => {
  it('round-trips random sorted distinct shingles, grammar sketches and terms, words and stems', () => {
    fc.assert(
      fc.property(shingleArb, tagArb, termArb, fc.integer({ min: 0, max: 2 ** 31 }), fc.array(fc.string({ minLength: 1 }).filter((s) => !s.includes('\n')), { maxLength: 5 }), (shingles, tag, terms, words, stems) => {
        expectRoundTrip(recordOf(shingles, tag, terms, words, stems, true));
        expectRoundTrip(recordOf(shingles, tag, terms, words));
      }),
      { numRuns: 200, seed: 25 },
    );
  });

  it.each([
    ['all empty', [], [], []],
    ['one value each, 0', [0], [0], [0]],
    ['one value each, the largest', [0xfffffff8], [0xffffffff], [0xffff]],
    ['the smallest and largest each', [0, 0xfffffff8], [0, 0xffffffff], [0, 0xffff]],
    ['large gaps after runs', [0, 8, 16, 24, 0xfffffff0, 0xfffffff8], [1, 2, 3, 0x80000000, 0xfffffffe, 0xffffffff], [1, 2, 3, 40000, 65534, 65535]],
    ['every 16-bit term', [8 * 12345], [7], Array.from({ length: 1 << 16 }, (_, i) => i)],
    ['shingles with their low bits set (a record not made by cascadeRecord)', [1, 2, 3, 0xffffffff], [5], [9]],
  ])('round-trips %s', (_name, shingles, tag, terms) => {
    expectRoundTrip(recordOf(Uint32Array.from(shingles), Uint32Array.from(tag), Uint32Array.from(terms), 0, ['a', 'bé'], true));
    expectRoundTrip(recordOf(Uint32Array.from(shingles), null, Uint32Array.from(terms), 0xfffffffd));
  });

  it('makes the dev texts\' stored records ~30% smaller than version 3 did, with the same values', () => {
    let v3 = 0;
    let v4 = 0;
    for (const { text } of devTexts) {
      const record = cascadeRecord(text, 'eng');
      expectRoundTrip(record);
      const old = version3Bytes(record, false);
      v3 += old.length;
      v4 += storedPart(encodeCascadeRecord(record)).length;
    }
    expect(v4 / v3).toBeLessThan(0.75);
  });

  it('refuses arrays that are not sorted and distinct, and bytes that are not a record', () => {
    const bad = recordOf(Uint32Array.from([16, 8]), null, new Uint32Array(0));
    expect(() => encodeCascadeRecord(bad)).toThrow(CascadeModelError);
    const bytes = storedPart(encodeCascadeRecord(cascadeRecord(devTexts[0]!.text, 'eng')));
    expect(() => decodeCascadeRecord(bytes.subarray(0, bytes.length - 8))).toThrow(CascadeModelError);
    const cut = bytes.slice(0, bytes.length - 8);
    new Uint32Array(cut.buffer)[2] = cut.length;
    expect(() => decodeCascadeRecord(cut)).toThrow(CascadeModelError);
    expect(() => decodeCascadeHashes(cut.subarray(0, 12))).toThrow(CascadeModelError);
    expect(() => decodeCascadeRecord(new Uint8Array(12))).toThrow(/version/);
  });
});

describe('cascade record codec, version 3 bytes', () => {
  it.each([0, 4, 9])('reads dev text %i\'s version-3 record, stored and whole, as the same values', (i) => {
    const record = cascadeRecord(devTexts[i]!.text, 'eng');
    const stored = version3Bytes(record, false);
    expect(plain(decodeCascadeRecord(stored))).toEqual({ ...plain(record), stems: [], paragraphs: [] });
    expect(storedPart(stored)).toEqual(stored);
    const hashes = decodeCascadeHashes(stored);
    expect([...hashes.shingles]).toEqual([...record.shingles]);
    expect([...hashes.tagSketch!]).toEqual([...record.tagSketch!]);
    const whole = version3Bytes(record, true);
    expect(plain(decodeCascadeRecord(whole))).toEqual(plain(record));
    expect(storedPart(whole)).toEqual(stored);
    // Re-encoded: version 4, the same values.
    expect(plain(decodeCascadeRecord(encodeCascadeRecord(decodeCascadeRecord(stored))))).toEqual(plain(decodeCascadeRecord(stored)));
  });

  it('reads a version-3 record without a grammar sketch, and one not 4-byte aligned in its buffer', () => {
    const record = { ...cascadeRecord(devTexts[2]!.text, 'eng'), tagSketch: null };
    const stored = version3Bytes(record, false);
    expect(decodeCascadeRecord(stored).tagSketch).toBeNull();
    const shifted = new Uint8Array(stored.length + 1);
    shifted.set(stored, 1);
    expect(plain(decodeCascadeRecord(shifted.subarray(1)))).toEqual({ ...plain(record), stems: [], paragraphs: [] });
  });
});
