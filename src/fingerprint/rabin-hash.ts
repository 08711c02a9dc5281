/**
 * Rabin fingerprint (Rabin 1981; Broder 1993): the text as a polynomial over GF(2), reduced modulo
 * a fixed irreducible polynomial P of degree 64. The text is read as its UTF-16 code units, 16 bits
 * each, most significant first. Table-driven: each code unit costs two lookups of 256-entry tables
 * (the 16 bits shifted out above degree 64 are reduced by linearity as (a·x^72 mod P) ⊕ (b·x^64 mod P)).
 * Arithmetic is on two uint32 halves; BigInt is used only to build the tables at load.
 */
import type { Fingerprint } from '../types.js';

/**
 * P = x^64 + (this constant's bits). Chosen by a fixed pseudo-random search and checked irreducible
 * (Ben-Or's test: x^(2^64) ≡ x mod P and gcd(x^(2^32) − x, P) = 1), as Rabin's scheme asks for a
 * random irreducible polynomial; the test suite re-checks it.
 */
export const RABIN_POLYNOMIAL = 0xbf2c90a7f4441895n;

function mulXmod(value: bigint, times: number): bigint {
  const mask = (1n << 64n) - 1n;
  let v = value;
  for (let i = 0; i < times; i++) {
    const carry = (v >> 63n) & 1n;
    v = (v << 1n) & mask;
    if (carry === 1n) v ^= RABIN_POLYNOMIAL;
  }
  return v;
}

/** TA[a] = a·x^72 mod P, TB[b] = b·x^64 mod P, as hi/lo halves. */
const TABLES = (() => {
  const taHi = new Uint32Array(256);
  const taLo = new Uint32Array(256);
  const tbHi = new Uint32Array(256);
  const tbLo = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    // i·x^64 mod P: start from i·x^56 (degree < 64) and multiply by x eight times.
    const b = mulXmod(BigInt(i) << 56n, 8);
    const a = mulXmod(b, 8);
    tbHi[i] = Number(b >> 32n);
    tbLo[i] = Number(b & 0xffffffffn);
    taHi[i] = Number(a >> 32n);
    taLo[i] = Number(a & 0xffffffffn);
  }
  return { taHi, taLo, tbHi, tbLo };
})();

/** Internal to the fingerprint modules: the hot loop of fingerprintWords inlines these tables. */
export const RABIN_TABLES: {
  readonly taHi: Uint32Array;
  readonly taLo: Uint32Array;
  readonly tbHi: Uint32Array;
  readonly tbLo: Uint32Array;
} = TABLES;

/** Rabin fingerprint of a string's UTF-16 code units, as two uint32 halves. */
export function rabin64(text: string): Fingerprint {
  const { taHi, taLo, tbHi, tbLo } = TABLES;
  let hi = 0;
  let lo = 0;
  for (let i = 0; i < text.length; i++) {
    const top = hi >>> 16;
    hi = ((hi << 16) | (lo >>> 16)) >>> 0;
    lo = ((lo << 16) | text.charCodeAt(i)) >>> 0;
    const a = top >>> 8;
    const b = top & 0xff;
    hi = (hi ^ taHi[a]! ^ tbHi[b]!) >>> 0;
    lo = (lo ^ taLo[a]! ^ tbLo[b]!) >>> 0;
  }
  return { hi, lo };
}
