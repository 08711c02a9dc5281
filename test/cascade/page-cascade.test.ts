/**
 * src/cascade/page-cascade.ts and cascade-record-codec.ts: the record made from the analysis's own
 * tokens and stems equals the record made from the text alone, and survives its encoding.
 */
import { describe, expect, it } from 'vitest';
import { analyzePage } from '../../src/analyze/analyze-page.js';
import { StemCache } from '../../src/analyze/analyze-text.js';
import { TAG_SKETCH_SIZE, cascadeRecord, isSampledShingle, type CascadeRecord } from '../../src/cascade/cascade-record.js';
import { decodeCascadeRecord, encodeCascadeRecord, storedPart } from '../../src/cascade/cascade-record-codec.js';
import { analyzeWithCascade } from '../../src/cascade/page-cascade.js';
import { loadConfig } from '../../src/config.js';
import { homoglyphCopy } from '../../scripts/cascade-variants.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { devTexts } from './dev-texts.js';

const config = loadConfig({ env: {} });

function plain(record: ReturnType<typeof cascadeRecord>) {
  return {
    language: record.language, words: record.words, stems: [...record.stems], shingles: [...record.shingles], terms: [...record.terms],
    tagSketch: record.tagSketch === null ? null : [...record.tagSketch], wordSketch: [...record.wordSketch],
    paragraphs: record.paragraphs.map((p) => ({ words: p.words, shingles: [...p.shingles], terms: [...p.terms] })),
  };
}

/**
 * A record in the stored layout of version 2: header of 8 words (version | tag flag << 8, language,
 * words, shingle count, tag count, stem bytes, paragraph count, stored bytes), every shingle, the
 * grammar sketch, the stems' UTF-8 joined by '\n'.
 */
function version2Bytes(record: CascadeRecord, shingles: number[], tag: number[]): Uint8Array {
  const stems = new TextEncoder().encode(record.stems.join('\n'));
  const words = new Uint32Array(8 + shingles.length + tag.length + Math.ceil(stems.length / 4));
  words.set([2 | (1 << 8), 0x676e65, record.words, shingles.length, tag.length, stems.length, 0, 4 * words.length]);
  words.set(shingles, 8);
  words.set(tag, 8 + shingles.length);
  new Uint8Array(words.buffer, 4 * (8 + shingles.length + tag.length)).set(stems);
  return new Uint8Array(words.buffer);
}

describe('analyzeWithCascade', () => {
  it.each([0, 3, 6])('makes dev text %i\'s record from the analysis\'s tokens and stems, equal to cascadeRecord of the text', (i) => {
    const text = devTexts[i]!.text;
    const page = analyzeWithCascade(config, { stemCache: new StemCache() }, (o) => analyzePage({ url: 'u', text }, config, o));
    expect(page.cascade!.record).not.toBeNull();
    const expected = cascadeRecord(text, page.analysis!.language);
    expect(plain(decodeCascadeRecord(page.cascade!.record!))).toEqual(plain(expected));
    // The stored part: everything but the stems (their terms stay) and the paragraphs.
    const stored = storedPart(encodeCascadeRecord(expected));
    expect(plain(decodeCascadeRecord(stored))).toEqual({ ...plain(expected), stems: [], paragraphs: [] });
    // Version 4: a multiple of 4 bytes, smaller than version 3's 32-bit shingles and sketch and 16-bit terms.
    expect(stored.length % 4).toBe(0);
    expect(stored.length).toBeLessThan(4 * (6 + expected.shingles.length + (expected.tagSketch?.length ?? 0)) + 4 * Math.ceil(expected.terms.length / 2));
    expect(expected.tagSketch!.length).toBeLessThanOrEqual(TAG_SKETCH_SIZE);
    expect([...expected.shingles].every(isSampledShingle)).toBe(true);
    expect(Math.max(...expected.terms)).toBeLessThan(1 << 16);
  });

  it('reads a version-2 stored record (every shingle, a 256-value grammar sketch, stems) as version 4 makes it', () => {
    const record = cascadeRecord(devTexts[0]!.text, 'eng');
    const v2 = version2Bytes(record, [...record.shingles, 8 * 12345 + 1, 8 * 12345 + 3].sort((a, b) => a - b), [...record.tagSketch!, 0xfffffff0, 0xfffffff1]);
    expect(plain(decodeCascadeRecord(v2))).toEqual({ ...plain(record), stems: [], paragraphs: [] });
    expect(storedPart(v2)).toEqual(v2);
  });

  it('flags look-alike letters with the analysis, and leaves out the cascade when every stage is off or the page is skipped', () => {
    const text = homoglyphCopy(devTexts[1]!.text, 0.4, seededRandom(2));
    const page = analyzeWithCascade(config, {}, (o) => analyzePage({ url: 'u', text }, config, o));
    expect(page.cascade!.flags.map((f) => f.kind)).toEqual(['homoglyph']);
    const off = { enabled: false };
    const stages = config.cascade;
    const quiet = loadConfig({ env: {}, overrides: { cascade: { homoglyph: { ...stages.homoglyph, ...off }, generated: { ...stages.generated, ...off }, synonymised: { ...stages.synonymised, ...off }, compiled: { ...stages.compiled, ...off } } } });
    expect(analyzeWithCascade(quiet, {}, (o) => analyzePage({ url: 'u', text }, quiet, o)).cascade).toBeUndefined();
    expect(analyzeWithCascade(config, {}, (o) => analyzePage({ url: 'u', text: 'hi' }, config, o)).cascade).toBeUndefined();
  });
});
