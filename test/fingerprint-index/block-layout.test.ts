import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { fingerprintToBigInt } from '../../src/fingerprint/fingerprint-codec.js';
import { blockLayout, blockValue, blocksOf } from '../../src/fingerprint-index/block-layout.js';
import { flipBits } from './index-test-helpers.js';

const u32 = fc.integer({ min: 0, max: 0xffffffff });
const fp = fc.record({ hi: u32, lo: u32 });

/** Reference: the bits [start, start + width) of the unsigned 64-bit value, counted from the top. */
function referenceBlock(hi: number, lo: number, start: number, width: number): number {
  const u = BigInt.asUintN(64, fingerprintToBigInt({ hi, lo }));
  return Number((u >> BigInt(64 - start - width)) & ((1n << BigInt(width)) - 1n));
}

describe('blockLayout', () => {
  it.each([
    [0, [32, 32]],
    [1, [32, 32]],
    [2, [22, 21, 21]],
    [3, [16, 16, 16, 16]],
    [5, [11, 11, 11, 11, 10, 10]],
    [7, [8, 8, 8, 8, 8, 8, 8, 8]],
  ])('k = %i cuts 64 bits into %j', (k, widths) => {
    const layout = blockLayout(k);
    expect(layout.widths).toEqual(widths);
    expect(layout.count).toBe(widths.length);
    expect(layout.starts[0]).toBe(0);
    for (let i = 1; i < layout.count; i++) expect(layout.starts[i]).toBe(layout.starts[i - 1]! + layout.widths[i - 1]!);
  });

  it('gives k + 1 blocks adding up to 64 bits for every k ≥ 1', () => {
    for (let k = 1; k <= 31; k++) {
      const layout = blockLayout(k);
      expect(layout.count).toBe(k + 1);
      expect(layout.widths.reduce((a, b) => a + b, 0)).toBe(64);
      expect(Math.max(...layout.widths) - Math.min(...layout.widths)).toBeLessThanOrEqual(1);
    }
  });

  it.each([[-1], [32], [1.5], ['3'], [null], [Number.NaN]])('refuses distance %j', (bad) => {
    expect(() => blockLayout(bad as number)).toThrow(ValidationError);
    expect(() => blockLayout(bad as number)).toThrow(/Expected `distance` to be an integer 0–31/);
  });
});

describe('blockValue / blocksOf', () => {
  it('matches a BigInt reference for every layout', () => {
    fc.assert(
      fc.property(fp, fc.integer({ min: 0, max: 31 }), ({ hi, lo }, k) => {
        const layout = blockLayout(k);
        for (let i = 0; i < layout.count; i++) {
          const start = layout.starts[i]!;
          const width = layout.widths[i]!;
          expect(blockValue(hi, lo, start, width)).toBe(referenceBlock(hi, lo, start, width));
        }
      }),
    );
  });

  it('pins the four 16-bit blocks of k = 3', () => {
    expect(blocksOf({ hi: 0x12345678, lo: 0x9abcdef0 }, 3)).toEqual([0x1234, 0x5678, 0x9abc, 0xdef0]);
    expect(blocksOf({ hi: 0xffffffff, lo: 0 }, 0)).toEqual([0xffffffff, 0]);
  });

  it('k = 5 gives six blocks', () => {
    expect(blocksOf({ hi: 0xffffffff, lo: 0xffffffff }, 5)).toEqual([2047, 2047, 2047, 2047, 1023, 1023]);
  });

  it('pigeonhole: any ≤ k flips leave at least one block unchanged', () => {
    fc.assert(
      fc.property(fp, fc.integer({ min: 0, max: 31 }), fc.uniqueArray(fc.integer({ min: 0, max: 63 }), { maxLength: 31 }), (f, k, flips) => {
        const positions = flips.slice(0, k);
        const a = blocksOf(f, k);
        const b = blocksOf(flipBits(f, positions), k);
        expect(a.some((value, i) => value === b[i])).toBe(true);
      }),
    );
  });
});
