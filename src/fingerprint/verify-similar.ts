/**
 * The second stage's decision for one candidate pair (issue 11): after the card's rule (distance ≤ k
 * → `near`) has not matched, a stored candidate is `similar` when its fingerprint lies within the
 * wider distance K and the two feature sets, estimated from their sketches, are alike enough:
 * Jaccard ≥ `jaccard`, or containment ≥ `containment` resting on at least `minContainmentSamples`
 * sketch values (so that a page of a few shingles is not "contained" in every page that shares them).
 * Pure: the same inputs always give the same outcome.
 */
import { sketchSimilarity, type SketchSimilarity } from './sketch-similarity.js';

/** Thresholds of the second stage (config `verify`, see config/default.json and the README). */
export interface VerifyThresholds {
  /** Widest fingerprint distance K at which a candidate may be accepted. */
  readonly maxDistance: number;
  /** Values kept per sketch (both sketches were made with it). */
  readonly sketchSize: number;
  /** Accept at or above this Jaccard estimate. */
  readonly jaccard: number;
  /** Accept at or above this containment estimate (with enough samples); above 1 turns it off. */
  readonly containment: number;
  /** Sketch values a containment estimate must rest on to be used. */
  readonly minContainmentSamples: number;
}

/** Why a pair was accepted, or null when it was not. */
export type VerifyBasis = 'jaccard' | 'containment' | null;

export interface VerifyOutcome extends SketchSimilarity {
  readonly similar: boolean;
  readonly basis: VerifyBasis;
}

/** Decides one candidate: `distance` between the fingerprints, `a` and `b` the two sketches. */
export function verifySimilar(distance: number, a: Uint32Array, b: Uint32Array, thresholds: VerifyThresholds): VerifyOutcome {
  const estimate = sketchSimilarity(a, b, thresholds.sketchSize);
  let basis: VerifyBasis = null;
  if (distance <= thresholds.maxDistance) {
    if (estimate.jaccard >= thresholds.jaccard) basis = 'jaccard';
    else if (estimate.containment >= thresholds.containment && estimate.containmentSamples >= thresholds.minContainmentSamples) basis = 'containment';
  }
  return { ...estimate, similar: basis !== null, basis };
}
