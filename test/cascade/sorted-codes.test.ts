/** src/cascade/sorted-codes.ts: sorted distinct uint32 arrays in a Rice code of their gaps, counts in a gamma code. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BitReader, BitWriter, gammaBits, riceBits, riceParameter } from '../../src/cascade/sorted-codes.js';
import { seededRandom } from '../helpers/seeded-random.js';

const sortedDistinct = (values: readonly number[]) => Uint32Array.from([...new Set(values)].sort((a, b) => a - b));

/** `values` coded with parameter k (and `shift`) after `offset` bits of padding, then read back. */
function roundTrip(values: Uint32Array, k: number, shift = 0, offset = 0): { decoded: number[]; bits: number; written: number } {
  const bits = riceBits(values, k, shift);
  const words = new Uint32Array(Math.ceil((offset + bits) / 32));
  const writer = new BitWriter(words, offset);
  writer.rice(values, k, shift);
  const out = new Uint32Array(values.length);
  const reader = new BitReader(words, offset, offset + bits);
  reader.riceInto(out, 0, values.length, k, shift);
  expect(reader.pos).toBe(offset + bits);
  return { decoded: [...out], bits, written: writer.pos - offset };
}

describe('Rice-coded sorted arrays', () => {
  it('read back what was written, whatever the parameter, shift and starting bit', () => {
    const u32 = fc.integer({ min: 0, max: 0xffffffff });
    fc.assert(
      fc.property(fc.array(u32, { maxLength: 300 }), fc.integer({ min: -4, max: 4 }), fc.integer({ min: 0, max: 63 }), (raw, dk, offset) => {
        const values = sortedDistinct(raw);
        // A parameter off the mean gap's makes long unary runs (k smaller) or wasted bits (k larger): still exact.
        const k = Math.max(0, Math.min(31, riceParameter(values) + dk));
        const { decoded, bits, written } = roundTrip(values, k, 0, offset);
        expect(decoded).toEqual([...values]);
        expect(written).toBe(bits);
        expect(roundTrip(values, riceParameter(values)).decoded).toEqual([...values]);
      }),
      { numRuns: 300, seed: 4 },
    );
  });

  it('leaves out low bits that are 0 in every value, and puts them back', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2 ** 29 - 1 }), { maxLength: 300 }), (raw) => {
        const values = sortedDistinct(raw.map((x) => x * 8));
        const k = riceParameter(values, 3);
        expect(roundTrip(values, k, 3).decoded).toEqual([...values]);
        if (values.length > 0) expect(riceBits(values, k, 3)).toBeLessThan(riceBits(values, riceParameter(values)) + 1);
      }),
      { numRuns: 200, seed: 5 },
    );
  });

  it.each([
    ['empty', []],
    ['one value, 0', [0]],
    ['one value, the largest', [0xffffffff]],
    ['the smallest and the largest', [0, 0xffffffff]],
    ['a run, then a gap of nearly 2^32', [0, 1, 2, 3, 0xfffffffe, 0xffffffff]],
    ['every 16-bit value', Array.from({ length: 1 << 16 }, (_, i) => i)],
  ])('round-trips %s', (_name, raw) => {
    const values = Uint32Array.from(raw);
    const k = riceParameter(values);
    for (const kk of [k - 1, k, k + 1, 31].filter((x) => x >= 0 && x <= 31)) expect(roundTrip(values, kk, 0, 5).decoded).toEqual(raw);
  });

  it('round-trips the largest sampled shingle, 0xFFFFFFF8, shifted', () => {
    for (const raw of [[0xfffffff8], [0, 0xfffffff8], [8, 16, 0xfffffff0, 0xfffffff8]]) {
      const values = Uint32Array.from(raw);
      expect(roundTrip(values, riceParameter(values, 3), 3).decoded).toEqual(raw);
      expect(roundTrip(values, 20, 3).decoded).toEqual(raw);
    }
  });

  it('picks from the mean gap a parameter within a few bits a record of the best', () => {
    const random = seededRandom(7);
    for (const [count, range] of [[60, 2 ** 29], [64, 2 ** 26], [150, 2 ** 16], [2000, 2 ** 16], [5, 2 ** 32]] as const) {
      const values = sortedDistinct(Array.from({ length: count }, () => Math.floor(random() * range)));
      const best = Math.min(...Array.from({ length: 32 }, (_, k) => riceBits(values, k)));
      expect(riceBits(values, riceParameter(values))).toBeLessThanOrEqual(best + Math.max(8, 0.02 * best));
    }
    expect(riceParameter(new Uint32Array(0))).toBe(0);
    expect(riceParameter(Uint32Array.from([0, 1, 2]))).toBe(0);
  });

  it('refuses unsorted, repeated or unshiftable values', () => {
    const words = new Uint32Array(8);
    for (const [raw, shift] of [[[5, 3], 0], [[4, 4], 0], [[8, 12], 3]] as const) {
      expect(() => riceBits(Uint32Array.from(raw), 2, shift)).toThrow(RangeError);
      expect(() => new BitWriter(words).rice(Uint32Array.from(raw), 2, shift)).toThrow(RangeError);
    }
  });

  it('throws rather than read past the end of the bits', () => {
    const values = Uint32Array.from([3, 900, 70000]);
    const bits = riceBits(values, 2);
    const words = new Uint32Array(Math.ceil(bits / 32) + 1);
    new BitWriter(words).rice(values, 2);
    expect(() => new BitReader(words, 0, bits - 1).riceInto(new Uint32Array(3), 0, 3, 2)).toThrow(RangeError);
    // Zeroed words: a quotient that never ends.
    expect(() => new BitReader(new Uint32Array(4), 0, 128).riceInto(new Uint32Array(1), 0, 1, 3)).toThrow(RangeError);
  });
});

describe('gamma-coded counts', () => {
  it('read back what was written, in gammaBits bits each', () => {
    const values = [0, 1, 2, 3, 7, 8, 255, 65535, 65536, 2 ** 31 - 1, 2 ** 31, 0xfffffffe - 1, 0xfffffffe];
    const total = values.reduce((sum, v) => sum + gammaBits(v), 0);
    const words = new Uint32Array(Math.ceil((total + 3) / 32));
    const writer = new BitWriter(words, 3);
    for (const v of values) writer.gamma(v);
    expect(writer.pos).toBe(3 + total);
    const reader = new BitReader(words, 3, 3 + total);
    expect(values.map(() => reader.gamma())).toEqual(values);
    expect(gammaBits(0)).toBe(1);
    expect(gammaBits(1000)).toBe(19);
  });
});
