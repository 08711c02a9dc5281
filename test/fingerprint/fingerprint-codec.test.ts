import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fingerprintFromBigInt, fingerprintFromHex, fingerprintToBigInt, fingerprintToHex, hammingDistance, popcount32,
} from '../../src/fingerprint/fingerprint-codec.js';

const u32 = fc.integer({ min: 0, max: 0xffffffff });
const fp = fc.record({ hi: u32, lo: u32 });

describe('fingerprint codec', () => {
  it('round-trips hex and signed BigInt', () => {
    fc.assert(fc.property(fp, (f) => {
      expect(fingerprintFromHex(fingerprintToHex(f))).toEqual(f);
      const b = fingerprintToBigInt(f);
      expect(b >= -(2n ** 63n) && b < 2n ** 63n).toBe(true);
      expect(fingerprintFromBigInt(b)).toEqual(f);
    }));
  });

  it('pins known values', () => {
    expect(fingerprintToHex({ hi: 0xffffffff, lo: 0 })).toBe('ffffffff00000000');
    expect(fingerprintToBigInt({ hi: 0xffffffff, lo: 0xffffffff })).toBe(-1n);
    expect(fingerprintToBigInt({ hi: 0x80000000, lo: 0 })).toBe(-(2n ** 63n));
  });

  it('counts bits like a naive loop', () => {
    fc.assert(fc.property(u32, (x) => {
      let n = 0;
      for (let i = 0; i < 32; i++) n += (x >>> i) & 1;
      expect(popcount32(x)).toBe(n);
    }));
    expect(hammingDistance({ hi: 0, lo: 0 }, { hi: 0xffffffff, lo: 0xffffffff })).toBe(64);
  });

  it.each(['', 'abc', '0123456789abcdeg', '0123456789abcdef0'])('rejects bad hex %j', (hex) => {
    expect(() => fingerprintFromHex(hex)).toThrow(/16 hex digits/);
  });
});
