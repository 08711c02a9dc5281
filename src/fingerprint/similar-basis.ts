/**
 * verifySimilar's decision alone, for the second stage's hot loop (issue 25): no object is made, and
 * each merge walk stops as soon as its outcome is known — the Jaccard walk once the threshold is
 * surely reached or can no longer be, a containment walk once its threshold can no longer be. The
 * decision is exactly verifySimilar's (`basis`), so the estimates themselves are computed, with
 * verifySimilar, only for the few candidates it confirms.
 *
 * Exactness: an estimate is `count / n` with n fixed before the walk and count growing by one per
 * shared value; "count / n ≥ t" is decided on the integer count against `needed(t, n)`, the smallest
 * count whose quotient (as JavaScript divides it) reaches t, so no rounding differs from the
 * division the full estimate does.
 *
 * Sketches are given as (array, start, length), so that a sketch read into a larger buffer is used
 * in place.
 */
import { sharedCountIn } from './shared-count.js';
import type { VerifyThresholds } from './verify-similar.js';

/** verifySimilar's basis as a number: none, Jaccard, containment. */
export const NOT_SIMILAR = 0;
export const BY_JACCARD = 1;
export const BY_CONTAINMENT = 2;
export type SimilarBasisCode = typeof NOT_SIMILAR | typeof BY_JACCARD | typeof BY_CONTAINMENT;

/** A sketch in place: values[start .. start + length), ascending and distinct. */
export interface SketchSpan {
  values: Uint32Array;
  start: number;
  length: number;
}

/**
 * The smallest integer c in 0..n+1 with c / n ≥ t (n + 1: none reaches it). Starts from ⌈t·n⌉ and
 * steps to the exact boundary of the division itself (the product may round either way).
 */
export function needed(t: number, n: number): number {
  if (!(t <= 1)) return n + 1; // above 1 (or NaN): no share reaches it
  if (t <= 0) return 0;
  let c = Math.min(n + 1, Math.max(0, Math.ceil(t * n)));
  while (c > 0 && (c - 1) / n >= t) c--;
  while (c <= n && c / n < t) c++;
  return c;
}

/** Count of values ≤ limit in a[start..start+length) (ascending). */
function countAtMostIn(a: Uint32Array, start: number, length: number, limit: number): number {
  let low = start;
  let high = start + length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (a[mid]! <= limit) low = mid + 1;
    else high = mid;
  }
  return low - start;
}

/**
 * Whether sketchSimilarity's Jaccard estimate reaches `t`: the k smallest values of the union (k the
 * shorter sketch, or the whole union when both sketches hold their whole sets) walked until the
 * count of shared ones has reached needed(t, k) or can no longer.
 */
function jaccardReaches(a: Uint32Array, aStart: number, aLength: number, b: Uint32Array, bStart: number, bLength: number, sketchSize: number, t: number): boolean {
  const whole = aLength < sketchSize && bLength < sketchSize;
  const k = whole ? aLength + bLength - sharedCountIn(a, aStart, aLength, b, bStart, bLength) : Math.min(aLength, bLength);
  if (k === 0) return 0 >= t; // the estimate is 0
  const need = needed(t, k);
  if (need === 0) return true;
  if (need > k) return false;
  let i = aStart;
  let j = bStart;
  const aEnd = aStart + aLength;
  const bEnd = bStart + bLength;
  let both = 0;
  for (let taken = 0; taken < k; taken++) {
    if (both + (k - taken) < need) return false;
    const x = i < aEnd ? a[i]! : Infinity;
    const y = j < bEnd ? b[j]! : Infinity;
    if (x === y) {
      if (++both >= need) return true;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return both >= need;
}

/**
 * Containment of A in B as sketchSimilarity estimates it, when it reaches `t`: the count of A's
 * testable values B holds (exact, ≥ 0), or -1 when the share stays below `t` (the walk stopped as
 * soon as it could not reach it); `testable`: A's testable values (testableCount).
 */
function containmentCount(a: Uint32Array, aStart: number, b: Uint32Array, bStart: number, bLength: number, t: number, testable: number): number {
  if (testable === 0) return 0 >= t ? 0 : -1; // the estimate is 0
  const need = needed(t, testable);
  if (need > testable) return -1;
  return sharedCountIn(a, aStart, testable, b, bStart, bLength, need);
}

/** A's values testable against B (all of them unless B's sketch is full: those up to B's largest). */
function testableCount(a: Uint32Array, aStart: number, aLength: number, b: Uint32Array, bStart: number, bLength: number, sketchSize: number): number {
  return bLength >= sketchSize ? countAtMostIn(a, aStart, aLength, b[bStart + bLength - 1]!) : aLength;
}

/**
 * Whether sketchSimilarity's containment (the larger direction, with its samples; the fewer samples
 * when both directions are equal) reaches `t` on at least `minSamples`: the rule of verifySimilar.
 */
function containmentReaches(a: Uint32Array, aStart: number, aLength: number, b: Uint32Array, bStart: number, bLength: number, thresholds: VerifyThresholds): boolean {
  const size = thresholds.sketchSize;
  const t = thresholds.containment;
  const min = thresholds.minContainmentSamples;
  const aTestable = testableCount(a, aStart, aLength, b, bStart, bLength, size);
  const bTestable = testableCount(b, bStart, bLength, a, aStart, aLength, size);
  const aShared = containmentCount(a, aStart, b, bStart, bLength, t, aTestable);
  const bShared = containmentCount(b, bStart, a, aStart, aLength, t, bTestable);
  if (aShared < 0 && bShared < 0) return false;
  if (bShared < 0) return aTestable >= min; // A in B reaches t, B in A does not: A in B is the larger
  if (aShared < 0) return bTestable >= min;
  // Both reach t: the larger share decides, as sketchSimilarity does (testable 0 gives the value 0).
  const aValue = aTestable === 0 ? 0 : aShared / aTestable;
  const bValue = bTestable === 0 ? 0 : bShared / bTestable;
  if (aValue === bValue) return Math.min(aTestable, bTestable) >= min;
  return (aValue > bValue ? aTestable : bTestable) >= min;
}

/**
 * verifySimilar(distance, a, b, thresholds).basis as a code, for sketches in place. `jaccardOnly`:
 * only a Jaccard confirmation counts (BY_CONTAINMENT is never returned; the containment walks are skipped).
 */
export function similarBasis(distance: number, a: SketchSpan, b: SketchSpan, thresholds: VerifyThresholds, jaccardOnly = false): SimilarBasisCode {
  if (distance > thresholds.maxDistance) return NOT_SIMILAR;
  if (jaccardReaches(a.values, a.start, a.length, b.values, b.start, b.length, thresholds.sketchSize, thresholds.jaccard)) return BY_JACCARD;
  if (jaccardOnly) return NOT_SIMILAR;
  return containmentReaches(a.values, a.start, a.length, b.values, b.start, b.length, thresholds) ? BY_CONTAINMENT : NOT_SIMILAR;
}
