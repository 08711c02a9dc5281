import { describe, expect, it } from 'vitest';
import { bestThreshold, thresholdMetrics } from '../../src/eval/threshold-metrics.js';

// Hand-labelled: 4 duplicates (distances 0, 2, 5, unjudged) and 4 non-duplicates (1, 3, 4, 20).
const pairs = [
  { distance: 0, duplicate: true },
  { distance: 2, duplicate: true },
  { distance: 5, duplicate: true },
  { distance: null, duplicate: true },
  { distance: 1, duplicate: false },
  { distance: 3, duplicate: false },
  { distance: 4, duplicate: false },
  { distance: 20, duplicate: false },
];

describe('thresholdMetrics', () => {
  it('matches figures computed by hand', () => {
    const rows = thresholdMetrics(pairs);
    expect(rows).toHaveLength(17);
    // k: [tp, fp, fn, tn, precision, recall, F1], worked out on paper.
    const expected: Record<number, [number, number, number, number, number, number, number]> = {
      0: [1, 0, 3, 4, 1, 0.25, 0.4],
      1: [1, 1, 3, 3, 0.5, 0.25, 1 / 3],
      2: [2, 1, 2, 3, 2 / 3, 0.5, 4 / 7],
      3: [2, 2, 2, 2, 0.5, 0.5, 0.5],
      4: [2, 3, 2, 1, 0.4, 0.5, 4 / 9],
      5: [3, 3, 1, 1, 0.5, 0.75, 0.6],
      16: [3, 3, 1, 1, 0.5, 0.75, 0.6],
    };
    for (const [k, [tp, fp, fn, tn, p, r, f1]] of Object.entries(expected)) {
      const row = rows[Number(k)]!;
      expect(row.k).toBe(Number(k));
      expect([row.tp, row.fp, row.fn, row.tn]).toEqual([tp, fp, fn, tn]);
      expect(row.precision).toBeCloseTo(p, 12);
      expect(row.recall).toBeCloseTo(r, 12);
      expect(row.f1).toBeCloseTo(f1, 12);
    }
    expect(bestThreshold(rows)).toBe(5);
  });

  it('gives null precision when nothing is predicted duplicate, null recall with no duplicates', () => {
    const [row0] = thresholdMetrics([{ distance: 7, duplicate: true }, { distance: 9, duplicate: false }], 0);
    expect(row0).toMatchObject({ k: 0, tp: 0, fp: 0, fn: 1, tn: 1, precision: null, recall: 0, f1: 0 });
    const [onlyNeg] = thresholdMetrics([{ distance: 0, duplicate: false }], 0);
    expect(onlyNeg).toMatchObject({ precision: 0, recall: null, f1: 0 });
  });

  it('picks the smallest k on an F1 tie', () => {
    const rows = thresholdMetrics([{ distance: 2, duplicate: true }, { distance: 9, duplicate: false }], 8);
    expect(rows[2]!.f1).toBe(1);
    expect(rows[8]!.f1).toBe(1);
    expect(bestThreshold(rows)).toBe(2);
  });

  it('rejects a bad maxK', () => {
    expect(() => thresholdMetrics(pairs, -1)).toThrow(/maxK/);
    expect(() => thresholdMetrics(pairs, 1.5)).toThrow(/maxK/);
  });
});
