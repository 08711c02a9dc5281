/**
 * The block index in memory, in typed arrays only (no JS object per fingerprint).
 *
 * For each of the k + 1 blocks (see block-layout.ts) the stored ids are bucketed by the block's value
 * (its top 20 bits when wider): a sorted "base" area in CSR form (offsets per bucket, ids packed as
 * 16 + 8 (+ 8) bit planes) and a small "delta" area of chained recent additions, merged into the base
 * once it fills. A lookup scans the k + 1 buckets its own block values select; by pigeonhole every
 * stored fingerprint within k sits in at least one of them.
 *
 * Memory: the table does not hold whole fingerprints. Per stored id it keeps a 32-bit fold
 * (hi XOR lo); popcount(fold(a) XOR fold(b)) ≤ distance(a, b), so the fold rejects almost every bucket
 * neighbour that is not a match (a random one passes with probability ~1.3e-6 at k = 3) without
 * keeping 8 bytes per fingerprint. The caller checks the few survivors against the stored fingerprint.
 * About 3 bytes per block per id plus 4 bytes of fold: ~16 bytes per fingerprint at k = 3.
 */
import { popcount32 } from '../fingerprint/fingerprint-codec.js';
import { blockValue, type BlockLayout } from './block-layout.js';
import type { CandidateTable, StoredRowFeed } from './candidate-table.js';
import type { IdList } from './id-list.js';

/** Buckets per block are capped at 2^20 (blocks wider than 20 bits are bucketed by their top 20 bits). */
const MAX_BUCKET_BITS = 20;
/** Ids below this fit the 16 + 8 bit planes; larger ids add a third plane. */
const ID_24 = 2 ** 24;

/** How many recent additions the delta area holds before a merge (a sixteenth of the table). */
function deltaCapacityFor(size: number): number {
  return Math.min(1 << 20, Math.max(4096, size >>> 4));
}

export class BlockTable implements CandidateTable {
  readonly #distance: number;
  readonly #blocks: number;
  readonly #starts: Int32Array;
  readonly #widths: Int32Array;
  /** Right shift from a block value to its bucket. */
  readonly #shifts: Int32Array;
  readonly #bucketCounts: Int32Array;

  /** fold[id] = (hi ^ lo) >>> 0 for every stored id. */
  #fold: Uint32Array;
  #size = 0;

  // Base area, per block: ids of bucket key are at [offsets[key], offsets[key + 1]).
  readonly #offsets: Uint32Array[];
  #lo16: Uint16Array[];
  #hi8: Uint8Array[];
  /** Bits 31..24 of ids, allocated once an id reaches 2^24. */
  #top8: Uint8Array[] | null = null;
  #baseCount = 0;
  #baseCapacity = 0;

  // Delta area: per block, heads[key] = 1 + newest slot of the bucket, next[slot] = 1 + older slot (0 ends).
  #deltaIds: Uint32Array;
  readonly #heads: Uint32Array[];
  #next: Uint32Array[];
  readonly #perBucket: Uint32Array[];
  #deltaCount = 0;
  #deltaCapacity: number;

  constructor(layout: BlockLayout, expectedIds = 0) {
    this.#distance = layout.distance;
    const nb = layout.count;
    this.#blocks = nb;
    this.#starts = Int32Array.from(layout.starts);
    this.#widths = Int32Array.from(layout.widths);
    this.#shifts = new Int32Array(nb);
    this.#bucketCounts = new Int32Array(nb);
    for (let b = 0; b < nb; b++) {
      const bits = Math.min(layout.widths[b]!, MAX_BUCKET_BITS);
      this.#shifts[b] = layout.widths[b]! - bits;
      this.#bucketCounts[b] = 2 ** bits;
    }
    this.#fold = new Uint32Array(expectedIds + 1);
    this.#offsets = [];
    this.#heads = [];
    this.#perBucket = [];
    this.#lo16 = [];
    this.#hi8 = [];
    this.#next = [];
    this.#deltaCapacity = deltaCapacityFor(0);
    this.#deltaIds = new Uint32Array(this.#deltaCapacity);
    for (let b = 0; b < nb; b++) {
      const buckets = this.#bucketCounts[b]!;
      this.#offsets.push(new Uint32Array(buckets + 1));
      this.#heads.push(new Uint32Array(buckets));
      this.#perBucket.push(new Uint32Array(buckets));
      this.#lo16.push(new Uint16Array(0));
      this.#hi8.push(new Uint8Array(0));
      this.#next.push(new Uint32Array(this.#deltaCapacity));
    }
  }

  /**
   * Builds the base area from every stored row in two passes over `feed` (count per bucket, then
   * place), so that no temporary copy of the fingerprints is needed. Both passes must give the same rows.
   */
  static build(layout: BlockLayout, feed: StoredRowFeed, maxIdHint: number): BlockTable {
    const table = new BlockTable(layout, maxIdHint + deltaCapacityFor(maxIdHint));
    const nb = table.#blocks;
    let n = 0;
    let maxId = 0;
    feed((id, hi, lo) => {
      table.#ensureIdCapacity(id);
      table.#fold[id] = (hi ^ lo) >>> 0;
      for (let b = 0; b < nb; b++) table.#offsets[b]![table.#keyOf(b, hi, lo) + 1]!++;
      n++;
      if (id > maxId) maxId = id;
    });
    const deltaCapacity = deltaCapacityFor(n);
    table.#setDeltaCapacity(deltaCapacity);
    table.#allocatePlanes(n + deltaCapacity, maxId >= ID_24);
    const cursors: Uint32Array[] = [];
    for (let b = 0; b < nb; b++) {
      const offsets = table.#offsets[b]!;
      for (let key = 1; key < offsets.length; key++) offsets[key]! += offsets[key - 1]!;
      cursors.push(offsets.slice(0, offsets.length - 1));
    }
    let placed = 0;
    feed((id, hi, lo) => {
      for (let b = 0; b < nb; b++) {
        const key = table.#keyOf(b, hi, lo);
        const at = cursors[b]![key]!;
        if (at >= table.#offsets[b]![key + 1]!) throw new Error('BlockTable.build: the rows changed between the two passes');
        cursors[b]![key] = at + 1;
        table.#writeId(b, at, id);
      }
      placed++;
    });
    if (placed !== n) throw new Error(`BlockTable.build: ${n} rows in the first pass, ${placed} in the second`);
    table.#baseCount = n;
    table.#size = n;
    return table;
  }

  get size(): number {
    return this.#size;
  }

  get byteLength(): number {
    let bytes = this.#fold.byteLength + this.#deltaIds.byteLength;
    for (let b = 0; b < this.#blocks; b++) {
      bytes += this.#offsets[b]!.byteLength + this.#heads[b]!.byteLength + this.#perBucket[b]!.byteLength;
      bytes += this.#lo16[b]!.byteLength + this.#hi8[b]!.byteLength + this.#next[b]!.byteLength;
      if (this.#top8 !== null) bytes += this.#top8[b]!.byteLength;
    }
    return bytes;
  }

  add(id: number, hi: number, lo: number): void {
    this.#ensureIdCapacity(id);
    this.#fold[id] = (hi ^ lo) >>> 0;
    if (id >= ID_24 && this.#top8 === null) this.#top8 = this.#lo16.map(() => new Uint8Array(this.#baseCapacity));
    const slot = this.#deltaCount;
    this.#deltaIds[slot] = id;
    for (let b = 0; b < this.#blocks; b++) {
      const key = this.#keyOf(b, hi, lo);
      const heads = this.#heads[b]!;
      this.#next[b]![slot] = heads[key]!;
      heads[key] = slot + 1;
      this.#perBucket[b]![key]!++;
    }
    this.#deltaCount = slot + 1;
    this.#size++;
    if (this.#deltaCount === this.#deltaCapacity) this.#merge();
  }

  candidates(hi: number, lo: number, out: IdList): void {
    const fold = this.#fold;
    const f = (hi ^ lo) >>> 0;
    const k = this.#distance;
    const top8 = this.#top8;
    const deltaIds = this.#deltaIds;
    for (let b = 0; b < this.#blocks; b++) {
      const key = this.#keyOf(b, hi, lo);
      const offsets = this.#offsets[b]!;
      const end = offsets[key + 1]!;
      const lo16 = this.#lo16[b]!;
      const hi8 = this.#hi8[b]!;
      if (top8 === null) {
        for (let i = offsets[key]!; i < end; i++) {
          const id = lo16[i]! | (hi8[i]! << 16);
          if (popcount32((fold[id]! ^ f) >>> 0) <= k) out.push(id);
        }
      } else {
        const top = top8[b]!;
        for (let i = offsets[key]!; i < end; i++) {
          const id = (lo16[i]! | (hi8[i]! << 16) | (top[i]! << 24)) >>> 0;
          if (popcount32((fold[id]! ^ f) >>> 0) <= k) out.push(id);
        }
      }
      const next = this.#next[b]!;
      for (let s = this.#heads[b]![key]!; s !== 0; s = next[s - 1]!) {
        const id = deltaIds[s - 1]!;
        if (popcount32((fold[id]! ^ f) >>> 0) <= k) out.push(id);
      }
    }
  }

  #keyOf(block: number, hi: number, lo: number): number {
    return blockValue(hi, lo, this.#starts[block]!, this.#widths[block]!) >>> this.#shifts[block]!;
  }

  #writeId(block: number, at: number, id: number): void {
    this.#lo16[block]![at] = id & 0xffff;
    this.#hi8[block]![at] = (id >>> 16) & 0xff;
    if (this.#top8 !== null) this.#top8[block]![at] = id >>> 24;
  }

  #ensureIdCapacity(id: number): void {
    if (id < this.#fold.length) return;
    const grown = new Uint32Array(Math.max(id + 1, Math.ceil(this.#fold.length * 1.25) + 4096));
    grown.set(this.#fold);
    this.#fold = grown;
  }

  #setDeltaCapacity(capacity: number): void {
    if (capacity !== this.#deltaCapacity) {
      this.#deltaCapacity = capacity;
      this.#deltaIds = new Uint32Array(capacity);
      this.#next = this.#next.map(() => new Uint32Array(capacity));
    }
  }

  /** (Re)allocates the base planes with room for `capacity` ids per block, keeping the base entries. */
  #allocatePlanes(capacity: number, wide: boolean): void {
    const keep = this.#baseCount;
    const wantTop = wide || this.#top8 !== null;
    const lo16: Uint16Array[] = [];
    const hi8: Uint8Array[] = [];
    const top8: Uint8Array[] | null = wantTop ? [] : null;
    for (let b = 0; b < this.#blocks; b++) {
      const l = new Uint16Array(capacity);
      l.set(this.#lo16[b]!.subarray(0, keep));
      lo16.push(l);
      const h = new Uint8Array(capacity);
      h.set(this.#hi8[b]!.subarray(0, keep));
      hi8.push(h);
      if (top8 !== null) {
        const t = new Uint8Array(capacity);
        if (this.#top8 !== null) t.set(this.#top8[b]!.subarray(0, keep));
        top8.push(t);
      }
    }
    this.#lo16 = lo16;
    this.#hi8 = hi8;
    this.#top8 = top8;
    this.#baseCapacity = capacity;
  }

  /**
   * Moves the delta entries into the base, in place: buckets only grow, so walking them from the last
   * to the first and moving each right never overwrites an entry not yet moved.
   */
  #merge(): void {
    const added = this.#deltaCount;
    const total = this.#baseCount + added;
    if (this.#baseCapacity < total) this.#allocatePlanes(total + 4 * deltaCapacityFor(total), false);
    const top8 = this.#top8;
    for (let b = 0; b < this.#blocks; b++) {
      const offsets = this.#offsets[b]!;
      const perBucket = this.#perBucket[b]!;
      const heads = this.#heads[b]!;
      const next = this.#next[b]!;
      const lo16 = this.#lo16[b]!;
      const hi8 = this.#hi8[b]!;
      const top = top8 === null ? null : top8[b]!;
      let shift = added;
      let oldEnd = this.#baseCount;
      for (let key = this.#bucketCounts[b]! - 1; key >= 0; key--) {
        const oldStart = offsets[key]!;
        const newEnd = oldEnd + shift;
        shift -= perBucket[key]!;
        if (shift !== 0) {
          for (let i = oldEnd - 1; i >= oldStart; i--) {
            lo16[i + shift] = lo16[i]!;
            hi8[i + shift] = hi8[i]!;
            if (top !== null) top[i + shift] = top[i]!;
          }
        }
        // The chain runs newest first; writing it from the end keeps ids ascending within the bucket.
        let at = newEnd - 1;
        for (let s = heads[key]!; s !== 0; s = next[s - 1]!) {
          const id = this.#deltaIds[s - 1]!;
          lo16[at] = id & 0xffff;
          hi8[at] = (id >>> 16) & 0xff;
          if (top !== null) top[at] = id >>> 24;
          at--;
        }
        offsets[key + 1] = newEnd;
        oldEnd = oldStart;
      }
      heads.fill(0);
      perBucket.fill(0);
    }
    this.#baseCount = total;
    this.#deltaCount = 0;
    const deltaCapacity = deltaCapacityFor(total);
    this.#setDeltaCapacity(deltaCapacity);
    if (this.#baseCapacity < total + deltaCapacity) this.#allocatePlanes(total + 4 * deltaCapacity, false);
  }
}
