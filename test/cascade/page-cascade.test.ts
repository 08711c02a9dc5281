/**
 * src/cascade/page-cascade.ts and cascade-record-codec.ts: the record made from the analysis's own
 * tokens and stems equals the record made from the text alone, and survives its encoding.
 */
import { describe, expect, it } from 'vitest';
import { analyzePage } from '../../src/analyze/analyze-page.js';
import { StemCache } from '../../src/analyze/analyze-text.js';
import { cascadeRecord } from '../../src/cascade/cascade-record.js';
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

describe('analyzeWithCascade', () => {
  it.each([0, 3, 6])('makes dev text %i\'s record from the analysis\'s tokens and stems, equal to cascadeRecord of the text', (i) => {
    const text = devTexts[i]!.text;
    const page = analyzeWithCascade(config, { stemCache: new StemCache() }, (o) => analyzePage({ url: 'u', text }, config, o));
    expect(page.cascade!.record).not.toBeNull();
    const expected = cascadeRecord(text, page.analysis!.language);
    expect(plain(decodeCascadeRecord(page.cascade!.record!))).toEqual(plain(expected));
    // The stored part: everything but the paragraphs.
    expect(plain(decodeCascadeRecord(storedPart(encodeCascadeRecord(expected))))).toEqual({ ...plain(expected), paragraphs: [] });
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
