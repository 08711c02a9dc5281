/**
 * How a 64-bit fingerprint is cut into blocks for the index (Manku et al. 2007, simplest case).
 *
 * Invariant (pigeonhole): if two fingerprints differ in at most k bits, and the 64 bits are cut into
 * k + 1 disjoint blocks, at least one block holds none of the differing bits, so the two agree exactly
 * on that block. A lookup therefore only has to look at stored fingerprints sharing one of its blocks.
 *
 * Blocks are numbered from the most significant bit. 64 bits do not always split evenly: the first
 * `64 mod (k+1)` blocks are one bit wider (k = 5: 11, 11, 11, 11, 10, 10). k = 0 uses two 32-bit blocks
 * instead of one 64-bit block, so that every block value fits a 32-bit number (pigeonhole holds for any
 * number of blocks ≥ k + 1).
 */
import { assertDistance } from '../fingerprint/fingerprint-params.js';
import type { Fingerprint } from '../types.js';

/** Where each block of a fingerprint lies. */
export interface BlockLayout {
  /** The near-duplicate distance k the layout serves. */
  readonly distance: number;
  /** Number of blocks: k + 1 (2 for k = 0). */
  readonly count: number;
  /** First bit of each block, counted from the most significant bit (0 = bit 63). */
  readonly starts: readonly number[];
  /** Width of each block in bits; the widths add up to 64 and none exceeds 32. */
  readonly widths: readonly number[];
}

/** The block layout for distance k. */
export function blockLayout(distance: number): BlockLayout {
  assertDistance(distance);
  const count = Math.max(distance + 1, 2);
  const base = Math.floor(64 / count);
  const wider = 64 % count;
  const starts: number[] = [];
  const widths: number[] = [];
  let start = 0;
  for (let i = 0; i < count; i++) {
    const width = i < wider ? base + 1 : base;
    starts.push(start);
    widths.push(width);
    start += width;
  }
  return { distance, count, starts, widths };
}

/**
 * The value of the bits [start, start + width) of the fingerprint (bit 0 = most significant),
 * as an unsigned integer. `width` is 1–32.
 */
export function blockValue(hi: number, lo: number, start: number, width: number): number {
  // Shifts and masks only (no `2 ** n`, which compiles to a Math.pow call in this hot path).
  const end = start + width;
  if (end <= 32) return ((hi >>> (32 - end)) & (0xffffffff >>> (32 - width))) >>> 0;
  if (start >= 32) return ((lo >>> (64 - end)) & (0xffffffff >>> (32 - width))) >>> 0;
  // The block straddles the two halves: its top bits are the low bits of `hi`. width ≤ 32, so the
  // shifted value fits 32 bits; >>> 0 reads it back as unsigned.
  const lowBits = end - 32;
  return (((hi & (0xffffffff >>> start)) << lowBits) | (lo >>> (32 - lowBits))) >>> 0;
}

/** The k + 1 block values of a fingerprint for distance k (see the module comment for k = 0). */
export function blocksOf(fingerprint: Fingerprint, distance: number): number[] {
  return blocksIn(fingerprint, blockLayout(distance));
}

/** The block values of a fingerprint under a layout. */
export function blocksIn(fingerprint: Fingerprint, layout: BlockLayout): number[] {
  const out: number[] = [];
  for (let i = 0; i < layout.count; i++) out.push(blockValue(fingerprint.hi, fingerprint.lo, layout.starts[i]!, layout.widths[i]!));
  return out;
}
