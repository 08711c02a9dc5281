/**
 * Hash of a whole normalised text, for exact-duplicate detection: 128 bits (32 hex digits) over its
 * token sequence, so texts that differ only in case, spacing, punctuation, Unicode compatibility
 * forms or look-alike letters hash alike. Each token's MurmurHash3 pair (murmur-hash.ts) is fed into
 * four MurmurHash3_x86_32 lanes with distinct seeds; not cryptographic.
 */
import { fmix32, mixH, murmurWordInto } from './murmur-hash.js';

const SEEDS = [0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344] as const;

/** 32 lower-case hex digits identifying the token sequence. */
export function textHash(tokens: readonly string[]): string {
  const n = tokens.length;
  const wordA = new Uint32Array(n);
  const wordB = new Uint32Array(n);
  const ids = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    murmurWordInto(tokens[k]!, 0, tokens[k]!.length, wordA, wordB, k);
    ids[k] = k;
  }
  return textHashOfIds(ids, n, wordA, wordB);
}

/**
 * textHash of the token sequence ids[0..count), given each distinct token's word hash pair
 * (murmurWordInto) as wordA[id] / wordB[id]: equals textHash of the tokens' strings.
 */
export function textHashOfIds(ids: Int32Array, count: number, wordA: Uint32Array, wordB: Uint32Array): string {
  let h0: number = SEEDS[0];
  let h1: number = SEEDS[1];
  let h2: number = SEEDS[2];
  let h3: number = SEEDS[3];
  for (let k = 0; k < count; k++) {
    const id = ids[k]!;
    const x = wordA[id]!;
    const y = wordB[id]!;
    h0 = mixH(mixH(h0, x), y);
    h1 = mixH(mixH(h1, y), x);
    h2 = mixH(h2, x ^ Math.imul(y, 0x9e3779b1));
    h3 = mixH(h3, y ^ Math.imul(x, 0x7feb352d));
  }
  const n = count;
  // Cross-mix the lanes so each digit depends on all of them.
  h0 = (h0 ^ n) + h1 | 0;
  h1 = (h1 ^ n) + h2 | 0;
  h2 = (h2 ^ n) + h3 | 0;
  h3 = (h3 ^ n) + h0 | 0;
  return [h0, h1, h2, h3].map((h) => fmix32(h).toString(16).padStart(8, '0')).join('');
}
