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
  const a = new Uint32Array(1);
  const b = new Uint32Array(1);
  let h0: number = SEEDS[0];
  let h1: number = SEEDS[1];
  let h2: number = SEEDS[2];
  let h3: number = SEEDS[3];
  for (const token of tokens) {
    murmurWordInto(token, 0, token.length, a, b, 0);
    const x = a[0]!;
    const y = b[0]!;
    h0 = mixH(mixH(h0, x), y);
    h1 = mixH(mixH(h1, y), x);
    h2 = mixH(h2, x ^ Math.imul(y, 0x9e3779b1));
    h3 = mixH(h3, y ^ Math.imul(x, 0x7feb352d));
  }
  const n = tokens.length;
  // Cross-mix the lanes so each digit depends on all of them.
  h0 = (h0 ^ n) + h1 | 0;
  h1 = (h1 ^ n) + h2 | 0;
  h2 = (h2 ^ n) + h3 | 0;
  h3 = (h3 ^ n) + h0 | 0;
  return [h0, h1, h2, h3].map((h) => fmix32(h).toString(16).padStart(8, '0')).join('');
}
