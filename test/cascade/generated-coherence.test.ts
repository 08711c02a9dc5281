import { describe, expect, it } from 'vitest';
import { coherence, contentStemIds, sentenceStartVariety, sentenceStemSets, STEM_LENGTH } from '../../src/cascade/generated-coherence.js';
import { GENERATED_FEATURE_NAMES, generatedFeatures } from '../../src/cascade/generated-features.js';
import { shuffledSentences } from '../../src/cascade/text-generators.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { devTexts } from './dev-texts.js';

describe('generated coherence features', () => {
  it('gives words with the same first STEM_LENGTH letters one stem, and function words none', () => {
    expect(STEM_LENGTH).toBe(5);
    const words = ['extract', 'the', 'extracts', 'extraction', 'page', 'pages', 'of'];
    const content = new Set([0, 2, 3, 4, 5]);
    expect([...contentStemIds(words, (id) => content.has(id))]).toEqual([0, -1, 0, 0, 1, 1, -1]);
  });

  it('collects each sentence\'s content stems, sorted and distinct', () => {
    // Words: 0 a, 1 b, 2 the (function); sentences [0 2 1 0] [1 1] [2].
    const ids = Int32Array.from([0, 2, 1, 0, 1, 1, 2]);
    const sets = sentenceStemSets(ids, 7, Int32Array.from([4, 6, 7]), 3, Int32Array.from([7, 3, -1]));
    expect(sets.map((s) => [...s])).toEqual([[3, 7], [3], []]);
  });

  it('measures neighbouring overlap, linked pairs and given stems as defined', () => {
    const sets = [[0, 1], [1, 2], [5], [0, 5]].map((s) => Uint32Array.from(s));
    const c = coherence(sets, 6);
    // Dice of neighbours: 2·1/4, 0, 2·1/3.
    expect(c.adjacent).toBeCloseTo((0.5 + 0 + 2 / 3) / 3);
    expect(c.linked).toBeCloseTo(2 / 3);
    // Given after the first sentence: {1} of {1, 2}, none of {5}, both of {0, 5}.
    expect(c.given).toBeCloseTo(3 / 5);
    // One distant pair (0, 3): Dice 2·1/4.
    expect(c.ratio).toBeCloseTo((c.adjacent + 0.01) / (0.5 + 0.01));
    expect(coherence([], 0)).toEqual({ adjacent: 0, ratio: 1, linked: 0, given: 0 });
  });

  it('counts distinct sentence openings', () => {
    // Sentences open with 0, 0, 1.
    expect(sentenceStartVariety(Int32Array.from([0, 2, 0, 1, 3]), Int32Array.from([2, 3, 5]), 3, 4)).toBeCloseTo(2 / 3);
  });

  it('gives a text of sentences drawn from many texts fewer given stems than a person\'s text', () => {
    const at = GENERATED_FEATURE_NAMES.indexOf('givenContentShare');
    const random = seededRandom(8);
    let lower = 0;
    for (const [i, t] of devTexts.entries()) {
      const others = devTexts.filter((_, j) => j !== i).map((o) => o.text);
      const drawn = shuffledSentences(others, t.text.split(/\s+/).length, random);
      if (generatedFeatures(drawn, 'eng').values[at]! < generatedFeatures(t.text, 'eng').values[at]!) lower++;
    }
    expect(lower).toBeGreaterThanOrEqual(9);
  });
});
