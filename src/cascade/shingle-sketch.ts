/**
 * Hashed shingles and bottom-k sketches, the cascade's set summaries: a sketch keeps the k
 * smallest distinct 32-bit hashes of a set, and two sketches estimate the Jaccard similarity of
 * their sets (Broder 1997) from the k smallest hashes of their union.
 */

/** FNV-1a over a string, continuing from `hash` (32-bit, unsigned). */
export function fnv1a(text: string, hash = 0x811c9dc5): number {
  let h = hash;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A 32-bit finaliser (murmur3's fmix32): spreads FNV's low-entropy high bits. */
export function mix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
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
    out[i] = mix32(h);
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
    out[i] = mix32(h);
  }
  return out;
}

/** The distinct values, ascending (a new array). */
export function sortedDistinct(values: ArrayLike<number>): Uint32Array {
  const sorted = Uint32Array.from(values).sort();
  let kept = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[kept - 1]) sorted[kept++] = sorted[i]!;
  return sorted.subarray(0, kept);
}

/** The `k` smallest distinct values of `hashes`, ascending. */
export function bottomK(hashes: ArrayLike<number>, k: number): Uint32Array {
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
