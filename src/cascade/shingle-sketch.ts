/**
 * Hashed shingles and bottom-k sketches, the cascade's set summaries: a sketch keeps the k
 * smallest distinct 32-bit hashes of a set, and two sketches estimate the Jaccard similarity of
 * their sets (Broder 1997) from the k smallest hashes of their union.
 */
import { fmix32 } from '../fingerprint/murmur-hash.js';

/** FNV-1a over a string, continuing from `hash` (32-bit, unsigned). */
export function fnv1a(text: string, hash = 0x811c9dc5): number {
  let h = hash;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Hashes of the runs of `size` consecutive items (one run of all items when fewer). */
export function shingleHashes(items: readonly string[], size: number): Uint32Array {
  if (items.length === 0) return new Uint32Array(0);
  const n = Math.max(1, items.length - size + 1);
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    let h = 0x811c9dc5;
    const end = Math.min(items.length, i + size);
    for (let k = i; k < end; k++) h = fnv1a(items[k]!, fnv1a(' ', h));
    out[i] = fmix32(h);
  }
  return out;
}

/**
 * Hashes of the runs of `size` consecutive item hashes (one run of all when fewer), combined
 * numerically: each item is hashed once, not once per run it is in.
 */
export function shingleHashesOf(items: Uint32Array, size: number): Uint32Array {
  const out = new Uint32Array(items.length === 0 ? 0 : Math.max(1, items.length - size + 1));
  shingleHashesOfInto(items, size, out);
  return out;
}

/** shingleHashesOf written to out[0, returned count) (`out`: at least max(1, items.length − size + 1) long). */
export function shingleHashesOfInto(items: Uint32Array, size: number, out: Uint32Array): number {
  const length = items.length;
  if (length === 0) return 0;
  if (size === 8 && length >= 8) return shingle8HashesInto(items, out);
  const n = Math.max(1, length - size + 1);
  for (let i = 0; i < n; i++) {
    let h = 0x9e3779b9;
    const end = Math.min(length, i + size);
    for (let k = i; k < end; k++) h = Math.imul(h ^ items[k]!, 0x01000193) + 0x7f4a7c15;
    out[i] = fmix32(h);
  }
  return n;
}

/** shingleHashesOfInto for runs of 8 (the grammar sketch's), unrolled: the same values. */
function shingle8HashesInto(items: Uint32Array, out: Uint32Array): number {
  const n = items.length - 7;
  for (let i = 0; i < n; i++) {
    let h = Math.imul(0x9e3779b9 ^ items[i]!, 0x01000193) + 0x7f4a7c15;
    h = Math.imul(h ^ items[i + 1]!, 0x01000193) + 0x7f4a7c15;
    h = Math.imul(h ^ items[i + 2]!, 0x01000193) + 0x7f4a7c15;
    h = Math.imul(h ^ items[i + 3]!, 0x01000193) + 0x7f4a7c15;
    h = Math.imul(h ^ items[i + 4]!, 0x01000193) + 0x7f4a7c15;
    h = Math.imul(h ^ items[i + 5]!, 0x01000193) + 0x7f4a7c15;
    h = Math.imul(h ^ items[i + 6]!, 0x01000193) + 0x7f4a7c15;
    h = Math.imul(h ^ items[i + 7]!, 0x01000193) + 0x7f4a7c15;
    out[i] = fmix32(h);
  }
  return n;
}

/** The distinct values, ascending (a new array). */
export function sortedDistinct(values: ArrayLike<number>): Uint32Array {
  return sortedDistinctInPlace(values instanceof Uint32Array ? values.slice() : Uint32Array.from(values));
}

/**
 * Sorts `values` and moves its distinct values to its front; returns that front (a view).
 * `scratch`: as sortUint32's.
 */
export function sortedDistinctInPlace(values: Uint32Array, scratch?: Uint32Array): Uint32Array {
  return values.subarray(0, sortDistinctRange(values, 0, values.length, scratch));
}

/**
 * Sorts values[lo, hi) and moves its distinct values to the range's front; returns how many there
 * are (no view made). `scratch`: as sortUint32's, for hi − lo values.
 */
export function sortDistinctRange(values: Uint32Array, lo: number, hi: number, scratch?: Uint32Array): number {
  sortRange(values, lo, hi, scratch);
  let kept = lo;
  for (let i = lo; i < hi; i++) if (i === lo || values[i] !== values[kept - 1]) values[kept++] = values[i]!;
  return kept - lo;
}

/** Ranges this short are sorted by insertion sort alone (faster than bucketing up to about 40 values). */
const INSERTION_MAX = 40;
/**
 * Values a bucket gets on average when values are uniform (hashes are), so that insertion sort
 * finishes a bucket in a few moves: the sort then costs a few passes over the values, where a
 * comparison sort (V8's native one included) costs about 20 ns a value on a paragraph's 50.
 */
const BUCKET_TARGET = 4;
/** A bucket longer than this (skewed values) is sorted by V8's native sort, not insertion sort. */
const LONG_BUCKET = 32;

/** Bits of bucket index for n values: about BUCKET_TARGET values a bucket, 1 to 16 bits. */
function bucketBits(n: number): number {
  return Math.min(16, Math.max(1, Math.ceil(Math.log2(n / BUCKET_TARGET))));
}

/** Length of the scratch space sorting n values takes (sortUint32, sortDistinctRange, bottomKInto); grows with n. */
export function sortScratchLength(n: number): number {
  return n <= INSERTION_MAX ? n : n + (1 << bucketBits(n)) + 1;
}

/** Insertion sort of values[lo, hi), ascending. */
function insertionSort(values: Uint32Array, lo: number, hi: number): void {
  for (let i = lo + 1; i < hi; i++) {
    const v = values[i]!;
    let j = i - 1;
    while (j >= lo && values[j]! > v) {
      values[j + 1] = values[j]!;
      j--;
    }
    values[j + 1] = v;
  }
}

/**
 * Scatters values[lo, hi) into scratch[0, n) by their top bits — above their minimum unless
 * `hashLike` (one counting pass, one placing pass): every value of a bucket is below every value of
 * the next. The bucket ends follow, from
 * scratch[n]: bucket b is scratch[end(b − 1), end(b)) with end(−1) = 0. Returns the bucket count.
 */
function scatter(values: Uint32Array, lo: number, hi: number, scratch: Uint32Array, hashLike: boolean): number {
  const n = hi - lo;
  const bits = bucketBits(n);
  const buckets = 1 << bits;
  // Hashes span the whole range already: no pass for their minimum and maximum.
  const min = hashLike ? 0 : minOf(values, lo, hi);
  const shift = hashLike ? 32 - bits : shiftFor(values, lo, hi, min, bits);
  scratch.fill(0, n, n + buckets + 1);
  for (let i = lo; i < hi; i++) scratch[n + 1 + ((values[i]! - min) >>> shift)]!++;
  for (let b = n + 1; b <= n + buckets; b++) scratch[b]! += scratch[b - 1]!;
  // scratch[n + b] is bucket b's start; placing advances it to its end.
  for (let i = lo; i < hi; i++) {
    const v = values[i]!;
    scratch[scratch[n + ((v - min) >>> shift)]!++] = v;
  }
  return buckets;
}

/** The smallest of values[lo, hi) (a non-empty range). */
function minOf(values: Uint32Array, lo: number, hi: number): number {
  let min = values[lo]!;
  for (let i = lo + 1; i < hi; i++) if (values[i]! < min) min = values[i]!;
  return min;
}

/**
 * The shift that maps values[lo, hi) − min onto 2^bits buckets in order: the buckets span the values'
 * own range, so small numbers (word ids, not hashes) spread over the buckets as hashes do.
 */
function shiftFor(values: Uint32Array, lo: number, hi: number, min: number, bits: number): number {
  let max = min;
  for (let i = lo; i < hi; i++) if (values[i]! > max) max = values[i]!;
  return Math.max(0, 32 - Math.clz32(max - min) - bits);
}

/** Sorts values[lo, hi), ascending; `scratch` as sortUint32's (made when missing or short). */
function sortRange(values: Uint32Array, lo: number, hi: number, scratch: Uint32Array | undefined): void {
  const n = hi - lo;
  if (n <= INSERTION_MAX) {
    insertionSort(values, lo, hi);
    return;
  }
  const space = scratch !== undefined && scratch.length >= sortScratchLength(n) ? scratch : new Uint32Array(sortScratchLength(n));
  const buckets = scatter(values, lo, hi, space, false);
  // Each bucket goes back by insertion: copying and sorting in one pass.
  let start = 0;
  for (let b = 0; b < buckets; b++) {
    const end = space[n + b]!;
    if (end - start > LONG_BUCKET) {
      values.set(space.subarray(start, end), lo + start);
      values.subarray(lo + start, lo + end).sort();
    } else {
      const first = lo + start;
      for (let i = start; i < end; i++) {
        const v = space[i]!;
        let j = lo + i - 1;
        while (j >= first && values[j]! > v) {
          values[j + 1] = values[j]!;
          j--;
        }
        values[j + 1] = v;
      }
    }
    start = end;
  }
}

/** Length of the scratch space sortRunsAndUnion takes for n values in `runs` runs; grows with both. */
export function runsScratchLength(n: number, runs: number): number {
  return 3 * n + (1 << bucketBits(Math.max(n, BUCKET_TARGET + 1))) + 1 + runs;
}

/**
 * Sorts and dedups each of `runCount` consecutive runs of `values` (run r is values[end(r − 1), end(r))
 * with end(r) = runEnds[r], end(−1) = 0), moving them together so that runEnds gives their new ends,
 * and writes the sorted distinct values of all runs into `union` (unless null); returns their number. One bucket
 * sort of all values carrying their run (instead of a sort per run and one of the union): each run's
 * values then come out in order. Meant for hashes (buckets by the top bits of the whole 32-bit
 * range); values bunched in a bucket (not hash-like) fall back to sorting each run and the union on
 * their own. `scratch`: runsScratchLength(n, runCount) words.
 */
export function sortRunsAndUnion(values: Uint32Array, runEnds: Uint32Array, runCount: number, union: Uint32Array | null, scratch: Uint32Array): number {
  const n = runCount === 0 ? 0 : runEnds[runCount - 1]!;
  if (n <= INSERTION_MAX) return sortRunsOneByOne(values, runEnds, runCount, union, scratch);
  const bits = bucketBits(n);
  const buckets = 1 << bits;
  const shift = 32 - bits;
  // scratch: run of each value | values by bucket | their runs | bucket ends | run cursors.
  const sorted = n;
  const runs = 2 * n;
  const ends = 3 * n;
  for (let r = 0, i = 0; r < runCount; r++) for (const end = runEnds[r]!; i < end; i++) scratch[i] = r;
  scratch.fill(0, ends, ends + buckets + 1);
  for (let i = 0; i < n; i++) scratch[ends + 1 + (values[i]! >>> shift)]!++;
  for (let b = 1; b <= buckets; b++) {
    if (scratch[ends + b]! > LONG_BUCKET) return sortRunsOneByOne(values, runEnds, runCount, union, scratch);
    scratch[ends + b]! += scratch[ends + b - 1]!;
  }
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    const at = scratch[ends + (v >>> shift)]!++;
    scratch[sorted + at] = v;
    scratch[runs + at] = scratch[i]!;
  }
  // Insertion sort within each bucket, the runs moving with their values.
  let start = 0;
  for (let b = 0; b < buckets; b++) {
    const end = scratch[ends + b]!;
    for (let i = start + 1; i < end; i++) {
      const v = scratch[sorted + i]!;
      const r = scratch[runs + i]!;
      let j = i - 1;
      while (j >= start && scratch[sorted + j]! > v) {
        scratch[sorted + j + 1] = scratch[sorted + j]!;
        scratch[runs + j + 1] = scratch[runs + j]!;
        j--;
      }
      scratch[sorted + j + 1] = v;
      scratch[runs + j + 1] = r;
    }
    start = end;
  }
  return distributeRuns(values, runEnds, runCount, union, scratch, n);
}

/** sortRunsAndUnion's second half: the sorted values back into their runs (each without repeats), and the union. */
function distributeRuns(values: Uint32Array, runEnds: Uint32Array, runCount: number, union: Uint32Array | null, scratch: Uint32Array, n: number): number {
  const sorted = n;
  const runs = 2 * n;
  const cursors = 3 * n + (1 << bucketBits(n)) + 1;
  for (let r = 0; r < runCount; r++) scratch[cursors + r] = r === 0 ? 0 : runEnds[r - 1]!;
  let kept = 0;
  for (let i = 0; i < n; i++) {
    const v = scratch[sorted + i]!;
    const r = scratch[runs + i]!;
    const at = scratch[cursors + r]!;
    // Equal values are adjacent: a run's repeat is its last value written.
    if (at === (r === 0 ? 0 : runEnds[r - 1]!) || values[at - 1] !== v) {
      values[at] = v;
      scratch[cursors + r] = at + 1;
    }
    if (union !== null && (kept === 0 || union[kept - 1] !== v)) union[kept++] = v;
  }
  // Close the gaps the repeats left, run by run.
  let to = 0;
  let from = 0;
  for (let r = 0; r < runCount; r++) {
    const end = scratch[cursors + r]!;
    const next = runEnds[r]!;
    if (from !== to) values.copyWithin(to, from, end);
    to += end - from;
    runEnds[r] = to;
    from = next;
  }
  return kept;
}

/** sortRunsAndUnion by a sort per run and one of the union (short or bunched values). */
function sortRunsOneByOne(values: Uint32Array, runEnds: Uint32Array, runCount: number, union: Uint32Array | null, scratch: Uint32Array): number {
  let to = 0;
  let from = 0;
  for (let r = 0; r < runCount; r++) {
    const next = runEnds[r]!;
    const kept = sortDistinctRange(values, from, next, scratch);
    if (from !== to) values.copyWithin(to, from, from + kept);
    to += kept;
    runEnds[r] = to;
    from = next;
  }
  if (union === null) return 0;
  union.set(values.subarray(0, to));
  return sortDistinctRange(union, 0, to, scratch);
}

/**
 * Sorts in place, ascending: the values are scattered into buckets by their top bits (hashes are
 * uniform, so buckets hold a few values each) and each bucket is sorted by insertion; skewed values
 * only make some buckets long, and those go to V8's native sort. `scratch`: space of at least
 * sortScratchLength(values.length) not overlapping `values` (contents overwritten), so that a
 * caller sorting often allocates it once.
 */
export function sortUint32(values: Uint32Array, scratch?: Uint32Array): void {
  sortRange(values, 0, values.length, scratch);
}

/** The `k` smallest distinct values of `hashes`, ascending. */
export function bottomK(hashes: ArrayLike<number>, k: number): Uint32Array {
  const values = hashes instanceof Uint32Array ? hashes : Uint32Array.from(hashes);
  const into = new Uint32Array(sortScratchLength(values.length));
  return into.slice(0, bottomKInto(values, k, into));
}

/**
 * bottomK written to into[0, returned count): `into` is at least sortScratchLength(values.length)
 * long and does not overlap `values` (left unchanged). The values (hashes) are scattered into
 * buckets by their top bits and only the first buckets, up to the k-th distinct value, are sorted.
 */
export function bottomKInto(values: Uint32Array, k: number, into: Uint32Array): number {
  const n = values.length;
  if (n <= INSERTION_MAX) {
    into.set(values);
    return Math.max(0, Math.min(k, sortDistinctRange(into, 0, n)));
  }
  const buckets = scatter(values, 0, n, into, true);
  let kept = 0;
  let start = 0;
  for (let b = 0; b < buckets && kept < k; b++) {
    const end = into[n + b]!;
    if (end - start > LONG_BUCKET) into.subarray(start, end).sort();
    else insertionSort(into, start, end);
    // Equal values share a bucket: comparing with the last kept one removes every repeat. Kept
    // values move down, never past the bucket being read.
    for (let i = start; i < end && kept < k; i++) if (kept === 0 || into[i] !== into[kept - 1]) into[kept++] = into[i]!;
    start = end;
  }
  return kept;
}

/**
 * Estimated Jaccard similarity of two sets from their bottom-k sketches: among the k smallest
 * hashes of the union, the share found in both sketches.
 */
export function sketchJaccard(a: Uint32Array, b: Uint32Array, k: number): number {
  if (a.length === 0 || b.length === 0) return 0;
  let i = 0;
  let j = 0;
  let taken = 0;
  let shared = 0;
  while (taken < k && (i < a.length || j < b.length)) {
    const x = i < a.length ? a[i]! : Infinity;
    const y = j < b.length ? b[j]! : Infinity;
    if (x === y) {
      shared++;
      i++;
      j++;
    } else if (x < y) {
      i++;
    } else {
      j++;
    }
    taken++;
  }
  return shared / taken;
}
