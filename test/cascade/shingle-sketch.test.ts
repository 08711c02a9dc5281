import { describe, expect, it } from 'vitest';
import { bottomK, bottomKInto, runsScratchLength, shingleHashes, shingleHashesOf, sketchJaccard, sortDistinctRange, sortRunsAndUnion, sortScratchLength, sortUint32, sortedDistinct } from '../../src/cascade/shingle-sketch.js';
import { fmix32 } from '../../src/fingerprint/murmur-hash.js';
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

  it('hashes runs of 8 item hashes as the general loop does (the unrolled path)', () => {
    const random = seededRandom(19);
    const items = Uint32Array.from({ length: 40 }, () => Math.floor(random() * 2 ** 32));
    // The definition, item by item from the seed (the loop shingleHashesOf runs for other sizes).
    const run = (from: number): number => {
      let h = 0x9e3779b9;
      for (let k = from; k < from + 8; k++) h = Math.imul(h ^ items[k]!, 0x01000193) + 0x7f4a7c15;
      return fmix32(h);
    };
    const expected = Array.from({ length: 33 }, (_, i) => run(i));
    expect([...shingleHashesOf(items, 8)]).toEqual(expected);
    // Fewer items than a run: one run of all.
    expect(shingleHashesOf(items.subarray(0, 5), 8)).toHaveLength(1);
  });

  it('shingles equal runs equally and a short list as one run', () => {
    const h = shingleHashes(['x', 'y', 'z', 'x', 'y', 'z'], 3);
    expect(h).toHaveLength(4);
    expect(h[0]).toBe(h[3]);
    expect(shingleHashes(['x', 'y'], 3)).toHaveLength(1);
  });
});

describe('sortUint32', () => {
  it('sorts like a numeric comparison sort, short arrays (insertion) and long ones (buckets; skewed values in long buckets), with repeats and high values', () => {
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

  it('bottomK keeps the k smallest distinct values, short and long inputs', () => {
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

  it('sortDistinctRange sorts and dedups a range in place with caller scratch, leaving the rest alone', () => {
    const random = seededRandom(13);
    for (const n of [5, 40, 600]) {
      const values = Uint32Array.from({ length: n + 20 }, () => Math.floor(random() * 50 * n));
      const before = values.slice();
      const expected = [...new Set(values.subarray(10, 10 + n))].sort((x, y) => x - y);
      const kept = sortDistinctRange(values, 10, 10 + n, new Uint32Array(sortScratchLength(n)));
      expect(kept).toBe(expected.length);
      expect([...values.subarray(10, 10 + kept)]).toEqual(expected);
      expect([...values.subarray(0, 10)]).toEqual([...before.subarray(0, 10)]);
      expect([...values.subarray(10 + n)]).toEqual([...before.subarray(10 + n)]);
    }
  });

  it('bottomKInto leaves its input alone and stops at k, with repeats across buckets', () => {
    const random = seededRandom(17);
    const values = Uint32Array.from({ length: 3000 }, () => Math.floor(random() * 2 ** 12) * 2 ** 20);
    const copy = values.slice();
    const into = new Uint32Array(sortScratchLength(values.length));
    const kept = bottomKInto(values, 100, into);
    expect([...into.subarray(0, kept)]).toEqual([...new Set(values)].sort((x, y) => x - y).slice(0, 100));
    expect(values).toEqual(copy);
  });

  it('sortRunsAndUnion sorts and dedups each run and gives their union, hash-like and bunched values, empty runs', () => {
    const random = seededRandom(23);
    for (const [runLengths, range] of [
      [[3, 0, 50, 1, 70, 0, 45], 2 ** 32],
      [[200, 300, 5], 2 ** 32],
      [[60, 60], 40], // many repeats, within and across runs
      [[100, 100], 2 ** 10], // bunched in the lowest bucket: the fallback
      [[2, 3], 2 ** 32],
      [[], 2 ** 32],
    ] as const) {
      const runs = runLengths.map((length) => Array.from({ length }, () => Math.floor(random() * range)));
      const values = Uint32Array.from(runs.flat());
      const ends = new Uint32Array(runs.length);
      runs.reduce((at, run, r) => (ends[r] = at + run.length), 0);
      const union = new Uint32Array(values.length);
      const kept = sortRunsAndUnion(values, ends, runs.length, union, new Uint32Array(runsScratchLength(values.length, runs.length)));
      const distinct = (xs: number[]) => [...new Set(xs)].sort((x, y) => x - y);
      runs.forEach((run, r) => expect([...values.subarray(r === 0 ? 0 : ends[r - 1], ends[r])]).toEqual(distinct(run)));
      expect([...union.subarray(0, kept)]).toEqual(distinct(runs.flat()));
    }
  });

  it('sortedDistinct keeps each value once, ascending', () => {
    expect([...sortedDistinct([3, 2 ** 32 - 1, 3, 0, 2 ** 31, 0])]).toEqual([0, 3, 2 ** 31, 2 ** 32 - 1]);
  });
});
