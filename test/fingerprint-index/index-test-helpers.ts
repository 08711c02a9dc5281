/** Shared helpers of the index tests: fingerprints at exact distances, temp folders, brute force. */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { hammingDistance } from '../../src/fingerprint/fingerprint-codec.js';
import type { Fingerprint, FingerprintParams, IndexCandidate } from '../../src/types.js';
import { seededRandom } from '../helpers/seeded-random.js';

export { flipBits } from '../helpers/fingerprint-bits.js';

export function paramsFor(distance: number): FingerprintParams {
  return { distance, shingleSize: 3, hash: 'rabin', weighting: 'unit', normalizerVersion: 1 };
}

/** A small deterministic PRNG (mulberry32) giving 32-bit unsigned integers, so failures can be replayed. */
export function prng(seed: number): () => number {
  const next = seededRandom(seed);
  return () => (next() * 4294967296) >>> 0;
}

export function randomFingerprint(next: () => number): Fingerprint {
  return { hi: next(), lo: next() };
}

/** `count` distinct bit positions 0–63. */
export function randomPositions(next: () => number, count: number): number[] {
  const used = new Set<number>();
  while (used.size < count) used.add(next() % 64);
  return [...used];
}

export function candidate(url: string, fingerprint: Fingerprint | null, textHash = `text:${url}`): IndexCandidate {
  return { url, fingerprint, textHash };
}

/** The smallest distance from `fp` to any of `stored`, or Infinity. */
export function bruteNearest(fp: Fingerprint, stored: readonly Fingerprint[]): number {
  let best = Infinity;
  for (const s of stored) best = Math.min(best, hammingDistance(fp, s));
  return best;
}

export { tempDir } from '../helpers/temp-dir.js';
