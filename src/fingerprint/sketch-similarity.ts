/**
 * Similarity of two documents' feature sets estimated from their bottom-k sketches (shingle-sketch.ts).
 *
 * - Jaccard |A ∩ B| / |A ∪ B|: the k smallest values of A ∪ B (k = the shorter sketch's length) are
 *   a uniform sample of the union; the share of them found in both sketches estimates it. Exact when
 *   both sets are smaller than the sketch size (each sketch is then its whole set).
 * - Containment of A in B, |A ∩ B| / |A|: among A's sketch values not above B's largest kept value
 *   (below it, B's sketch holds every value of B), the share that B's sketch holds. `containment` is
 *   the larger of the two directions, so an excerpt of a stored page and a stored page with
 *   comments appended both score high.
 */
import { sharedCount } from './shared-count.js';

/** Estimates from two sketches. */
export interface SketchSimilarity {
  /** Estimated Jaccard similarity of the two feature sets, 0–1. */
  readonly jaccard: number;
  /** Estimated containment, the larger of A-in-B and B-in-A, 0–1. */
  readonly containment: number;
  /** Which side is the contained one when containment is the larger: 'a', 'b', or 'both' (equal). */
  readonly contained: 'a' | 'b' | 'both';
  /** Sketch values the containment estimate rests on (the contained side's testable values). */
  readonly containmentSamples: number;
}

/** Count of a's values ≤ limit (a ascending). */
export function countAtMost(a: Uint32Array, limit: number): number {
  let low = 0;
  let high = a.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (a[mid]! <= limit) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * Jaccard estimate from the k smallest values of the union (k = the shorter sketch); exact when both
 * sketches hold their whole sets (shorter than `sketchSize`): then k covers the whole union.
 */
function jaccardOf(a: Uint32Array, b: Uint32Array, sketchSize: number): number {
  const whole = a.length < sketchSize && b.length < sketchSize;
  const k = whole ? a.length + b.length - sharedCount(a, b) : Math.min(a.length, b.length);
  if (k === 0) return 0;
  let i = 0;
  let j = 0;
  let both = 0;
  for (let taken = 0; taken < k; taken++) {
    const x = i < a.length ? a[i]! : Infinity;
    const y = j < b.length ? b[j]! : Infinity;
    if (x === y) {
      both++;
      i++;
      j++;
    } else if (x < y) {
      i++;
    } else {
      j++;
    }
  }
  return both / k;
}

/**
 * Containment of A in B: share of A's testable values that B holds. `full`: B's sketch is full (B has
 * at least `sketchSize` distinct features), so only values up to B's largest are testable.
 */
function containmentOf(a: Uint32Array, b: Uint32Array, sketchSize: number): { value: number; samples: number } {
  const testable = b.length >= sketchSize ? countAtMost(a, b[b.length - 1]!) : a.length;
  if (testable === 0) return { value: 0, samples: 0 };
  return { value: sharedCount(a, b, testable) / testable, samples: testable };
}

/** Jaccard and containment estimates of two sketches made with the same `sketchSize`. */
export function sketchSimilarity(a: Uint32Array, b: Uint32Array, sketchSize: number): SketchSimilarity {
  const jaccard = jaccardOf(a, b, sketchSize);
  const aInB = containmentOf(a, b, sketchSize);
  const bInA = containmentOf(b, a, sketchSize);
  if (aInB.value === bInA.value) return { jaccard, containment: aInB.value, contained: 'both', containmentSamples: Math.min(aInB.samples, bInA.samples) };
  return aInB.value > bInA.value
    ? { jaccard, containment: aInB.value, contained: 'a', containmentSamples: aInB.samples }
    : { jaccard, containment: bInA.value, contained: 'b', containmentSamples: bInA.samples };
}
