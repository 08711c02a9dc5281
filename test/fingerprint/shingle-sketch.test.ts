import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_SKETCH_SIZE, sharesCandidateKey, shingleSketch, sketchFromBytes, sketchToBytes, sketchValue } from '../../src/fingerprint/shingle-sketch.js';
import { sketchSimilarity } from '../../src/fingerprint/sketch-similarity.js';
import { verifySimilar, type VerifyThresholds } from '../../src/fingerprint/verify-similar.js';
import { defaultConfig } from '../../src/config.js';
import { hashFeatures } from '../../src/fingerprint/fingerprint-words.js';
import { analyzePage } from '../../src/analyze/analyze-page.js';
import { analyzeText, fingerprintParamsFrom } from '../../src/analyze/analyze-text.js';
import { detectTokenLanguage } from '../../src/text/detect-language.js';
import { normalizeText } from '../../src/text/normalize-text.js';
import { removeStopWordsAndStemParagraphs } from '../../src/text/remove-stop-words-and-stem.js';
import { tokenizeParagraphs } from '../../src/text/tokenize.js';

/** Feature hashes of features numbered by `ids` (distinct ids, distinct hashes). */
function features(ids: readonly number[]): { hi: Uint32Array; lo: Uint32Array } {
  const hi = Uint32Array.from(ids, (id) => Math.imul(id, 0x9e3779b1) >>> 0);
  const lo = Uint32Array.from(ids, (id) => (id ^ 0xdeadbeef) >>> 0);
  return { hi, lo };
}
function sketchOf(ids: readonly number[], size: number): Uint32Array {
  const { hi, lo } = features(ids);
  return shingleSketch(hi, lo, ids.length, size);
}
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('shingleSketch', () => {
  it('keeps the `size` smallest distinct values, ascending, whatever the order and repeats', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 5000 }), { maxLength: 400 }), fc.integer({ min: 1, max: 80 }), (ids, size) => {
      const { hi, lo } = features(ids);
      const expected = [...new Set(ids.map((_, i) => sketchValue(hi[i]!, lo[i]!)))].sort((x, y) => x - y).slice(0, size);
      expect([...shingleSketch(hi, lo, ids.length, size)]).toEqual(expected);
    }));
  });

  it('finds the smallest distinct values when repeats or few distinct values make the first threshold too low', () => {
    fc.assert(fc.property(
      fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 1, maxLength: 60 }), fc.integer({ min: 1, max: 60 }), fc.integer({ min: 200, max: 4000 }),
      (pool, size, count) => {
        // `count` features drawn from a small pool: far fewer distinct values than features.
        const ids = Array.from({ length: count }, (_, i) => pool[(i * 7919) % pool.length]!);
        const { hi, lo } = features(ids);
        const expected = [...new Set(ids.map((_, i) => sketchValue(hi[i]!, lo[i]!)))].sort((x, y) => x - y).slice(0, size);
        expect([...shingleSketch(hi, lo, count, size)]).toEqual(expected);
      },
    ), { numRuns: 50 });
    const { hi, lo } = features(range(0, 5000));
    const all = [...range(0, 5000).map((i) => sketchValue(hi[i]!, lo[i]!))].sort((x, y) => x - y);
    expect([...shingleSketch(hi, lo, 5000, 64)]).toEqual(all.slice(0, 64));
    expect(shingleSketch(hi, lo, 0, 64).length).toBe(0);
  });

  it('reads only the first `count` features', () => {
    const { hi, lo } = features(range(0, 100));
    expect(shingleSketch(hi, lo, 10, 64)).toEqual(sketchOf(range(0, 10), 64));
  });

  it.each([0, -1, 1.5, MAX_SKETCH_SIZE + 1, Number.NaN])('refuses size %s', (size) => {
    expect(() => shingleSketch(new Uint32Array(1), new Uint32Array(1), 1, size)).toThrow(/Expected `size` to be an integer 1–1024/);
  });

  it('round-trips through bytes (4 per value)', () => {
    const sketch = sketchOf(range(0, 500), 64);
    const bytes = sketchToBytes(sketch);
    expect(bytes.length).toBe(256);
    expect(sketchFromBytes(bytes)).toEqual(sketch);
    expect(() => sketchFromBytes(new Uint8Array(3))).toThrow(/multiple of 4/);
  });
});

describe('sketchSimilarity', () => {
  it('is exact for sets smaller than the sketch', () => {
    const s = sketchSimilarity(sketchOf(range(0, 30), 64), sketchOf(range(10, 40), 64), 64);
    expect(s.jaccard).toBeCloseTo(20 / 40, 10);
    expect(s.containment).toBeCloseTo(20 / 30, 10);
  });

  it('estimates Jaccard within a few hundredths for large sets (size 256)', () => {
    // |A ∩ B| = 3000, |A ∪ B| = 5000: J = 0.6.
    const s = sketchSimilarity(sketchOf(range(0, 4000), 256), sketchOf(range(1000, 5000), 256), 256);
    expect(Math.abs(s.jaccard - 0.6)).toBeLessThan(0.08);
  });

  it('sees a contained excerpt and an appended page from either side', () => {
    const article = sketchOf(range(0, 2000), 64);
    const excerpt = sketchOf(range(500, 1000), 64);
    const withComments = sketchOf(range(0, 3000), 64);
    const e = sketchSimilarity(excerpt, article, 64);
    expect(e.containment).toBe(1);
    expect(e.contained).toBe('a');
    expect(e.jaccard).toBeLessThan(0.45);
    const c = sketchSimilarity(article, withComments, 64);
    expect(c.containment).toBe(1);
    expect(c.contained).toBe('a');
    expect(sketchSimilarity(withComments, article, 64).contained).toBe('b');
  });

  it('disjoint sets score 0, equal sets 1', () => {
    expect(sketchSimilarity(sketchOf(range(0, 500), 64), sketchOf(range(500, 1000), 64), 64)).toMatchObject({ jaccard: 0, containment: 0 });
    expect(sketchSimilarity(sketchOf(range(0, 500), 64), sketchOf(range(0, 500), 64), 64)).toMatchObject({ jaccard: 1, containment: 1, contained: 'both' });
    expect(sketchSimilarity(new Uint32Array(0), sketchOf(range(0, 5), 64), 64).jaccard).toBe(0);
  });
});

describe('verifySimilar', () => {
  const t: VerifyThresholds = { maxDistance: 20, sketchSize: 64, jaccard: 0.65, containment: 0.95, minContainmentSamples: 16 };
  const article = sketchOf(range(0, 2000), 64);

  it('accepts on Jaccard, then on containment with enough samples, within K only', () => {
    expect(verifySimilar(8, article, sketchOf(range(100, 2100), 64), t)).toMatchObject({ similar: true, basis: 'jaccard' });
    expect(verifySimilar(8, article, sketchOf(range(0, 4000), 64), t)).toMatchObject({ similar: true, basis: 'containment' });
    expect(verifySimilar(21, article, article, t)).toMatchObject({ similar: false, basis: null, jaccard: 1 });
  });

  it('rejects a short page "contained" on too few samples, and an unrelated page', () => {
    // Six features, all inside the article: containment 1 on 6 samples.
    const tiny = sketchOf(range(0, 6), 64);
    const outcome = verifySimilar(5, tiny, article, t);
    expect(outcome).toMatchObject({ similar: false, containment: 1 });
    expect(outcome.containmentSamples).toBeLessThanOrEqual(6);
    expect(verifySimilar(5, sketchOf(range(5000, 7000), 64), article, t).similar).toBe(false);
  });

  it('a containment threshold above 1 turns containment off', () => {
    expect(verifySimilar(8, article, sketchOf(range(0, 4000), 64), { ...t, containment: 1.01 }).similar).toBe(false);
  });
});

describe('the analysis sketch', () => {
  const text = 'The harbour bridge reopened to traffic on Tuesday morning, three months after engineers closed it.\n\n' +
    'Commuters who had faced detours of up to forty minutes welcomed the news, although the city warned that a weight limit stays.';
  const params = fingerprintParamsFrom(defaultConfig().fingerprint);

  it('is the sketch of the reference stages\' features, and absent unless asked for', () => {
    const paragraphs = tokenizeParagraphs(normalizeText(text));
    const words = removeStopWordsAndStemParagraphs(paragraphs, detectTokenLanguage(paragraphs.flat()));
    const { hi, lo } = hashFeatures(words, params.shingleSize, params.hash);
    expect(analyzeText(text, params, { sketchSize: 16 }).sketch).toEqual(shingleSketch(hi, lo, hi.length, 16));
    expect(analyzeText(text, params).sketch).toBeUndefined();
    expect(() => analyzeText(text, params, { sketchSize: 2000 })).toThrow(/Expected `sketchSize` to be an integer 0–1024, got 2000/);
  });

  it('page analysis takes the size from config.verify, none when the second stage is off', () => {
    const config = defaultConfig();
    expect(analyzePage({ url: 'u', text }, config).analysis?.sketch?.length).toBeGreaterThan(0);
    expect(analyzePage({ url: 'u', text }, { ...config, verify: { ...config.verify, enabled: false } }).analysis?.sketch).toBeUndefined();
  });
});

describe('sharesCandidateKey', () => {
  it('counts shared values among the first `keys` of each, needing at most as many as the shorter has', () => {
    const s = (...v: number[]) => Uint32Array.from(v);
    expect(sharesCandidateKey(s(1, 2, 3), s(2, 3, 9), 3, 2)).toBe(true);
    expect(sharesCandidateKey(s(1, 2, 3), s(3, 9, 10), 3, 2)).toBe(false);
    expect(sharesCandidateKey(s(1, 2, 3), s(3, 9, 10), 3, 1)).toBe(true);
    expect(sharesCandidateKey(s(1, 2, 5), s(3, 4, 5), 2, 1)).toBe(false); // 5 is no one's first two
    expect(sharesCandidateKey(s(7), s(1, 7, 9), 8, 2)).toBe(true);
    expect(sharesCandidateKey(s(), s(1), 8, 2)).toBe(false);
  });
});
