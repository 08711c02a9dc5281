/**
 * The block index for layouts of 2P blocks of at least 16 bits (k = 3: four 16-bit blocks; also k = 0
 * and k = 1: two 32-bit blocks), laid out so that a lookup reads memory in order instead of jumping
 * to a per-id array for every bucket neighbour (at 10M fingerprints that jump cost ~45 ns each, ~600
 * times per lookup).
 *
 * Blocks 0..P-1 are "primary": their buckets hold, per entry, the id and a 24-bit filter (the
 * fingerprint's halves XORed, folded to 24 bits). Blocks P..2P-1 are "secondary": their buckets hold
 * only the value of a partner primary block (block j's partner is block j - P).
 *
 * Lookup of q, for a stored c within distance k. By pigeonhole c agrees with q on some block i.
 * - i primary: c is in q's bucket of i; its filter differs from q's in at most k bits (XOR-folding never
 *   adds differing bits), so it is listed.
 * - i secondary: c is in q's bucket of i, with its partner block value v; v differs from q's partner
 *   block in at most k bits, so the lookup then scans the partner's bucket for v, where c sits with its
 *   id and filter, and lists it as above.
 * A random bucket neighbour passes the 24-bit filter with probability ~1.4e-4 at k = 3 and the 16-bit
 * partner test with ~1.1e-2; the caller checks every listed id against the stored fingerprint.
 *
 * Memory at k = 3: 6 bytes per primary entry, 2 per secondary entry: 16 bytes per fingerprint, plus a
 * sixteenth of headroom and a delta area of 1/32 (at least 131,072 entries). Recent additions sit in a delta area (per-block chains,
 * with whole fingerprints, checked exactly) until it fills and is merged in place into the sorted base.
 */
import { popcount32 } from '../fingerprint/fingerprint-codec.js';
import { blockValue, type BlockLayout } from './block-layout.js';
import type { CandidateTable, IdList, StoredRowFeed } from './candidate-table.js';

const MAX_BUCKET_BITS = 20;
const ID_24 = 2 ** 24;
/** Partner buckets remembered per lookup, so a bucket several secondary entries point to is read once. */
const SCANNED_MAX = 64;

/**
 * Recent additions held in the delta area before a merge: 1/32 of the table, at least 131,072 (a merge
 * moves the whole base, so a small delta area makes small tables merge too often; 131,072 slots are
 * 3.5 MB and chains of two per bucket at k = 3).
 */
function deltaCapacityFor(size: number, minimum: number): number {
  return Math.min(1 << 20, Math.max(minimum, size >>> 5));
}

/** Tuning of a PairedBlockTable (tests shrink the delta area to exercise merges). */
export interface PairedBlockTableOptions {
  /** Smallest delta area. @default 131072 */
  readonly minDeltaCapacity?: number;
}

/** The 24-bit filter of a fingerprint: hi XOR lo, bits 24..31 folded onto bits 0..7. */
function filter24(hi: number, lo: number): number {
  const fold = (hi ^ lo) >>> 0;
  return (fold ^ (fold >>> 24)) & 0xffffff;
}

/** True for layouts this table serves: an even number of blocks, each at least 16 bits wide. */
export function suitsPairedTable(layout: BlockLayout): boolean {
  return layout.count % 2 === 0 && layout.widths.every((w) => w >= 16);
}

export class PairedBlockTable implements CandidateTable {
  readonly #distance: number;
  readonly #blocks: number;
  readonly #primaries: number;
  readonly #starts: Int32Array;
  readonly #widths: Int32Array;
  readonly #shifts: Int32Array;
  readonly #bucketCounts: Int32Array;
  #size = 0;

  // Base area, per block: entries of bucket key at [offsets[key], offsets[key + 1]).
  readonly #offsets: Uint32Array[];
  // Primary blocks: id (16 + 8 (+ 8) bit planes) and filter (16 + 8 bit planes).
  #idLo: Uint16Array[] = [];
  #idHi: Uint8Array[] = [];
  #idTop: Uint8Array[] | null = null;
  #fLo: Uint16Array[] = [];
  #fHi: Uint8Array[] = [];
  // Secondary blocks (index j - P): the partner block's value.
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
    if (!suitsPairedTable(layout)) throw new Error('PairedBlockTable needs an even number of blocks of ≥ 16 bits');
    const nb = layout.count;
    this.#minDelta = options.minDeltaCapacity ?? 1 << 17;
    this.#distance = layout.distance;
    this.#blocks = nb;
    this.#primaries = nb / 2;
    this.#starts = Int32Array.from(layout.starts);
    this.#widths = Int32Array.from(layout.widths);
    this.#shifts = new Int32Array(nb);
    this.#bucketCounts = new Int32Array(nb);
    for (let b = 0; b < nb; b++) {
      const bits = Math.min(layout.widths[b]!, MAX_BUCKET_BITS);
      this.#shifts[b] = layout.widths[b]! - bits;
      this.#bucketCounts[b] = 2 ** bits;
    }
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
   * Builds the base from every stored row in two passes over `feed`: count per bucket, then place.
   * Placing straight at each entry's bucket would scatter writes over all of memory (a cache and TLB
   * miss per write at 10M rows), so the second pass appends each entry to its partition (the top bits
   * of its bucket key: 256 partitions of 256 buckets at k = 3, written like 256 sequential streams)
   * noting the key's low 8 bits, and each partition, small enough for the cache, is then sorted by them.
   */
  static build(layout: BlockLayout, feed: StoredRowFeed, options: PairedBlockTableOptions = {}): PairedBlockTable {
    const table = new PairedBlockTable(layout, options);
    const nb = table.#blocks;
    let n = 0;
    let maxId = 0;
    feed((id, hi, lo) => {
      for (let b = 0; b < nb; b++) table.#offsets[b]![table.#keyOf(b, hi, lo) + 1]!++;
      n++;
      if (id > maxId) maxId = id;
    });
    const deltaCapacity = deltaCapacityFor(n, table.#minDelta);
    table.#setDeltaCapacity(deltaCapacity);
    table.#allocate(n + 2 * deltaCapacity, maxId >= ID_24);
    const lowBits = table.#bucketCounts.map((count) => Math.min(8, Math.log2(count)));
    const cursors: Uint32Array[] = [];
    const lows: Uint8Array[] = [];
    for (let b = 0; b < nb; b++) {
      const offsets = table.#offsets[b]!;
      for (let key = 1; key < offsets.length; key++) offsets[key]! += offsets[key - 1]!;
      const partitions = table.#bucketCounts[b]! >>> lowBits[b]!;
      const cursor = new Uint32Array(partitions + 1);
      for (let part = 0; part <= partitions; part++) cursor[part] = offsets[part << lowBits[b]!]!;
      cursors.push(cursor);
      lows.push(new Uint8Array(n));
    }
    let placed = 0;
    feed((id, hi, lo) => {
      for (let b = 0; b < nb; b++) {
        const key = table.#keyOf(b, hi, lo);
        const part = key >>> lowBits[b]!;
        const cursor = cursors[b]!;
        const at = cursor[part]!;
        if (at >= table.#offsets[b]![(part + 1) << lowBits[b]!]!) {
          throw new Error('PairedBlockTable.build: the rows changed between the two passes');
        }
        cursor[part] = at + 1;
        lows[b]![at] = key & ((1 << lowBits[b]!) - 1);
        table.#write(b, at, id, hi, lo);
      }
      placed++;
    });
    if (placed !== n) throw new Error(`PairedBlockTable.build: ${n} rows in the first pass, ${placed} in the second`);
    for (let b = 0; b < nb; b++) table.#sortPartitions(b, lows[b]!, lowBits[b]!);
    table.#baseCount = n;
    table.#size = n;
    return table;
  }

  /** Sorts each partition of block b's base by the low key bits noted in `low` (a counting sort). */
  #sortPartitions(b: number, low: Uint8Array, bits: number): void {
    const offsets = this.#offsets[b]!;
    const planes = this.#planesOf(b);
    const partitions = this.#bucketCounts[b]! >>> bits;
    let largest = 0;
    for (let part = 0; part < partitions; part++) {
      largest = Math.max(largest, offsets[(part + 1) << bits]! - offsets[part << bits]!);
    }
    const dest = new Uint32Array(largest);
    const cursor = new Uint32Array(1 << bits);
    const scratch = planes.map((plane) => new (plane.constructor as new (n: number) => typeof plane)(largest));
    for (let part = 0; part < partitions; part++) {
      const first = part << bits;
      const start = offsets[first]!;
      const count = offsets[first + (1 << bits)]! - start;
      if (count < 2) continue;
      for (let l = 0; l < 1 << bits; l++) cursor[l] = offsets[first + l]! - start;
      for (let i = 0; i < count; i++) dest[i] = cursor[low[start + i]!]!++;
      for (let q = 0; q < planes.length; q++) {
        const plane = planes[q]!;
        const tmp = scratch[q]!;
        for (let i = 0; i < count; i++) tmp[dest[i]!] = plane[start + i]!;
        plane.set(tmp.subarray(0, count), start);
      }
    }
  }

  /** The typed arrays holding block b's base entries. */
  #planesOf(b: number): (Uint8Array | Uint16Array | Uint32Array)[] {
    if (b >= this.#primaries) return [this.#partner[b - this.#primaries]!];
    const planes: (Uint8Array | Uint16Array | Uint32Array)[] = [this.#idLo[b]!, this.#idHi[b]!, this.#fLo[b]!, this.#fHi[b]!];
    if (this.#idTop !== null) planes.push(this.#idTop[b]!);
    return planes;
  }

  get size(): number {
    return this.#size;
  }

  get byteLength(): number {
    let bytes = this.#deltaIds.byteLength * 3 + this.#scanned.byteLength;
    const arrays: ArrayBufferView[] = [
      ...this.#offsets, ...this.#heads, ...this.#perBucket, ...this.#next, ...this.#idLo, ...this.#idHi, ...this.#fLo,
      ...this.#fHi, ...this.#partner, ...(this.#idTop ?? []),
    ];
    for (const a of arrays) bytes += a.byteLength;
    return bytes;
  }

  add(id: number, hi: number, lo: number): void {
    if (id >= ID_24 && this.#idTop === null) this.#idTop = this.#idLo.map(() => new Uint8Array(this.#baseCapacity));
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
    const primaries = this.#primaries;
    const k = this.#distance;
    const f = filter24(hi, lo);
    const keys = this.#queryKeys;
    const values = this.#queryValues;
    for (let b = 0; b < nb; b++) {
      const value = blockValue(hi, lo, this.#starts[b]!, this.#widths[b]!);
      values[b] = value;
      keys[b] = value >>> this.#shifts[b]!;
    }
    for (let p = 0; p < primaries; p++) this.#scanPrimary(p, keys[p]!, f, out);
    let scanned = 0;
    for (let j = primaries; j < nb; j++) {
      const p = j - primaries;
      const partner = this.#partner[p]!;
      const own = values[p]!;
      const shift = this.#shifts[p]!;
      const ownKey = keys[p]!;
      const offsets = this.#offsets[j]!;
      const end = offsets[keys[j]! + 1]!;
      for (let i = offsets[keys[j]!]!; i < end; i++) {
        const v = partner[i]!;
        if (popcount32((v ^ own) >>> 0) > k) continue;
        const key = v >>> shift;
        if (key === ownKey) continue; // that bucket was scanned above
        const tag = p * 2 ** MAX_BUCKET_BITS + key;
        let seen = false;
        for (let s = 0; s < scanned; s++) if (this.#scanned[s] === tag) seen = true;
        if (seen) continue;
        if (scanned < SCANNED_MAX) this.#scanned[scanned++] = tag;
        this.#scanPrimary(p, key, f, out);
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

  #scanPrimary(p: number, key: number, f: number, out: IdList): void {
    const offsets = this.#offsets[p]!;
    const end = offsets[key + 1]!;
    const fLo = this.#fLo[p]!;
    const fHi = this.#fHi[p]!;
    const k = this.#distance;
    for (let i = offsets[key]!; i < end; i++) {
      if (popcount32(((fLo[i]! | (fHi[i]! << 16)) ^ f) >>> 0) <= k) {
        const top = this.#idTop === null ? 0 : this.#idTop[p]![i]! * ID_24;
        out.push(top + (this.#idLo[p]![i]! | (this.#idHi[p]![i]! << 16)));
      }
    }
  }

  #keyOf(block: number, hi: number, lo: number): number {
    return blockValue(hi, lo, this.#starts[block]!, this.#widths[block]!) >>> this.#shifts[block]!;
  }

  /** Writes the entry of (id, hi, lo) at position `at` of block `b`'s base. */
  #write(b: number, at: number, id: number, hi: number, lo: number): void {
    const primaries = this.#primaries;
    if (b < primaries) {
      this.#idLo[b]![at] = id & 0xffff;
      this.#idHi[b]![at] = (id >>> 16) & 0xff;
      if (this.#idTop !== null) this.#idTop[b]![at] = id >>> 24;
      const f = filter24(hi, lo);
      this.#fLo[b]![at] = f & 0xffff;
      this.#fHi[b]![at] = f >>> 16;
    } else {
      const p = b - primaries;
      this.#partner[p]![at] = blockValue(hi, lo, this.#starts[p]!, this.#widths[p]!);
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

  /** (Re)allocates the base planes for `capacity` entries per block, keeping the base entries. */
  #allocate(capacity: number, wide: boolean): void {
    const keep = this.#baseCount;
    const grow = <T extends Uint8Array | Uint16Array | Uint32Array>(old: T | undefined, make: (n: number) => T): T => {
      const fresh = make(capacity);
      if (old !== undefined) fresh.set(old.subarray(0, keep) as never);
      return fresh;
    };
    const primaries = this.#primaries;
    const idLo: Uint16Array[] = [];
    const idHi: Uint8Array[] = [];
    const fLo: Uint16Array[] = [];
    const fHi: Uint8Array[] = [];
    const partner: (Uint16Array | Uint32Array)[] = [];
    const idTop: Uint8Array[] | null = wide || this.#idTop !== null ? [] : null;
    for (let p = 0; p < primaries; p++) {
      idLo.push(grow(this.#idLo[p], (n) => new Uint16Array(n)));
      idHi.push(grow(this.#idHi[p], (n) => new Uint8Array(n)));
      fLo.push(grow(this.#fLo[p], (n) => new Uint16Array(n)));
      fHi.push(grow(this.#fHi[p], (n) => new Uint8Array(n)));
      if (idTop !== null) idTop.push(grow(this.#idTop?.[p], (n) => new Uint8Array(n)));
      const wideValues = this.#widths[p]! > 16;
      partner.push(
        wideValues
          ? grow(this.#partner[p] as Uint32Array | undefined, (n) => new Uint32Array(n))
          : grow(this.#partner[p] as Uint16Array | undefined, (n) => new Uint16Array(n)),
      );
    }
    this.#idLo = idLo;
    this.#idHi = idHi;
    this.#fLo = fLo;
    this.#fHi = fHi;
    this.#idTop = idTop;
    this.#partner = partner;
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
function spreadPlane(
  plane: Uint8Array | Uint16Array | Uint32Array, offsets: Uint32Array, perBucket: Uint32Array, baseCount: number, added: number,
): void {
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
