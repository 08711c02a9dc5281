import { describe, expect, it } from 'vitest';
import { cascadeRecord } from '../../src/cascade/cascade-record.js';
import { MemoryCascadeStore } from '../../src/cascade/cascade-store.js';
import { compiledFlag, compiledSources } from '../../src/cascade/compiled-flag.js';
import { runCascade } from '../../src/cascade/run-cascade.js';
import { synonymisedFlag } from '../../src/cascade/synonymised-flag.js';
import { defaultConfig } from '../../src/config.js';
import { analyzeText, fingerprintParamsFrom } from '../../src/analyze/analyze-text.js';
import { loadSynonymDictionary } from '../../src/synonyms/synonym-dictionary.js';
import { compilePage, homoglyphCopy, spinText } from '../../scripts/cascade-variants.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { devTexts } from './dev-texts.js';

const config = defaultConfig();
const options = config.cascade;
const params = fingerprintParamsFrom(config.fingerprint);
const synonyms = loadSynonymDictionary();

function filledStore(tagger: 'shape' | 'pos' = 'shape', skip = -1): MemoryCascadeStore {
  const store = new MemoryCascadeStore();
  devTexts.forEach((t, id) => {
    if (id !== skip) store.add({ id, url: t.url, record: cascadeRecord(t.text, 'eng', { tagger }) });
  });
  return store;
}

describe('synonymised stage', () => {
  it.each(['shape', 'pos'] as const)('%s tagger: flags copies with 30 percent of content words spun, with the source and evidence', (tagger) => {
    const store = filledStore(tagger);
    const random = seededRandom(21);
    devTexts.forEach((t, id) => {
      const spun = spinText(t.text, 'eng', synonyms, 0.3, random).text;
      const flag = synonymisedFlag(cascadeRecord(spun, 'eng', { tagger }), store, synonyms, { ...options.synonymised, tagger });
      expect(flag, t.id).not.toBeNull();
      expect(flag!.sourceId).toBe(id);
      expect(flag!.explainedShare).toBeGreaterThanOrEqual(0.9);
      expect(flag!.substitutedShare).toBeGreaterThan(0.05);
      expect(flag!.examples.length).toBeGreaterThan(0);
      expect(flag!.wordSimilarity).toBeLessThan(0.9);
    });
  });

  it('leaves a natural text and an exact copy alone', () => {
    for (const skip of [0, 3]) {
      const store = filledStore('shape', skip);
      expect(synonymisedFlag(cascadeRecord(devTexts[skip]!.text, 'eng'), store, synonyms, options.synonymised)).toBeNull();
    }
    expect(synonymisedFlag(cascadeRecord(devTexts[0]!.text, 'eng'), filledStore(), synonyms, options.synonymised)).toBeNull();
  });
});

describe('compiled stage', () => {
  it('names the sources of a page compiled from 3 texts, by both tests', () => {
    const store = filledStore();
    const page = compilePage([devTexts[1]!.text, devTexts[4]!.text, devTexts[7]!.text], 600, seededRandom(8));
    const record = cascadeRecord(page, 'eng');
    for (const test of ['containment', 'hypergeometric'] as const) {
      const flag = compiledFlag(record, store, { ...options.compiled, test });
      expect(flag, test).not.toBeNull();
      expect(flag!.sources.map((s) => s.id).sort()).toEqual([1, 4, 7]);
      expect(flag!.coveredShare).toBeGreaterThan(0.8);
      expect(flag!.test).toBe(test);
    }
  });

  it('does not flag a copy of one page nor a natural page', () => {
    const store = filledStore();
    expect(compiledFlag(cascadeRecord(devTexts[2]!.text, 'eng'), store, options.compiled)).toBeNull();
    expect(compiledSources(cascadeRecord(devTexts[2]!.text, 'eng'), store, options.compiled).map((s) => s.id)).toEqual([2]);
    expect(compiledFlag(cascadeRecord(devTexts[2]!.text, 'eng'), filledStore('shape', 2), options.compiled)).toBeNull();
  });
});

describe('runCascade', () => {
  it('returns the flags of each stage that is on, and the record for the store', () => {
    const store = filledStore();
    const text = homoglyphCopy(spinText(devTexts[5]!.text, 'eng', synonyms, 0.3, seededRandom(2)).text, 0.3, seededRandom(3));
    const result = runCascade(analyzeText(text, params), { text, options, store, synonyms });
    expect(result.flags.map((f) => f.kind)).toEqual(['homoglyph', 'synonymised']);
    expect(result.record).not.toBeNull();
    const off = { ...options, homoglyph: { ...options.homoglyph, enabled: false }, synonymised: { ...options.synonymised, enabled: false }, compiled: { ...options.compiled, enabled: false } };
    const quiet = runCascade(analyzeText(text, params), { text, options: off, store, synonyms });
    expect(quiet).toEqual({ flags: [], record: null });
  });

  it('runs the stand-alone stages without a store', () => {
    const text = homoglyphCopy(devTexts[0]!.text, 0.3, seededRandom(1));
    const result = runCascade(analyzeText(text, params), { text, options });
    expect(result.flags.map((f) => f.kind)).toEqual(['homoglyph']);
  });
});

describe('MemoryCascadeStore', () => {
  it('finds, replaces and forgets pages', () => {
    const store = new MemoryCascadeStore();
    const record = cascadeRecord(devTexts[0]!.text, 'eng');
    store.add({ id: 1, url: 'a', record });
    store.add({ id: 1, url: 'b', record });
    expect(store.size).toBe(1);
    expect(store.grammarCandidates(record.tagSketch!, 10, 5).map((p) => p.url)).toEqual(['b']);
    expect(store.shingleCandidates(record.paragraphs[0]!.shingles, 5)[0]!.id).toBe(1);
    store.delete(1);
    expect(store.get(1)).toBeUndefined();
    expect(store.grammarCandidates(record.tagSketch!, 1, 5)).toEqual([]);
    expect(store.shingleCandidates(record.paragraphs[0]!.shingles, 5)).toEqual([]);
  });
});
