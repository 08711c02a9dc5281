/**
 * The fast feature hash, `murmur`: 32-bit Math.imul arithmetic only, and each word hashed once.
 *
 * - A word's hash is MurmurHash3_x86_32 of its UTF-16LE bytes under two seeds (two uint32s).
 * - A feature (words joined by single spaces) hashes to two lanes, each MurmurHash3_x86_32's block
 *   function run over the words' uint32 pairs (in opposite orders, under different seeds) and
 *   finalised with fmix32: lane A gives bits 63..32, lane B bits 31..0.
 *
 * Because a feature's hash is defined from its words' hashes, a document's shingles are hashed by
 * hashing each word once and combining n pairs per shingle, with no string built (see
 * fingerprint-words.ts), and `murmur64(feature)` gives the very same value.
 */
import type { Fingerprint } from '../types.js';

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;
/** Seeds of the word hash's two halves. */
const WORD_SEED_A = 0x9747b28c;
const WORD_SEED_B = 0x5bd1e995;
/** Seeds of the feature lanes. */
const LANE_SEED_A = 0x2545f491;
const LANE_SEED_B = 0x85ebca6b;

function mixK(k: number): number {
  k = Math.imul(k, C1);
  k = (k << 15) | (k >>> 17);
  return Math.imul(k, C2);
}

/** MurmurHash3_x86_32's block step: mixes the 32-bit word `k` into the running hash `h`. */
export function mixH(h: number, k: number): number {
  h ^= mixK(k);
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

/** MurmurHash3's finaliser: avalanches a 32-bit hash; returns a uint32. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * MurmurHash3_x86_32 of `text`'s UTF-16LE bytes (code units start..end) under the two word seeds,
 * written to out[index] (half A) and out2[index] (half B).
 */
export function murmurWordInto(text: string, start: number, end: number, outA: Uint32Array, outB: Uint32Array, index: number): void {
  let a = WORD_SEED_A;
  let b = WORD_SEED_B;
  let i = start;
  for (; i + 1 < end; i += 2) {
    const k = mixK(text.charCodeAt(i) | (text.charCodeAt(i + 1) << 16));
    a ^= k;
    a = (a << 13) | (a >>> 19);
    a = (Math.imul(a, 5) + 0xe6546b64) | 0;
    b ^= k;
    b = (b << 13) | (b >>> 19);
    b = (Math.imul(b, 5) + 0xe6546b64) | 0;
  }
  if (i < end) {
    const k = mixK(text.charCodeAt(i));
    a ^= k;
    b ^= k;
  }
  const bytes = (end - start) * 2;
  outA[index] = fmix32(a ^ bytes);
  outB[index] = fmix32(b ^ bytes);
}

/**
 * Hash of the feature made of words start..start+count-1, from their word hashes, written to
 * outHi[k] / outLo[k].
 */
export function murmurFeatureInto(
  wordA: Uint32Array, wordB: Uint32Array, start: number, count: number,
  outHi: Uint32Array, outLo: Uint32Array, k: number,
): void {
  let hA = LANE_SEED_A;
  let hB = LANE_SEED_B;
  for (let j = start; j < start + count; j++) {
    const a = wordA[j]!;
    const b = wordB[j]!;
    hA = mixH(mixH(hA, a), b);
    hB = mixH(mixH(hB, b), a);
  }
  outHi[k] = fmix32(hA ^ (count * 8));
  outLo[k] = fmix32(hB ^ (count * 8));
}

/** The `murmur` hash of one feature: words separated by single spaces (as shingles are). */
export function murmur64(feature: string): Fingerprint {
  const words = feature.split(' ');
  const wordA = new Uint32Array(words.length);
  const wordB = new Uint32Array(words.length);
  words.forEach((word, i) => murmurWordInto(word, 0, word.length, wordA, wordB, i));
  const hi = new Uint32Array(1);
  const lo = new Uint32Array(1);
  murmurFeatureInto(wordA, wordB, 0, words.length, hi, lo, 0);
  return { hi: hi[0]!, lo: lo[0]! };
}
