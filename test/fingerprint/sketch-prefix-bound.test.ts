/**
 * prefixMayBeSimilar (the second stage's in-memory bound, from a candidate's first sketch values):
 * never false where verifySimilar confirms the pair on the whole sketches, on random pairs of every
 * overlap, length, threshold and prefix length; and false for most unrelated pairs.
 */
import { describe, expect, it } from 'vitest';
import { maxSlack, prefixMayBeSimilar } from '../../src/fingerprint/sketch-prefix-bound.js';
import { needed } from '../../src/fingerprint/similar-basis.js';
import { shingleSketch } from '../../src/fingerprint/shingle-sketch.js';
import { verifySimilar, type VerifyThresholds } from '../../src/fingerprint/verify-similar.js';
import { seededRandom } from '../helpers/seeded-random.js';

function sketchOf(features: number[], size: number): Uint32Array {
  return shingleSketch(Uint32Array.from(features, (f) => Math.imul(f, 0x9e3779b1) >>> 0), Uint32Array.from(features), features.length, size);
}
const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
const slackFor = (t: number, size: number) => Int32Array.from({ length: size + 1 }, (_, n) => maxSlack(t, n));

describe('maxSlack', () => {
  it('is the most misses any sample count up to n allows', () => {
    expect(maxSlack(0.95, 64)).toBe(3);
    expect(maxSlack(0.95, 19)).toBe(0);
    expect(maxSlack(1.5, 64)).toBe(-1);
    for (const t of [0, 0.5, 0.95, 1]) for (const n of [0, 5, 64]) expect(maxSlack(t, n)).toBe(Math.max(...range(0, n + 1).map((m) => m - needed(t, m)).filter((s) => s >= 0), -1));
  });
});

describe('prefixMayBeSimilar', () => {
  it('never drops a pair verifySimilar confirms, and drops most pairs it refuses', () => {
    const next = seededRandom(31);
    let confirmed = 0;
    let refused = 0;
    let dropped = 0;
    for (let round = 0; round < 4000; round++) {
      const size = [8, 32, 64][Math.floor(next() * 3)]!;
      const lengthA = Math.floor(next() * 400);
      // Overlapping feature ranges: from copies to disjoint sets, and sets contained in others.
      const from = Math.floor(next() * 2 * lengthA) - Math.floor(lengthA / 2);
      const lengthB = Math.floor(next() * 400);
      const a = sketchOf(range(0, lengthA), size);
      const b = sketchOf(range(from, from + lengthB), size);
      const thresholds: VerifyThresholds = {
        maxDistance: 64, sketchSize: size, jaccard: [0.3, 0.55, 0.8, 1][Math.floor(next() * 4)]!,
        containment: [0.5, 0.95, 1, 1.5][Math.floor(next() * 4)]!, minContainmentSamples: [1, 32][Math.floor(next() * 2)]!,
      };
      const known = Math.min(b.length, [1, 8, 24][Math.floor(next() * 3)]!);
      const holder = new Uint32Array(5 + b.length);
      holder.set(b, 5);
      const may = b.length === 0 || prefixMayBeSimilar(a, { values: holder, start: 5, known, length: b.length }, thresholds, slackFor(thresholds.containment, size));
      if (verifySimilar(0, a, b, thresholds).similar) {
        confirmed++;
        expect(may, `round ${round}`).toBe(true);
      } else {
        refused++;
        if (!may) dropped++;
      }
    }
    expect(confirmed).toBeGreaterThan(300);
    // Refused pairs include near misses and short prefixes; the bound still drops a good share.
    expect(dropped / refused).toBeGreaterThan(0.2);
  });

  it('drops unrelated full sketches from 24 known values', () => {
    const thresholds: VerifyThresholds = { maxDistance: 24, sketchSize: 64, jaccard: 0.55, containment: 0.95, minContainmentSamples: 32 };
    const slack = slackFor(0.95, 64);
    let kept = 0;
    for (let k = 0; k < 200; k++) {
      const a = sketchOf(range(k * 1000, k * 1000 + 500), 64);
      const b = sketchOf(range(k * 1000 + 450, k * 1000 + 950), 64); // 50 of 950 features shared
      if (prefixMayBeSimilar(a, { values: b, start: 0, known: 24, length: b.length }, thresholds, slack)) kept++;
    }
    expect(kept).toBeLessThan(10);
  });
});
