import { describe, expect, it } from 'vitest';
import { MAX_NGRAM, repeatedNgramShare } from '../../src/cascade/repeated-ngram-share.js';

const ids = (...values: number[]) => Int32Array.from(values);

describe('repeatedNgramShare', () => {
  it.each([
    { words: [0, 1, 0, 1, 2], n: 2, share: 0.5 },
    { words: [0, 1, 2, 3], n: 2, share: 0 },
    { words: [4], n: 2, share: 0 },
    { words: [], n: 2, share: 0 },
    { words: [0, 1, 2, 0, 1, 2, 0], n: 3, share: 4 / 5 },
    { words: [0, 1, 2, 5, 0, 1, 2], n: 3, share: 2 / 5 },
    { words: [0, 1], n: 3, share: 0 },
    { words: [7, 7, 7], n: 1, share: 1 },
  ])('gives $share for $words as $n-grams', ({ words, n, share }) => {
    expect(repeatedNgramShare(ids(...words), words.length, n)).toBe(share);
  });

  it('counts only ids[0..count), and tells n-grams apart by their ids whatever their slots', () => {
    expect(repeatedNgramShare(ids(0, 1, 0, 1, 0, 1), 3, 2)).toBe(0);
    // Many distinct n-grams in a small table: collisions probe on, never merge two n-grams.
    const words = Int32Array.from({ length: 4000 }, (_, i) => i);
    for (let n = 1; n <= MAX_NGRAM; n++) expect(repeatedNgramShare(words, words.length, n)).toBe(0);
    const twice = Int32Array.from({ length: 4000 }, (_, i) => i % 2000);
    expect(repeatedNgramShare(twice, twice.length, 3)).toBe((2 * 1998) / 3998);
  });
});
