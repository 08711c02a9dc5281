/**
 * Bucket counts of the paired-block table: one count per bucket of every block, block after block.
 * Saved in the database (bucket_counts) so that opening builds the table in one pass.
 */
import { blockValue, type BlockLayout } from './block-layout.js';
import type { StoredRowFeed } from './candidate-table.js';

/** Buckets of a block are its top MAX_BUCKET_BITS bits (blocks of 32 bits share 2^20 buckets). */
export const MAX_BUCKET_BITS = 20;

/** Length of a layout's bucket-count array: one count per bucket of every block, block after block. */
export function bucketCountsLength(layout: BlockLayout): number {
  let total = 0;
  for (const width of layout.widths) total += 2 ** Math.min(width, MAX_BUCKET_BITS);
  return total;
}

/** Adds to `counts` (bucketCountsLength(layout) long) the bucket of every block of every row of `feed`. */
export function countRows(layout: BlockLayout, feed: StoredRowFeed, counts: Uint32Array): void {
  const nb = layout.count;
  const starts = Int32Array.from(layout.starts);
  const widths = Int32Array.from(layout.widths);
  const shifts = new Int32Array(nb);
  const bases = new Int32Array(nb);
  let base = 0;
  for (let b = 0; b < nb; b++) {
    const bits = Math.min(widths[b]!, MAX_BUCKET_BITS);
    shifts[b] = widths[b]! - bits;
    bases[b] = base;
    base += 2 ** bits;
  }
  if (counts.length !== base) throw new RangeError(`countRows: expected ${base} counts, got ${counts.length}`);
  feed((_id, hi, lo) => {
    for (let b = 0; b < nb; b++) counts[bases[b]! + (blockValue(hi, lo, starts[b]!, widths[b]!) >>> shifts[b]!)]!++;
  });
}
