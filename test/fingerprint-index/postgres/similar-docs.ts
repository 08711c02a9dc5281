/**
 * Documents for the PostgreSQL second-stage tests: sketches of numbered feature ranges (as in
 * second-stage.test.ts), fingerprints a chosen number of bits apart, and the pairwise rule the second
 * stage applies, to check what was stored.
 */
import { defaultConfig } from '../../../src/config.js';
import { sharesCandidateKey, shingleSketch } from '../../../src/fingerprint/shingle-sketch.js';
import { verifySimilar } from '../../../src/fingerprint/verify-similar.js';
import { hammingDistance } from '../../../src/fingerprint/fingerprint-codec.js';
import type { Fingerprint } from '../../../src/types.js';
import { flipBits } from '../index-test-helpers.js';

export const VERIFY = defaultConfig().verify;

/** The sketch of features numbered from..to-1. */
export function sketchOf(from: number, to: number): Uint32Array {
  const ids = Array.from({ length: to - from }, (_, i) => from + i);
  return shingleSketch(Uint32Array.from(ids, (id) => Math.imul(id, 0x9e3779b1) >>> 0), Uint32Array.from(ids, (id) => id), ids.length, VERIFY.sketchSize);
}

/**
 * Whether the second stage would match the two documents (one stored, the other new): they share a
 * candidate key and verifySimilar accepts them. (The k rule is checked apart.)
 */
export function secondStageMatches(a: { fingerprint: Fingerprint; sketch: Uint32Array }, b: { fingerprint: Fingerprint; sketch: Uint32Array }): boolean {
  if (!sharesCandidateKey(a.sketch, b.sketch, VERIFY.candidateKeys, VERIFY.minSharedKeys)) return false;
  return verifySimilar(hammingDistance(a.fingerprint, b.fingerprint), b.sketch, a.sketch, VERIFY).similar;
}

/**
 * Writer `worker`'s copy of cluster `c` for the concurrent-writers race: the cluster's base fingerprint
 * with bit `worker` of each 16-bit block flipped (two workers' copies are 8 bits apart: beyond k = 3,
 * within K; and they differ in every block, so no block lock serialises them, only the sketch-key locks),
 * and the cluster's feature range shifted by 15 features a worker (two copies' Jaccard ≥ 0.87). Only the
 * second stage can match two copies; clusters are far apart in both.
 */
export function similarCopy(worker: number, c: number): { url: string; fingerprint: Fingerprint; textHash: string; sketch: Uint32Array } {
  const base = { hi: Math.imul(c + 1, 0x9e3779b1) >>> 0, lo: Math.imul(c + 7, 0x85ebca6b) >>> 0 };
  const bits = [0, 16, 32, 48].map((start) => start + worker);
  const fingerprint = flipBits(base, bits);
  const from = c * 10_000 + worker * 15;
  return { url: `https://w${worker}.example/${c}`, fingerprint, textHash: `copy-${c}-${worker}`, sketch: sketchOf(from, from + 1500) };
}
