/**
 * The block index for layouts whose blocks are 16 or 32 bits wide (k = 3: four 16-bit blocks; k = 0
 * and k = 1: two 32-bit blocks), laid out so that a lookup reads memory in order instead of jumping
 * to a per-id array for every bucket neighbour (at 10M fingerprints that jump cost ~45 ns each, ~600
 * times per lookup).
 *
 * Block 0 is the "primary": its buckets hold, per entry, the id and a 24-bit filter (the fingerprint
 * without its bucket-key bits, XOR-folded to 24 bits). Every other block is "secondary", paired with
 * the primary: its buckets hold only the entry's block-0 value.
 *
 * Lookup of q, for a stored c within distance k. By pigeonhole c agrees with q on some block i.
 * - i = 0: c is in q's primary bucket; outside the bucket key the two differ in at most k bits, and
 *   XOR-folding never adds differing bits, so c's filter differs from q's in at most k bits: listed.
 * - i secondary: c is in q's bucket of block i, with its block-0 value v; v differs from q's block 0 in
 *   d0 ≤ k bits, so the lookup scans the primary bucket of v, where c sits with its id and filter.
 *   Every entry of that bucket differs from q in at least dKey bits of the key (the bits where the
 *   bucket's key and q's differ), so c's filter differs from q's in at most k - dKey bits: listed.
 * A random bucket neighbour passes the filter with probability ≤ ~1.4e-4 at k = 3 (~1.8e-5 in a partner
 * bucket, where dKey ≥ 1) and the 16-bit partner test with ~1.1e-2; the caller checks every listed id
 * against the stored fingerprint.
 *
 * Memory at k = 3: 6 bytes per primary entry, 2 per secondary entry: 12 bytes per fingerprint, plus
 * room for two delta areas (1/64 each, at least 131,072 entries). Recent additions sit in the delta
 * area (per-block chains, with whole fingerprints, checked exactly) until it fills and is merged in
 * place into the sorted base.
 */
import { BucketCountsMismatchError } from '../errors.js';
import { popcount32 } from '../fingerprint/fingerprint-codec.js';
import { blockValue, type BlockLayout } from './block-layout.js';
import type { CandidateTable, StoredRowFeed } from './candidate-table.js';
import type { IdList } from './id-list.js';
import { MAX_BUCKET_BITS, bucketCountsLength, countRows } from './bucket-counts.js';
import { growPlane, type Plane } from './growable-plane.js';

const ID_24 = 2 ** 24;
/** Partner buckets remembered per lookup, so a bucket several secondary entries point to is read once. */
const SCANNED_MAX = 64;
/** Rows buffered by the build's placing pass, sorted by bucket before being written (bounded scratch). */
const PLACE_CHUNK = 1 << 16;

/**
 * Recent additions held in the delta area before a merge: 1/64 of the table, at least 131,072 (a merge
 * moves the whole base, so a small delta area makes small tables merge too often; 131,072 slots are
 * 3.5 MB and chains of two per bucket at k = 3). A slot and its room in the base cost ~52 bytes, so
 * 1/64 is ~0.8 bytes per fingerprint; a merge moves the base (~120 MB at 10M) once per 1/64 of growth.
 */
function deltaCapacityFor(size: number, minimum: number): number {
  return Math.min(1 << 20, Math.max(minimum, size >>> 6));
}

/** Tuning of a PairedBlockTable (tests shrink the delta area to exercise merges). */
export interface PairedBlockTableOptions {
  /** Smallest delta area. @default 131072 */
  readonly minDeltaCapacity?: number;
  /**
   * Bucket counts of exactly the rows `feed` will visit (see countRows), to build in one pass over the
   * feed instead of two. Counts that do not match the rows make build throw BucketCountsMismatchError.
   */
  readonly counts?: Uint32Array;
}

/** True for layouts this table serves: at least two blocks, each 16 or 32 bits wide (k = 0, 1, 3). */
export function suitsPairedTable(layout: BlockLayout): boolean {
  return layout.count >= 2 && layout.widths.every((w) => w === 16 || w === 32);
}


export class PairedBlockTable implements CandidateTable {
  readonly #distance: number;
  readonly #blocks: number;
  readonly #starts: Int32Array;
  readonly #widths: Int32Array;
  readonly #shifts: Int32Array;
  readonly #bucketCounts: Int32Array;
  /** Bits of hi outside the primary bucket key (the key is the top bits of block 0, which starts at bit 0). */
  readonly #filterMask: number;
  readonly #wideValues: boolean;
  #size = 0;

  // Base area, per block: entries of bucket key at [offsets[key], offsets[key + 1]).
  readonly #offsets: Uint32Array[];
  // Primary block: id (16 + 8 (+ 8) bit planes) and filter (16 + 8 bit planes).
  #idLo: Uint16Array = new Uint16Array(0);
  #idHi: Uint8Array = new Uint8Array(0);
  #idTop: Uint8Array | null = null;
  #fLo: Uint16Array = new Uint16Array(0);
  #fHi: Uint8Array = new Uint8Array(0);
  // Secondary blocks (index j - 1): the entry's block-0 value.
  #partner: (Uint16Array | Uint32Array)[] = [];
  #baseCount = 0;
  #baseCapacity = 0;

  // Delta area: whole fingerprints, chained per block bucket (heads[key] = 1 + newest slot, next[slot] = 1 + older).
  #deltaIds: Uint32Array;
  #deltaHi: Uint32Array;
  #deltaLo: Uint32Array;
  readonly #heads: Uint32Array[];
  #next: Uint32Array[];
  readonly #perBucket: Uint32Array[];
  #deltaCount = 0;
  #deltaCapacity: number;

  // Per-lookup scratch (no allocation per lookup).
  readonly #queryKeys: Int32Array;
  readonly #queryValues: Float64Array;
  readonly #scanned = new Int32Array(SCANNED_MAX);
  readonly #minDelta: number;

  constructor(layout: BlockLayout, options: PairedBlockTableOptions = {}) {
    if (!suitsPairedTable(layout)) throw new Error('PairedBlockTable needs blocks of 16 or 32 bits');
    const nb = layout.count;
    this.#minDelta = options.minDeltaCapacity ?? 1 << 17;
    this.#distance = layout.distance;
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
    this.#filterMask = 0xffffffff >>> (this.#widths[0]! - this.#shifts[0]!);
    this.#wideValues = this.#widths[0]! > 16;
    this.#offsets = [];
    this.#heads = [];
    this.#perBucket = [];
    this.#next = [];
    this.#deltaCapacity = deltaCapacityFor(0, this.#minDelta);
    this.#deltaIds = new Uint32Array(this.#deltaCapacity);
    this.#deltaHi = new Uint32Array(this.#deltaCapacity);
    this.#deltaLo = new Uint32Array(this.#deltaCapacity);
    for (let b = 0; b < nb; b++) {
      this.#offsets.push(new Uint32Array(this.#bucketCounts[b]! + 1));
      this.#heads.push(new Uint32Array(this.#bucketCounts[b]!));
      this.#perBucket.push(new Uint32Array(this.#bucketCounts[b]!));
      this.#next.push(new Uint32Array(this.#deltaCapacity));
    }
    this.#queryKeys = new Int32Array(nb);
    this.#queryValues = new Float64Array(nb);
    this.#allocate(0, false);
  }

  /**
   * Builds the base from every stored row in two passes over `feed`: count per bucket, then place (one
   * pass when `options.counts` gives the counts already, as saved from bucketCounts() of an earlier table).
   * Placing each entry straight at its bucket would scatter writes over all of memory (a cache and TLB
   * miss per write at 10M rows), so the second pass buffers 65,536 rows at a time, sorts them by bucket
   * (a counting sort) and writes them in address order. Scratch memory stays under 2 MB whatever the size.
   */
  static build(layout: BlockLayout, feed: StoredRowFeed, options: PairedBlockTableOptions = {}): PairedBlockTable {
    const table = new PairedBlockTable(layout, options);
    const nb = table.#blocks;
    const counts = options.counts ?? new Uint32Array(bucketCountsLength(layout));
    if (options.counts === undefined) countRows(layout, feed, counts);
    else if (counts.length !== bucketCountsLength(layout)) {
      throw new BucketCountsMismatchError(`${counts.length} bucket counts for a layout of ${bucketCountsLength(layout)} buckets`);
    }
    let n = -1;
    let base = 0;
    for (let b = 0; b < nb; b++) {
      const offsets = table.#offsets[b]!;
      for (let key = 0; key < table.#bucketCounts[b]!; key++) offsets[key + 1] = offsets[key]! + counts[base + key]!;
      base += table.#bucketCounts[b]!;
      const rows = offsets[offsets.length - 1]!;
      if (n !== -1 && rows !== n) throw new BucketCountsMismatchError(`bucket counts of ${n} rows in block 0, ${rows} in block ${b}`);
      n = rows;
    }
    // Ids of 2^24 and above need the third id plane; the rows are not known yet, so it is added on the first such id.
    const deltaCapacity = deltaCapacityFor(n, table.#minDelta);
    table.#setDeltaCapacity(deltaCapacity);
    table.#allocate(n + 2 * deltaCapacity, false);
    const cursors: Uint32Array[] = [];
    for (let b = 0; b < nb; b++) cursors.push(table.#offsets[b]!.slice(0, table.#offsets[b]!.length - 1));
    const chunk = Math.min(PLACE_CHUNK, Math.max(1, n));
    const ids = new Uint32Array(chunk);
    const his = new Uint32Array(chunk);
    const los = new Uint32Array(chunk);
    const keys = new Uint32Array(chunk);
    const order = new Uint32Array(chunk);
    const sortCounts = new Uint32Array(Math.max(...table.#bucketCounts) + 1);
    let buffered = 0;
    let placed = 0;
    const flush = () => {
      for (let b = 0; b < nb; b++) table.#placeSorted(b, ids, his, los, buffered, keys, order, sortCounts, cursors[b]!);
      placed += buffered;
      buffered = 0;
    };
    feed((id, hi, lo) => {
      if (id >= ID_24 && table.#idTop === null) table.#idTop = new Uint8Array(table.#baseCapacity);
      ids[buffered] = id;
      his[buffered] = hi;
      los[buffered] = lo;
      if (++buffered === chunk) flush();
    });
    if (buffered > 0) flush();
    if (placed !== n) throw new BucketCountsMismatchError(`bucket counts of ${n} rows, ${placed} rows placed`);
    table.#baseCount = n;
    table.#size = n;
    return table;
  }

  /** Writes `count` buffered rows into block b's base, sorted by bucket (stable, so ids stay in feed order). */
  #placeSorted(
    b: number, ids: Uint32Array, his: Uint32Array, los: Uint32Array, count: number, keys: Uint32Array, order: Uint32Array,
    counts: Uint32Array, cursor: Uint32Array,
  ): void {
    const buckets = this.#bucketCounts[b]!;
    counts.fill(0, 0, buckets + 1);
    for (let i = 0; i < count; i++) {
      const key = this.#keyOf(b, his[i]!, los[i]!);
      keys[i] = key;
      counts[key + 1]!++;
    }
    for (let key = 1; key <= buckets; key++) counts[key]! += counts[key - 1]!;
    for (let i = 0; i < count; i++) order[counts[keys[i]!]!++] = i;
    const offsets = this.#offsets[b]!;
    for (let j = 0; j < count; j++) {
      const i = order[j]!;
      const key = keys[i]!;
      const at = cursor[key]!;
      if (at >= offsets[key + 1]!) throw new BucketCountsMismatchError(`more rows than counted in bucket ${key} of block ${b}`);
      cursor[key] = at + 1;
      this.#write(b, at, ids[i]!, his[i]!, los[i]!);
    }
  }

  /** The typed arrays holding block b's base entries. */
  #planesOf(b: number): Plane[] {
    if (b > 0) return [this.#partner[b - 1]!];
    const planes: Plane[] = [this.#idLo, this.#idHi, this.#fLo, this.#fHi];
    if (this.#idTop !== null) planes.push(this.#idTop);
    return planes;
  }

  get size(): number {
    return this.#size;
  }

  /** Bucket counts of every fingerprint held (as countRows gives for them), for a later one-pass build. */
  bucketCounts(): Uint32Array {
    const counts = new Uint32Array(this.#bucketCounts.reduce((sum, buckets) => sum + buckets, 0));
    let base = 0;
    for (let b = 0; b < this.#blocks; b++) {
      const offsets = this.#offsets[b]!;
      const perBucket = this.#perBucket[b]!;
      for (let key = 0; key < this.#bucketCounts[b]!; key++) counts[base + key] = offsets[key + 1]! - offsets[key]! + perBucket[key]!;
      base += this.#bucketCounts[b]!;
    }
    return counts;
  }

  get byteLength(): number {
    let bytes = this.#deltaIds.byteLength * 3 + this.#scanned.byteLength;
    const arrays: ArrayBufferView[] = [...this.#offsets, ...this.#heads, ...this.#perBucket, ...this.#next];
    for (let b = 0; b < this.#blocks; b++) arrays.push(...this.#planesOf(b));
    for (const a of arrays) bytes += a.byteLength;
    return bytes;
  }

  add(id: number, hi: number, lo: number): void {
    if (id >= ID_24 && this.#idTop === null) this.#idTop = new Uint8Array(this.#baseCapacity);
    const slot = this.#deltaCount;
    this.#deltaIds[slot] = id;
    this.#deltaHi[slot] = hi;
    this.#deltaLo[slot] = lo;
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
    const nb = this.#blocks;
    const k = this.#distance;
    const f = this.#filterOf(hi, lo);
    const keys = this.#queryKeys;
    const values = this.#queryValues;
    for (let b = 0; b < nb; b++) {
      const value = blockValue(hi, lo, this.#starts[b]!, this.#widths[b]!);
      values[b] = value;
      keys[b] = value >>> this.#shifts[b]!;
    }
    const own = values[0]!;
    const ownKey = keys[0]!;
    const shift = this.#shifts[0]!;
    this.#scanPrimary(ownKey, f, k, out);
    let scanned = 0;
    for (let j = 1; j < nb; j++) {
      const partner = this.#partner[j - 1]!;
      const offsets = this.#offsets[j]!;
      const end = offsets[keys[j]! + 1]!;
      for (let i = offsets[keys[j]!]!; i < end; i++) {
        const v = partner[i]!;
        if (popcount32((v ^ own) >>> 0) > k) continue;
        const key = v >>> shift;
        if (key === ownKey) continue; // that bucket was scanned above
        let seen = false;
        for (let s = 0; s < scanned; s++) if (this.#scanned[s] === key) seen = true;
        if (seen) continue;
        if (scanned < SCANNED_MAX) this.#scanned[scanned++] = key;
        this.#scanPrimary(key, f, k - popcount32((key ^ ownKey) >>> 0), out);
      }
    }
    const deltaHi = this.#deltaHi;
    const deltaLo = this.#deltaLo;
    for (let b = 0; b < nb; b++) {
      const next = this.#next[b]!;
      for (let s = this.#heads[b]![keys[b]!]!; s !== 0; s = next[s - 1]!) {
        const d = popcount32((deltaHi[s - 1]! ^ hi) >>> 0) + popcount32((deltaLo[s - 1]! ^ lo) >>> 0);
        if (d <= k) out.push(this.#deltaIds[s - 1]!);
      }
    }
  }

  /** Lists the entries of primary bucket `key` whose filter differs from `f` in at most `limit` bits. */
  #scanPrimary(key: number, f: number, limit: number, out: IdList): void {
    const offsets = this.#offsets[0]!;
    const end = offsets[key + 1]!;
    const fLo = this.#fLo;
    const fHi = this.#fHi;
    for (let i = offsets[key]!; i < end; i++) {
      if (popcount32(((fLo[i]! | (fHi[i]! << 16)) ^ f) >>> 0) <= limit) {
        const top = this.#idTop === null ? 0 : this.#idTop[i]! * ID_24;
        out.push(top + (this.#idLo[i]! | (this.#idHi[i]! << 16)));
      }
    }
  }

  /** The 24-bit filter: the fingerprint without the primary key bits, XOR-folded (bits 24..31 onto 0..7). */
  #filterOf(hi: number, lo: number): number {
    const rest = ((hi & this.#filterMask) ^ lo) >>> 0;
    return (rest ^ (rest >>> 24)) & 0xffffff;
  }

  #keyOf(block: number, hi: number, lo: number): number {
    return blockValue(hi, lo, this.#starts[block]!, this.#widths[block]!) >>> this.#shifts[block]!;
  }

  /** Writes the entry of (id, hi, lo) at position `at` of block `b`'s base. */
  #write(b: number, at: number, id: number, hi: number, lo: number): void {
    if (b === 0) {
      this.#idLo[at] = id & 0xffff;
      this.#idHi[at] = (id >>> 16) & 0xff;
      if (this.#idTop !== null) this.#idTop[at] = id >>> 24;
      const f = this.#filterOf(hi, lo);
      this.#fLo[at] = f & 0xffff;
      this.#fHi[at] = f >>> 16;
    } else {
      this.#partner[b - 1]![at] = blockValue(hi, lo, this.#starts[0]!, this.#widths[0]!);
    }
  }

  #setDeltaCapacity(capacity: number): void {
    if (capacity === this.#deltaCapacity) return;
    this.#deltaCapacity = capacity;
    this.#deltaIds = new Uint32Array(capacity);
    this.#deltaHi = new Uint32Array(capacity);
    this.#deltaLo = new Uint32Array(capacity);
    this.#next = this.#next.map(() => new Uint32Array(capacity));
  }

  /**
   * (Re)allocates the base planes for `capacity` entries per block, keeping the base entries. Planes
   * sit in growable buffers that reserve (address space only) room to grow, so growing a large table
   * extends each plane in place instead of holding an old and a new copy of every plane at once (which
   * would add the whole table again, ~130 MB at 10M, to the peak RSS until a garbage collection).
   */
  #allocate(capacity: number, wide: boolean): void {
    const keep = this.#baseCount;
    this.#idLo = growPlane(this.#idLo, Uint16Array, capacity, keep);
    this.#idHi = growPlane(this.#idHi, Uint8Array, capacity, keep);
    this.#fLo = growPlane(this.#fLo, Uint16Array, capacity, keep);
    this.#fHi = growPlane(this.#fHi, Uint8Array, capacity, keep);
    if (wide || this.#idTop !== null) this.#idTop = growPlane(this.#idTop, Uint8Array, capacity, keep);
    for (let j = 1; j < this.#blocks; j++) {
      const old = this.#partner[j - 1] ?? null;
      this.#partner[j - 1] = this.#wideValues
        ? growPlane(old as Uint32Array | null, Uint32Array, capacity, keep)
        : growPlane(old as Uint16Array | null, Uint16Array, capacity, keep);
    }
    this.#baseCapacity = capacity;
  }

  /**
   * Moves the delta entries into the base, in place: buckets only grow, so walking them from the last
   * to the first and moving each right never overwrites an entry not yet moved.
   */
  #merge(): void {
    const added = this.#deltaCount;
    const total = this.#baseCount + added;
    if (this.#baseCapacity < total) this.#allocate(total + 4 * deltaCapacityFor(total, this.#minDelta), false);
    for (let b = 0; b < this.#blocks; b++) {
      const offsets = this.#offsets[b]!;
      const perBucket = this.#perBucket[b]!;
      const heads = this.#heads[b]!;
      const next = this.#next[b]!;
      for (const plane of this.#planesOf(b)) spreadPlane(plane, offsets, perBucket, this.#baseCount, added);
      // New offsets, then each bucket's chain written at the end of its widened range (the chain runs
      // newest first; writing it from the end keeps ids ascending within the bucket).
      let shift = 0;
      for (let key = 0; key < perBucket.length; key++) {
        shift += perBucket[key]!;
        const newEnd = offsets[key + 1]! + shift;
        offsets[key + 1] = newEnd;
        let at = newEnd - 1;
        for (let s = heads[key]!; s !== 0; s = next[s - 1]!) {
          this.#write(b, at, this.#deltaIds[s - 1]!, this.#deltaHi[s - 1]!, this.#deltaLo[s - 1]!);
          at--;
        }
      }
      heads.fill(0);
      perBucket.fill(0);
    }
    this.#baseCount = total;
    this.#deltaCount = 0;
    const deltaCapacity = deltaCapacityFor(total, this.#minDelta);
    // Growing by four delta areas at a time: a reallocation copies every plane, so not at every merge.
    this.#setDeltaCapacity(deltaCapacity);
    if (this.#baseCapacity < total + deltaCapacity) this.#allocate(total + 4 * deltaCapacity, false);
  }
}

/**
 * Moves the base entries of one plane right, in place, leaving room after each bucket for its new
 * entries (`perBucket[key]`). Buckets only grow, so walking from the last bucket to the first never
 * overwrites an entry not yet moved. One loop per plane keeps the element accesses monomorphic.
 */
function spreadPlane(plane: Plane, offsets: Uint32Array, perBucket: Uint32Array, baseCount: number, added: number): void {
  let shift = added;
  let oldEnd = baseCount;
  for (let key = perBucket.length - 1; key >= 0 && shift > 0; key--) {
    const oldStart = offsets[key]!;
    shift -= perBucket[key]!;
    if (shift !== 0) {
      if (oldEnd - oldStart > 64) plane.copyWithin(oldStart + shift, oldStart, oldEnd);
      else for (let i = oldEnd - 1; i >= oldStart; i--) plane[i + shift] = plane[i]!;
    }
    oldEnd = oldStart;
  }
}
