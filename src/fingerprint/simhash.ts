/**
 * Charikar's simhash over 64-bit feature hashes: 64 counters; each feature adds +w to counter i
 * where its hash has bit i set and −w where it is clear (w = 1 per distinct feature, or the
 * feature's count); bit i of the fingerprint is 1 where counter i > 0.
 *
 * Counter i equals 2·ones_i − W, with ones_i the weight of features having bit i set and W the total
 * weight, so "counter i > 0" is "2·ones_i > W". The ones_i are kept bit-sliced: plane p holds bit p
 * of all 32 counters of a half, and adding a hash is a ripple-carry add of one uint32 per half
 * (about two plane updates on average) instead of 64 counter updates.
 */
import type { FeatureWeighting, Fingerprint, HashName } from '../types.js';
import { hash64 } from './hash64.js';

const PLANES = 32;

/** Adds `x` × 2^p into the bit-sliced counters `planes`. */
function addAt(planes: Int32Array, x: number, p: number): void {
  while (x !== 0 && p < PLANES) {
    const carry = planes[p]! & x;
    planes[p]! ^= x;
    x = carry;
    p++;
  }
}

function addWeighted(planes: Int32Array, x: number, weight: number): void {
  for (let p = 0; weight !== 0; p++, weight >>>= 1) if ((weight & 1) !== 0) addAt(planes, x, p);
}

/** Bits of the half whose counter is positive: 2·ones_i > total. */
function majority(planes: Int32Array, total: number): number {
  let out = 0;
  for (let i = 0; i < 32; i++) {
    let ones = 0;
    for (let p = PLANES - 1; p >= 0; p--) ones = ones * 2 + ((planes[p]! >>> i) & 1);
    if (2 * ones > total) out |= 1 << i;
  }
  return out >>> 0;
}

/**
 * Simhash of `count` feature hashes given as uint32 halves; null when there is no feature (so an
 * empty text never matches every other empty text).
 *
 * Repeats are counted in an open-addressing table, then each distinct hash is added once with its
 * weight. One allocation holds the table (keys, counts with 0 for an empty slot, and the slots in
 * order of first occurrence) and the two halves' bit-sliced counters.
 */
export function simhashFromHashes(hi: Uint32Array, lo: Uint32Array, count: number = hi.length, weighting: FeatureWeighting = 'unit'): Fingerprint | null {
  if (count === 0) return null;
  let capacity = 16;
  while (capacity < count * 2) capacity *= 2;
  const mask = capacity - 1;
  const buffer = new ArrayBuffer(4 * (capacity * 3 + count + 2 * PLANES));
  const keysHi = new Uint32Array(buffer, 0, capacity);
  const keysLo = new Uint32Array(buffer, 4 * capacity, capacity);
  const counts = new Uint32Array(buffer, 8 * capacity, capacity);
  const used = new Uint32Array(buffer, 12 * capacity, count);
  const planesHi = new Int32Array(buffer, 4 * (capacity * 3 + count), PLANES);
  const planesLo = new Int32Array(buffer, 4 * (capacity * 3 + count + PLANES), PLANES);
  let distinct = 0;
  for (let k = 0; k < count; k++) {
    const h = hi[k]!;
    const l = lo[k]!;
    // Rabin values are linear in the text, so mix both halves before taking the low bits.
    let x = Math.imul(l ^ (h >>> 15), 0x85ebca6b) ^ h;
    x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
    let slot = (x ^ (x >>> 16)) & mask;
    for (;;) {
      const c = counts[slot]!;
      if (c === 0) {
        keysHi[slot] = h;
        keysLo[slot] = l;
        counts[slot] = 1;
        used[distinct++] = slot;
        break;
      }
      if (keysHi[slot] === h && keysLo[slot] === l) {
        counts[slot] = c + 1;
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
  let total = 0;
  for (let d = 0; d < distinct; d++) {
    const slot = used[d]!;
    if (weighting === 'count') {
      const c = counts[slot]!;
      addWeighted(planesHi, keysHi[slot]!, c);
      addWeighted(planesLo, keysLo[slot]!, c);
      total += c;
    } else {
      addAt(planesHi, keysHi[slot]!, 0);
      addAt(planesLo, keysLo[slot]!, 0);
      total += 1;
    }
  }
  return { hi: majority(planesHi, total), lo: majority(planesLo, total) };
}

/** Simhash of feature strings (e.g. from `shingles`), each hashed with `hash`. */
export function simhashFeatures(features: readonly string[], hash: HashName, weighting: FeatureWeighting = 'unit'): Fingerprint | null {
  const hi = new Uint32Array(features.length);
  const lo = new Uint32Array(features.length);
  features.forEach((feature, k) => {
    const h = hash64(feature, hash);
    hi[k] = h.hi;
    lo[k] = h.lo;
  });
  return simhashFromHashes(hi, lo, features.length, weighting);
}
