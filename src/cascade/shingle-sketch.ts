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
  if (items.length === 0) return new Uint32Array(0);
  const n = Math.max(1, items.length - size + 1);
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    let h = 0x9e3779b9;
    const end = Math.min(items.length, i + size);
    for (let k = i; k < end; k++) h = Math.imul(h ^ items[k]!, 0x01000193) + 0x7f4a7c15;
    out[i] = fmix32(h);
  }
  return out;
}

/** The distinct values, ascending (a new array). */
export function sortedDistinct(values: ArrayLike<number>): Uint32Array {
  return sortedDistinctInPlace(values instanceof Uint32Array ? values.slice() : Uint32Array.from(values));
}

/** Sorts `values` and moves its distinct values to its front; returns that front (a view). */
export function sortedDistinctInPlace(values: Uint32Array): Uint32Array {
  sortUint32(values);
  let kept = 0;
  for (let i = 0; i < values.length; i++) if (i === 0 || values[i] !== values[kept - 1]) values[kept++] = values[i]!;
  return values.subarray(0, kept);
}

/** Below this many values a quicksort beats the radix sort's four passes over 256 buckets. */
const RADIX_MIN = 256;
/** Ranges this short are finished by insertion sort. */
const INSERTION_MAX = 16;

function insertionSort(values: Uint32Array, lo: number, hi: number): void {
  for (let i = lo + 1; i <= hi; i++) {
    const v = values[i]!;
    let j = i - 1;
    while (j >= lo && values[j]! > v) {
      values[j + 1] = values[j]!;
      j--;
    }
    values[j + 1] = v;
  }
}

/** Quicksort of values[lo..hi] (median-of-three pivot, Hoare partition), insertion sort below INSERTION_MAX. */
function quickSort(values: Uint32Array, lo: number, hi: number): void {
  while (hi - lo >= INSERTION_MAX) {
    const mid = (lo + hi) >>> 1;
    const a = values[lo]!;
    const b = values[mid]!;
    const c = values[hi]!;
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const t = values[i]!;
        values[i++] = values[j]!;
        values[j--] = t;
      }
    }
    // Recurse into the smaller side, loop on the larger: stack depth stays logarithmic.
    if (j - lo < hi - i) {
      quickSort(values, lo, j);
      lo = i;
    } else {
      quickSort(values, i, hi);
      hi = j;
    }
  }
  insertionSort(values, lo, hi);
}

/**
 * Sorts in place, ascending (V8's TypedArray sort was the record's largest cost): a quicksort for
 * short arrays, else an LSD radix sort, four passes of 8 bits, a pass skipped when every value has
 * the same byte there.
 */
export function sortUint32(values: Uint32Array): void {
  const n = values.length;
  if (n < RADIX_MIN) {
    quickSort(values, 0, n - 1);
    return;
  }
  let from: Uint32Array = values;
  let to: Uint32Array = new Uint32Array(n);
  const counts = new Int32Array(256);
  for (let shift = 0; shift < 32; shift += 8) {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[(from[i]! >>> shift) & 0xff]!++;
    if (counts[(from[0]! >>> shift) & 0xff] === n) continue;
    let sum = 0;
    for (let b = 0; b < 256; b++) {
      const c = counts[b]!;
      counts[b] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const v = from[i]!;
      to[counts[(v >>> shift) & 0xff]!++] = v;
    }
    const swap = from;
    from = to;
    to = swap;
  }
  if (from !== values) values.set(from);
}

/** The `k` smallest distinct values of `hashes`, ascending. */
export function bottomK(hashes: ArrayLike<number>, k: number): Uint32Array {
  const n = hashes.length;
  if (n > 4 * k) {
    // Hashes are uniform: about 2k of them fall below 2^32 · 2k / n. Sort only those; when they hold
    // k distinct values, those are the k smallest (else fall back to sorting all).
    const limit = Math.min(2 ** 32, Math.ceil((2 ** 32 * 2 * k) / n));
    const below = new Uint32Array(n);
    let m = 0;
    for (let i = 0; i < n; i++) if (hashes[i]! < limit) below[m++] = hashes[i]!;
    const sorted = sortedDistinctInPlace(below.subarray(0, m));
    if (sorted.length >= k) return sorted.slice(0, k);
  }
  const sorted = sortedDistinct(hashes);
  return sorted.length <= k ? sorted : sorted.slice(0, k);
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

/** Number of values two ascending arrays share. */
export function sharedCount(a: Uint32Array, b: Uint32Array): number {
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      shared++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) {
      i++;
    } else {
      j++;
    }
  }
  return shared;
}
