import { describe, expect, it } from 'vitest';
import { intersectionSize, jaccard, synonymJaccard } from '../../src/filter/jaccard.js';

const set = (...ids: number[]) => Int32Array.from(ids);

describe('jaccard', () => {
  it.each([
    [[1, 2, 3], [1, 2, 3], 1],
    [[1, 2, 3], [4, 5], 0],
    [[1, 2, 3, 4], [3, 4, 5, 6], 2 / 6],
    [[1], [], 0],
    [[], [], 0],
  ])('%j vs %j = %d', (a, b, expected) => {
    expect(jaccard(set(...a), set(...b))).toBeCloseTo(expected, 12);
    expect(jaccard(set(...b), set(...a))).toBeCloseTo(expected, 12);
  });

  it('counts common ids', () => {
    expect(intersectionSize(set(1, 3, 5, 7), set(0, 3, 4, 7, 9))).toBe(2);
  });
});

describe('synonymJaccard', () => {
  // word id → synonym classes: 10 and 20 share class 1; 11 and 21 share class 2; 12 is in class 1 too.
  const classes: Record<number, number[]> = { 10: [1], 20: [1], 11: [2], 21: [2, 3], 12: [1] };
  const classesOf = (id: number) => classes[id] ?? [];

  it('counts a synonym pair as one common word', () => {
    const a = set(1, 2, 10, 11);
    const b = set(1, 2, 20, 21);
    expect(jaccard(a, b)).toBeCloseTo(2 / 6, 12);
    const r = synonymJaccard(a, b, classesOf);
    expect(r.pairs).toBe(2);
    expect(r.similarity).toBe(1);
  });

  it('pairs each word once', () => {
    // 10 and 12 are both synonyms of 20, but 20 can stand for only one of them.
    const r = synonymJaccard(set(10, 12), set(20), classesOf);
    expect(r.pairs).toBe(1);
    expect(r.similarity).toBeCloseTo(1 / 2, 12);
  });

  it('equals plain Jaccard without synonyms', () => {
    const a = set(1, 2, 3, 4);
    const b = set(3, 4, 5);
    expect(synonymJaccard(a, b, () => []).similarity).toBe(jaccard(a, b));
    expect(synonymJaccard(a, b, classesOf).pairs).toBe(0);
    expect(synonymJaccard(set(), set(), classesOf).similarity).toBe(0);
  });

  it('never pairs a word with itself or a common word', () => {
    const r = synonymJaccard(set(10, 20), set(10, 20), classesOf);
    expect(r).toEqual({ similarity: 1, pairs: 0 });
  });
});
