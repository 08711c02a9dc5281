/** Fingerprints at exact distances for tests. */
import type { Fingerprint } from '../../src/types.js';

/**
 * `fp` with the given bit positions flipped. Bit order: position 0 is the most significant bit of
 * the 64-bit value (bit 31 of `hi`), 63 the least significant (bit 0 of `lo`) — the order the
 * index's blocks are cut in (src/fingerprint-index/block-layout.ts), so positions 0–15 are block 0
 * at k = 3.
 */
export function flipBits(fp: Fingerprint, positions: readonly number[]): Fingerprint {
  let { hi, lo } = fp;
  for (const p of positions) {
    if (p < 32) hi = (hi ^ (1 << (31 - p))) >>> 0;
    else lo = (lo ^ (1 << (63 - p))) >>> 0;
  }
  return { hi, lo };
}
