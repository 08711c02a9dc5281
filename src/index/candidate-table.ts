/**
 * The in-memory side of the index: given a fingerprint, which stored documents may lie within
 * distance k of it. SQLite stays the source of truth; a table is built from it on first use and kept
 * in step with it (see FingerprintIndex). A table may answer with a few extra ids (the caller checks
 * every candidate against the stored fingerprint) but never leaves out one within distance k.
 */
import { BlockTable } from './block-table.js';
import type { BlockLayout } from './block-layout.js';
import { LinearTable } from './linear-table.js';
import { PairedBlockTable, suitsPairedTable } from './paired-block-table.js';

/** Calls `visit` once for every stored document, in ascending id order. */
export type StoredRowFeed = (visit: (id: number, hi: number, lo: number) => void) => void;

/** A set of stored fingerprints that can list the candidates near a query. */
export interface CandidateTable {
  /** Number of stored fingerprints held. */
  readonly size: number;
  /** Bytes held in typed arrays. */
  readonly byteLength: number;
  /** Adds a stored fingerprint. Ids are positive integers below 2^32, each added once. */
  add(id: number, hi: number, lo: number): void;
  /** Appends to `out` every stored id that may be within the layout's distance of (hi, lo). */
  candidates(hi: number, lo: number, out: IdList): void;
}

/** A reusable, growable list of distinct ids (no allocation per lookup). */
export class IdList {
  ids: Uint32Array;
  count = 0;

  constructor(initialCapacity = 64) {
    this.ids = new Uint32Array(initialCapacity);
  }

  clear(): void {
    this.count = 0;
  }

  /** Adds an id unless present. Lists stay short (true matches plus rare filter passes), so a scan is fine. */
  push(id: number): void {
    const ids = this.ids;
    const n = this.count;
    for (let i = 0; i < n; i++) if (ids[i] === id) return;
    if (n === ids.length) {
      const grown = new Uint32Array(n * 2);
      grown.set(ids);
      this.ids = grown;
    }
    this.ids[n] = id;
    this.count = n + 1;
  }
}

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
