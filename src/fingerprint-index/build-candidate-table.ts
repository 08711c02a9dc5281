/** Picks the in-memory candidate table that suits a block layout and builds it. */
import { BlockTable } from './block-table.js';
import type { BlockLayout } from './block-layout.js';
import type { CandidateTable, StoredRowFeed } from './candidate-table.js';
import { LinearTable } from './linear-table.js';
import { PairedBlockTable, suitsPairedTable } from './paired-block-table.js';

/**
 * Blocks narrower than this give buckets too coarse to beat a linear scan (k ≥ 8): such layouts use
 * a LinearTable.
 */
export const MIN_BLOCK_WIDTH = 8;

/**
 * Builds the table that suits the layout from every stored row (`feed` may be called twice):
 * PairedBlockTable for k = 0, 1, 3 (blocks of 16 or 32 bits; 12 bytes per fingerprint at k = 3, reads memory in order),
 * BlockTable for the other k up to 7, LinearTable beyond.
 */
export function buildCandidateTable(layout: BlockLayout, feed: StoredRowFeed, maxIdHint: number): CandidateTable {
  if (suitsPairedTable(layout)) return PairedBlockTable.build(layout, feed);
  const narrowest = Math.min(...layout.widths);
  if (narrowest < MIN_BLOCK_WIDTH) return LinearTable.build(layout, feed);
  return BlockTable.build(layout, feed, maxIdHint);
}
