import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RABIN_POLYNOMIAL, rabin64 } from '../../src/fingerprint/rabin-hash.js';

const P = (1n << 64n) | RABIN_POLYNOMIAL;
const degree = (a: bigint) => (a === 0n ? -1 : a.toString(2).length - 1);
function polyMod(a: bigint, m: bigint): bigint {
  const dm = degree(m);
  for (let d = degree(a); d >= dm; d = degree(a)) a ^= m << BigInt(d - dm);
  return a;
}
function mulMod(a: bigint, b: bigint, m: bigint): bigint {
  let r = 0n;
  for (; b !== 0n; b >>= 1n) {
    if ((b & 1n) === 1n) r ^= a;
    a = polyMod(a << 1n, m);
  }
  return polyMod(r, m);
}
function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, polyMod(a, b)];
  return a;
}

/** The text's code units as one polynomial, reduced mod P (BigInt, no tables). */
function referenceRabin(text: string): bigint {
  let v = 0n;
  for (let i = 0; i < text.length; i++) v = polyMod((v << 16n) | BigInt(text.charCodeAt(i)), P);
  return v;
}
const asBigInt = (fp: { hi: number; lo: number }) => (BigInt(fp.hi) << 32n) | BigInt(fp.lo);

describe('rabin64', () => {
  it('uses an irreducible polynomial of degree 64 (Ben-Or)', () => {
    let r = 2n; // the polynomial x
    for (let i = 0; i < 32; i++) r = mulMod(r, r, P);
    expect(gcd(P, r ^ 2n)).toBe(1n); // gcd(x^(2^32) − x, P) = 1
    for (let i = 32; i < 64; i++) r = mulMod(r, r, P);
    expect(r).toBe(2n); // x^(2^64) ≡ x (mod P)
  });

  it('equals the polynomial remainder computed with BigInt', () => {
    for (const text of ['', 'a', 'detec docu near', 'документ', '近重复 😀', 'x'.repeat(100)]) {
      expect(asBigInt(rabin64(text)), text).toBe(referenceRabin(text));
    }
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 64 }), (text) => {
      expect(asBigInt(rabin64(text))).toBe(referenceRabin(text));
    }), { numRuns: 200 });
  });

  it('is linear over GF(2): R(a ⊕ b) = R(a) ⊕ R(b) for equal lengths', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 1, maxLength: 30 }), fc.integer(), (units, seed) => {
      const other = units.map((u, i) => (u * 31 + seed + i) & 0xffff);
      const x = String.fromCharCode(...units.map((u, i) => u ^ other[i]!));
      const r = asBigInt(rabin64(String.fromCharCode(...units))) ^ asBigInt(rabin64(String.fromCharCode(...other)));
      expect(asBigInt(rabin64(x))).toBe(r);
    }), { numRuns: 100 });
  });

  it('returns uint32 halves', () => {
    const fp = rabin64('the quick brown fox');
    for (const half of [fp.hi, fp.lo]) {
      expect(Number.isInteger(half) && half >= 0 && half <= 0xffffffff).toBe(true);
    }
  });
});
