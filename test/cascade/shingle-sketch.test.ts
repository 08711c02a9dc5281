import { describe, expect, it } from 'vitest';
import { bottomK, shingleHashes, sketchJaccard, sortUint32, sortedDistinct } from '../../src/cascade/shingle-sketch.js';
import { seededRandom } from '../helpers/seeded-random.js';

describe('bottom-k sketches', () => {
  it('estimate Jaccard similarity within a few points', () => {
    const random = seededRandom(4);
    const a: number[] = [];
    const b: number[] = [];
    // 2,000 shared values, 1,000 only in a, 1,000 only in b: Jaccard 0.5.
    for (let i = 0; i < 4000; i++) {
      const v = Math.floor(random() * 2 ** 32);
      if (i < 2000) a.push(v), b.push(v);
      else if (i < 3000) a.push(v);
      else b.push(v);
    }
    const estimate = sketchJaccard(bottomK(Uint32Array.from(a), 256), bottomK(Uint32Array.from(b), 256), 256);
    expect(estimate).toBeGreaterThan(0.42);
    expect(estimate).toBeLessThan(0.58);
  });

  it('gives 1 for equal sets and 0 for an empty one', () => {
    const s = bottomK(shingleHashes('a b c d e f g h'.split(' '), 3), 64);
    expect(sketchJaccard(s, s, 64)).toBe(1);
    expect(sketchJaccard(s, new Uint32Array(0), 64)).toBe(0);
  });

  it('shingles equal runs equally and a short list as one run', () => {
    const h = shingleHashes(['x', 'y', 'z', 'x', 'y', 'z'], 3);
    expect(h).toHaveLength(4);
    expect(h[0]).toBe(h[3]);
    expect(shingleHashes(['x', 'y'], 3)).toHaveLength(1);
  });
});

describe('sortUint32', () => {
  it('sorts like a numeric comparison sort, short arrays (quicksort) and long ones (radix), with repeats and high values', () => {
    const random = seededRandom(9);
    for (const n of [0, 1, 2, 15, 16, 17, 100, 255, 256, 257, 1000, 5000]) {
      for (const range of [4, 1000, 2 ** 32]) {
        const values = Uint32Array.from({ length: n }, () => Math.floor(random() * range));
        const expected = [...values].sort((x, y) => x - y);
        sortUint32(values);
        expect([...values]).toEqual(expected);
      }
    }
  });

  it('bottomK keeps the k smallest distinct values, on the sampled path and the full sort', () => {
    const random = seededRandom(11);
    for (const n of [10, 100, 2000, 20000]) {
      const values = Uint32Array.from({ length: n }, () => Math.floor(random() * 2 ** 32));
      const expected = [...new Set(values)].sort((x, y) => x - y).slice(0, 64);
      expect([...bottomK(values, 64)]).toEqual(expected);
    }
    // Skewed values (not uniform): the sampled path finds too few and falls back.
    const skewed = Uint32Array.from({ length: 1000 }, (_, i) => 2 ** 31 + i);
    expect([...bottomK(skewed, 10)]).toEqual([...skewed.subarray(0, 10)]);
  });

  it('sortedDistinct keeps each value once, ascending', () => {
    expect([...sortedDistinct([3, 2 ** 32 - 1, 3, 0, 2 ** 31, 0])]).toEqual([0, 3, 2 ** 31, 2 ** 32 - 1]);
  });
});
