/**
 * similarBasis (the second stage's allocation-free decision) against verifySimilar: the same basis
 * on random sketch pairs of every overlap, length and threshold, sketches in place inside larger arrays.
 */
import { describe, expect, it } from 'vitest';
import { BY_CONTAINMENT, BY_JACCARD, NOT_SIMILAR, needed, similarBasis } from '../../src/fingerprint/similar-basis.js';
import { shingleSketch } from '../../src/fingerprint/shingle-sketch.js';
import { verifySimilar, type VerifyThresholds } from '../../src/fingerprint/verify-similar.js';

/** A deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sketchOf(features: number[], size: number): Uint32Array {
  return shingleSketch(Uint32Array.from(features, (f) => Math.imul(f, 0x9e3779b1) >>> 0), Uint32Array.from(features), features.length, size);
}

const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
const CODE = { jaccard: BY_JACCARD, containment: BY_CONTAINMENT } as const;

describe('needed', () => {
  it('is the smallest count whose share reaches the threshold', () => {
    for (const n of [1, 3, 7, 10, 64, 100]) {
      for (const t of [0, 0.1, 0.3, 0.55, 0.7, 0.95, 1, 1.5]) {
        const c = needed(t, n);
        expect(c > n || c / n >= t).toBe(true);
        expect(c === 0 || (c - 1) / n < t).toBe(true);
      }
    }
  });
});

describe('similarBasis', () => {
  it('decides as verifySimilar on random pairs, thresholds and placements', () => {
    const next = random(25);
    let agreed = 0;
    const seen = new Set<number>();
    for (let round = 0; round < 3000; round++) {
      const size = [8, 32, 64][Math.floor(next() * 3)]!;
      const lengthA = Math.floor(next() * 300);
      const from = Math.floor(next() * 200) - 100;
      const lengthB = Math.floor(next() * 300);
      const a = sketchOf(range(0, lengthA), size);
      const b = sketchOf(range(from, from + lengthB), size);
      const thresholds: VerifyThresholds = {
        maxDistance: 24, sketchSize: size, jaccard: [0, 0.3, 0.55, 0.8, 1][Math.floor(next() * 5)]!,
        containment: [0, 0.5, 0.95, 1, 1.5][Math.floor(next() * 5)]!, minContainmentSamples: [1, 4, 32][Math.floor(next() * 3)]!,
      };
      const distance = Math.floor(next() * 30);
      const jaccardOnly = next() < 0.3;
      // b sits inside a larger array, after some other values.
      const offset = Math.floor(next() * 5);
      const holder = new Uint32Array(offset + b.length + 3);
      holder.set(b, offset);
      const outcome = verifySimilar(distance, a, b, thresholds);
      const expected = outcome.basis === null || (jaccardOnly && outcome.basis !== 'jaccard') ? NOT_SIMILAR : CODE[outcome.basis];
      const got = similarBasis(distance, { values: a, start: 0, length: a.length }, { values: holder, start: offset, length: b.length }, thresholds, jaccardOnly);
      expect(got, JSON.stringify({ round, thresholds, distance, jaccardOnly, outcome })).toBe(expected);
      seen.add(got);
      agreed++;
    }
    expect(agreed).toBe(3000);
    expect([...seen].sort()).toEqual([NOT_SIMILAR, BY_JACCARD, BY_CONTAINMENT]);
  });
});
