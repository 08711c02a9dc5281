/** Shared helpers of the index tests: fingerprints at exact distances, temp folders, brute force. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hammingDistance } from '../../src/fingerprint/fingerprint-codec.js';
import type { Fingerprint, FingerprintParams, IndexCandidate } from '../../src/types.js';
import { seededRandom } from '../../scripts/seeded-random.js';

export function paramsFor(distance: number): FingerprintParams {
  return { distance, shingleSize: 3, hash: 'rabin', weighting: 'unit', normalizerVersion: 1 };
}

/** Flips the given bit positions (0 = most significant bit, 63 = least). */
export function flipBits(fp: Fingerprint, positions: readonly number[]): Fingerprint {
  let { hi, lo } = fp;
  for (const p of positions) {
    if (p < 32) hi = (hi ^ (1 << (31 - p))) >>> 0;
    else lo = (lo ^ (1 << (63 - p))) >>> 0;
  }
  return { hi, lo };
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

/** A fresh temporary folder; call the returned function to remove it. */
export function tempDir(prefix = 'neardup-index-test-'): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
