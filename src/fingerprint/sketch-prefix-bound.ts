/**
 * A bound on verifySimilar's decision when one sketch is known only by its first values (the second
 * stage's key table keeps each document's first PREFIX values in memory, so that a candidate that
 * cannot be confirmed is dropped before its whole sketch is read from the database). Sound: false only
 * when neither the Jaccard estimate nor either containment estimate can reach its threshold, whatever
 * the values not known; the decision itself is still verifySimilar's on the whole sketches.
 *
 * - Jaccard: sketchSimilarity walks the k smallest values of the union. The walk is followed exactly
 *   while the candidate's known values last; each step left can add at most one shared value.
 * - Containment, query in candidate: a query value at most the candidate's last known value that the
 *   known values lack is surely not in its sketch, and surely testable (not above the candidate's
 *   largest), so a miss; past maxSlack(t, n) misses, n the query's testable values (at most its
 *   length), the share cannot reach t. Candidate in query: the same with the roles swapped (the query
 *   is known whole, so every known candidate value testable and not in the query is a miss).
 */
import { needed } from './similar-basis.js';
import type { VerifyThresholds } from './verify-similar.js';

/** The most misses a share over n′ ≤ n samples can have and still reach t: max of n′ − needed(t, n′). */
export function maxSlack(t: number, n: number): number {
  let slack = -1; // no n′ reaches t
  for (let m = 0; m <= n; m++) {
    const need = needed(t, m);
    if (need <= m && m - need > slack) slack = m - need;
  }
  return slack;
}

/** What a table keeps of a document's sketch: its first values and its whole length. */
export interface SketchPrefix {
  readonly values: Uint32Array;
  readonly start: number;
  /** Values known: values[start .. start + known). */
  readonly known: number;
  /** Values in the whole sketch (≥ known). */
  readonly length: number;
}

/**
 * Whether verifySimilar may confirm `query` (a whole sketch) against a candidate known by `prefix`.
 * `slack`: maxSlack(thresholds.containment, ·) by length, at least as long as both sketches (callers
 * keep it per table).
 */
export function prefixMayBeSimilar(query: Uint32Array, prefix: SketchPrefix, thresholds: VerifyThresholds, slack: Int32Array): boolean {
  if (prefix.known >= prefix.length) return true; // known whole: verifySimilar decides on the rows read
  if (query.length < thresholds.sketchSize && prefix.length < thresholds.sketchSize) return true; // whole sets: k needs the full union
  return jaccardMayReach(query, prefix, thresholds.jaccard) || containmentMayReach(query, prefix, thresholds.sketchSize, slack);
}

function jaccardMayReach(a: Uint32Array, b: SketchPrefix, t: number): boolean {
  const k = Math.min(a.length, b.length);
  if (k === 0) return 0 >= t;
  const need = needed(t, k);
  const { values, start, known } = b;
  let i = 0;
  let j = 0;
  let both = 0;
  let taken = 0;
  for (; taken < k && j < known; taken++) {
    if (both + (k - taken) < need) return false;
    const x = i < a.length ? a[i]! : Infinity;
    const y = values[start + j]!;
    if (x === y) {
      both++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return both + (k - taken) >= need;
}

function containmentMayReach(a: Uint32Array, b: SketchPrefix, sketchSize: number, slack: Int32Array): boolean {
  const { values, start, known } = b;
  const lastKnown = values[start + known - 1]!;
  // The candidate's values testable against the query: all, unless the query's sketch is full (then
  // those up to its largest). The query is known whole: one of them it lacks is a miss.
  const bTestableUpTo = a.length >= sketchSize ? a[a.length - 1]! : Infinity;
  const aSlack = slack[a.length]!;
  const bSlack = slack[b.length]!;
  let aMisses = 0;
  let bMisses = 0;
  let j = 0;
  for (let i = 0; i < a.length && a[i]! <= lastKnown; i++) {
    const x = a[i]!;
    for (; j < known && values[start + j]! < x; j++) if (values[start + j]! <= bTestableUpTo) bMisses++;
    if (j < known && values[start + j] === x) j++;
    else aMisses++;
    if (aMisses > aSlack && bMisses > bSlack) return false; // both directions settled
  }
  for (; j < known; j++) if (values[start + j]! <= bTestableUpTo) bMisses++;
  return aMisses <= aSlack || bMisses <= bSlack;
}
