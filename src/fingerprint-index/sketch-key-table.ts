/**
 * The second stage's candidate table: each stored document is filed under its `keys` smallest
 * sketch values (shingle-sketch.ts); a lookup lists the documents filed under enough of the query's
 * keys. Two documents whose feature sets have Jaccard J share their smallest value with probability
 * J, so near copies meet here whatever their simhash distance; unrelated documents share a 32-bit
 * key with probability ~keys² / 2³² (scripts/measure-second-stage.ts chose this over multi-probing
 * the 16-bit block tables: probing 65 or 2,081 neighbours of a fingerprint reached distance 4 or 5
 * only, and blocks matched exactly reached 79/88 re-templated and 73/88 edited copies, where 8
 * sketch keys reached 87 and 88).
 *
 * Filed by pairs (issue 25): with `minShared` ≥ 2 (the default rule: 2 of 8) a document is filed
 * under a key made of each pair of its `keys` smallest values, and a lookup reads the documents under
 * the query's pairs. A document sharing s of the keys meets the query on s·(s−1)/2 pairs, so "shares
 * at least minShared keys" is "meets on at least minShared·(minShared−1)/2 pairs", exactly the old
 * rule — but every list can be read whole. Single keys had to be cut (the 32 newest documents of a
 * key were read): a corpus that reuses sentences files hundreds of documents under a popular value,
 * and a copy filed early was never found again (80 of 4,000 planted copies in issue 25's corpus). A
 * pair of values is popular only where two documents share much text; and the fingerprint filter
 * below drops the unrelated ones before anything is read from SQLite. Cost: keys·(keys−1)/2 entries a
 * document instead of keys (28 at 8 keys: ~0.45 KB a document in memory instead of ~180 bytes).
 * With `minShared` 1 documents are filed under single values, read whole too.
 *
 * Each document's fingerprint is kept beside it (8 bytes), so a lookup drops the candidates beyond
 * the second stage's distance K before anyone reads their sketches from SQLite: documents made of
 * shared paragraphs meet on keys ~20 times a lookup (scripts/bench-dedup.ts), and ~97% of those lie
 * beyond K, where verifySimilar would refuse them anyway.
 *
 * Runs (issue 25, cost at scale): a key's chain is read newest first, and on a corpus that shares
 * text a lookup walks thousands of entries. A linked list of entries and a read of each document's
 * fingerprint were two random reads an entry; so entries are filed into a linked list (recent
 * entries) and, whenever those pass an eighth of the rest (RECENT_SHARE), compacted: each key's
 * chain is copied, in the same order, into one contiguous run of (document, fingerprint hi, lo)
 * triples. A walk then reads its run sequentially and tests the distance there; only documents
 * within K touch their counter. On 100,000 documents of issue 25's corpus (scripts/measure-key-table.ts
 * --walk) lookups went from ~166 to ~105 µs and filing from ~5 to ~10 µs a document (compaction copies
 * each entry ~9 times over a run: O(1) amortized). A compaction holds the old runs and the new at once
 * (~12 bytes an entry more, until the old are collected): peak RSS of `neardup dedup` on that corpus
 * rose by ~35 MB.
 *
 * Memory, at `keys` = 8: a run's entry is 12 bytes, a recent one (document index, next entry) 8 bytes
 * (at most an eighth of the entries, plus slack); a distinct key's slot (key, head) is 8 bytes at a
 * load of 0.5–0.75; a document is 20 bytes (id, fingerprint, a lookup's stamp and count). On that
 * corpus, with the bound's prefixes (131 bytes): ~655 bytes a document (~599 with linked entries only).
 * Tables grow by half (the slots and documents sized to what the caller reserves when it knows, see
 * reserve()), never doubling past what is needed; runs are allocated at their exact size.
 *
 * In memory only, like the block tables: SQLite (the stored sketches) is the source of truth and
 * the table is rebuilt from it on open and kept in step inside each write transaction. Entries live
 * in typed arrays (a chain per key, newest first); no object per document.
 */
import { popcount32 } from '../fingerprint/fingerprint-codec.js';
import { maxSlack, prefixMayBeSimilar, type SketchPrefix } from '../fingerprint/sketch-prefix-bound.js';
import type { VerifyThresholds } from '../fingerprint/verify-similar.js';
import type { IdList } from './id-list.js';

/** Options of a SketchKeyTable. */
export interface SketchKeyTableOptions {
  /** Smallest sketch values each document is filed under. @default 8 */
  readonly keys?: number;
  /** Keys a candidate must share with the query; ≥ 2 files documents by pairs of keys. @default 2 */
  readonly minShared?: number;
  /**
   * With the second stage's thresholds: each document's first PREFIX sketch values are kept, and a
   * lookup drops a candidate they show verifySimilar cannot confirm (sketch-prefix-bound.ts).
   */
  readonly verify?: VerifyThresholds | undefined;
}

/**
 * Sketch values kept per document for the bound (128 bytes). On issue 25's corpus (60,000 documents
 * made by scripts/make-corpus.ts) a lookup at 50,000 documents met ~120 candidates within K, ~0.2 of
 * them confirmed, each read from SQLite (~19 µs); 24 known values let ~21 through, 32 let 1.3: two
 * unrelated sketches interleave, so 32 known values settle ~60 of the Jaccard walk's 64 steps, and
 * hold far more misses than containment allows (3 of 64).
 */
export const PREFIX = 32;

/** The key of a pair of sketch values (a before b; a === b for a one-value sketch). @internal (exported for the tests) */
export function pairKey(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ b;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Slots are rehashed above this load (linear probing stays short up to ~0.75). */
const MAX_LOAD = 0.75;
/** ... to this load (growth by half). */
const REHASH_LOAD = 0.5;
/** reserve() sizes the slots for this load when every reserved key is distinct (an upper bound). */
const RESERVE_LOAD = 0.7;
const MIN_CAPACITY = 1024;
/** A chain link at or above this is a run (RUN + its offset in #runs); below, a recent entry's index + 1. */
const RUN = 0x80000000;
/** Marks the last entry of a run (on its document index, which stays below 2³¹). */
const LAST = 0x80000000;
/** Recent entries are compacted into runs when they would pass this share of the entries in runs ... */
const RECENT_SHARE = 0.125;
/** ... or this many, whichever is more. */
const MIN_RECENT = 4096;

/** The slot a key starts probing at, in [0, capacity): a mixed key scaled to the capacity (any capacity, not only powers of two). */
function slotOf(key: number, capacity: number): number {
  let h = Math.imul(key ^ (key >>> 16), 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return Math.floor(((h >>> 0) / 4294967296) * capacity);
}

function grown<T extends Uint32Array | Int32Array>(array: T, capacity: number, keep: number): T {
  const out = new (array.constructor as new (n: number) => T)(capacity);
  out.set(array.subarray(0, keep));
  return out;
}

export class SketchKeyTable {
  readonly keys: number;
  readonly minShared: number;
  /** Filed by pairs of values (minShared ≥ 2) rather than by single values. */
  readonly #pairs: boolean;
  // Open-addressing table of distinct keys → head entry (entry index + 1; 0 = empty slot), interleaved
  // (slot s: key at 2s, head at 2s + 1) so that a probe touches one cache line, not two.
  #slots = new Uint32Array(2 * MIN_CAPACITY);
  #capacity = MIN_CAPACITY;
  #distinctKeys = 0;
  // Recent entries (filed since the last compaction), interleaved (entry e: its document's index at
  // 2e, the next (older) entry under the same key at 2e + 1: a recent entry as index + 1, a run as
  // RUN + offset, 0 = none).
  #entryPairs = new Uint32Array(2 * MIN_CAPACITY);
  #entries = 0;
  // Runs: each key's compacted entries, contiguous and newest first, with their documents'
  // fingerprints (triples document, hi, lo; the run's last document marked with LAST), so a walk
  // reads sequential memory and only documents within the distance touch #docs. A key's chain is its
  // recent entries, then at most one run (the oldest entries).
  #runs = new Uint32Array(0);
  #runEntries = 0;
  // Documents, in the order added (ascending ids): the id apart (read only for a candidate), and
  // interleaved what a lookup reads per entry — fingerprint hi and lo, and the per-lookup counter:
  // keys found, valid where the stamp is the lookup's (a generation stamp, so nothing is cleared
  // between lookups and nothing is hashed). Document d: hi, lo, stamp, count at 4d .. 4d + 3.
  #docIds = new Uint32Array(MIN_CAPACITY);
  #docs = new Uint32Array(4 * MIN_CAPACITY);
  #documents = 0;
  #stamp = 0;
  /** With `verify`: document d's first values at PREFIX·d (#prefixKnown[d] of them) and its sketch's length. */
  readonly #verify: VerifyThresholds | undefined;
  readonly #slack: Int32Array;
  #prefixes = new Uint32Array(0);
  #prefixKnown = new Uint8Array(0);
  #sketchLengths = new Uint16Array(0);
  /** The prefix handed to the bound (one object, its fields set per candidate). */
  readonly #prefix: { values: Uint32Array; start: number; known: number; length: number } = { values: new Uint32Array(0), start: 0, known: 0, length: 0 };
  /** Candidates the bound dropped, for the benchmarks. */
  dropped = 0;

  constructor(options: SketchKeyTableOptions = {}) {
    this.keys = options.keys ?? 8;
    this.minShared = options.minShared ?? 2;
    this.#pairs = this.minShared >= 2;
    this.#verify = options.verify;
    this.#slack = options.verify === undefined ? new Int32Array(0) : Int32Array.from({ length: options.verify.sketchSize + 1 }, (_, n) => maxSlack(options.verify!.containment, n));
    if (options.verify !== undefined) {
      this.#prefixes = new Uint32Array(PREFIX * MIN_CAPACITY);
      this.#prefixKnown = new Uint8Array(MIN_CAPACITY);
      this.#sketchLengths = new Uint16Array(MIN_CAPACITY);
    }
    for (const [name, value] of [['keys', this.keys], ['minShared', this.minShared]] as const) {
      if (!Number.isInteger(value) || value < 1) throw new RangeError(`Expected \`${name}\` to be a positive integer, got ${String(value)}`);
    }
  }

  /** Documents added. */
  get size(): number {
    return this.#documents;
  }

  /** Bytes held in typed arrays. */
  get byteLength(): number {
    return this.#slots.byteLength + this.#entryPairs.byteLength + this.#runs.byteLength + this.#docIds.byteLength + this.#docs.byteLength
      + this.#prefixes.byteLength + this.#prefixKnown.byteLength + this.#sketchLengths.byteLength;
  }

  /**
   * Makes room for `documents` documents in all (each with `keys` values, all distinct: an upper
   * bound), so that a table built from a known number of rows is allocated once.
   */
  reserve(documents: number): void {
    if (documents > this.#docIds.length) this.#growDocuments(documents);
    const entries = documents * this.#entriesFor(this.keys);
    if (entries > MAX_LOAD * this.#capacity) this.#rehash(Math.ceil(entries / RESERVE_LOAD));
  }

  /**
   * Files document `id` (ids ascending from call to call), of fingerprint (hi, lo), under the first
   * `keys` values of its sketch (ascending, distinct). `sketch` may be the sketch's first values only
   * (at least `keys` and PREFIX of them, or all), `length` the whole sketch's.
   */
  add(id: number, sketch: Uint32Array, hi = 0, lo = 0, length = sketch.length): void {
    const n = Math.min(this.keys, sketch.length);
    const entries = this.#entriesFor(n);
    if (this.#documents === this.#docIds.length) this.#growDocuments(this.#documents + 1);
    if (this.#entries + entries > Math.max(MIN_RECENT, this.#runEntries * RECENT_SHARE)) this.#compact();
    if (2 * (this.#entries + entries) > this.#entryPairs.length) this.#growEntries(this.#entries + entries);
    if (this.#distinctKeys + entries > MAX_LOAD * this.#capacity) this.#rehash(Math.ceil((this.#distinctKeys + entries) / REHASH_LOAD));
    const doc = this.#documents++;
    this.#docIds[doc] = id;
    this.#docs[4 * doc] = hi;
    this.#docs[4 * doc + 1] = lo;
    if (this.#verify !== undefined) {
      const known = Math.min(PREFIX, sketch.length);
      this.#prefixes.set(sketch.subarray(0, known), PREFIX * doc);
      this.#prefixKnown[doc] = known;
      this.#sketchLengths[doc] = length;
    }
    if (!this.#pairs) {
      for (let i = 0; i < n; i++) this.#file(sketch[i]!, doc);
    } else if (n === 1) {
      this.#file(pairKey(sketch[0]!, sketch[0]!), doc);
    } else {
      for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) this.#file(pairKey(sketch[i]!, sketch[j]!), doc);
    }
  }

  /** Entries a document of n keys is filed under. */
  #entriesFor(n: number): number {
    return this.#pairs ? Math.max(1, (n * (n - 1)) / 2) : n;
  }

  #file(key: number, doc: number): void {
    const slot = this.#findSlot(key);
    if (this.#slots[2 * slot + 1] === 0) {
      this.#slots[2 * slot] = key;
      this.#distinctKeys++;
    }
    const entry = this.#entries++;
    this.#entryPairs[2 * entry] = doc;
    this.#entryPairs[2 * entry + 1] = this.#slots[2 * slot + 1]!;
    this.#slots[2 * slot + 1] = entry + 1;
  }

  /**
   * Adds to `out` the documents filed under at least `minShared` (the table's rule when not given)
   * of the first `keys` values of `sketch` (fewer when the sketch is shorter) whose fingerprint lies
   * within `maxDistance` of (hi, lo) (64: any), and, with `verify`, that the bound lets through
   * (`sketch` is then the whole sketch). Every document under the query's keys is read. A copy
   * shares most of its keys; two unrelated documents meet on one small value now and then (the
   * smallest of many 32-bit values are small numbers, so they collide far more often than 2⁻³²),
   * hardly ever on two.
   */
  candidates(sketch: Uint32Array, out: IdList, minShared = this.minShared, hi = 0, lo = 0, maxDistance = 64): void {
    const n = Math.min(this.keys, sketch.length);
    const need = Math.max(1, Math.min(minShared, n));
    const stamp = this.#nextStamp();
    const query = this.#verify === undefined ? undefined : sketch;
    if (!this.#pairs) {
      for (let i = 0; i < n; i++) this.#count(sketch[i]!, need, stamp, out, hi, lo, maxDistance, query);
    } else if (n === 1) {
      this.#count(pairKey(sketch[0]!, sketch[0]!), 1, stamp, out, hi, lo, maxDistance, query);
    } else {
      const needPairs = need >= 2 ? (need * (need - 1)) / 2 : 1;
      for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) this.#count(pairKey(sketch[i]!, sketch[j]!), needPairs, stamp, out, hi, lo, maxDistance, query);
    }
  }

  /**
   * Counts the documents under `key` (stamped counter, never cleared); pushes one when its count
   * reaches `need` (once a lookup: the count only grows) and it lies within the distance.
   */
  #count(key: number, need: number, stamp: number, out: IdList, hi: number, lo: number, maxDistance: number, query: Uint32Array | undefined): void {
    const slot = this.#findSlot(key);
    const entries = this.#entryPairs;
    const docs = this.#docs;
    // A document beyond the distance is never listed, whatever its count: it is skipped before its
    // count is touched (the documents listed, and their order, are those of counting every one).
    let e = this.#slots[2 * slot + 1]!;
    for (; e !== 0 && e < RUN; e = entries[2 * e - 1]!) {
      const doc = entries[2 * e - 2]!;
      const at = 4 * doc;
      if (popcount32((docs[at]! ^ hi) >>> 0) + popcount32((docs[at + 1]! ^ lo) >>> 0) > maxDistance) continue;
      this.#tally(doc, need, stamp, out, query);
    }
    if (e === 0) return;
    const runs = this.#runs;
    for (let r = e - RUN, last = 0; last === 0; r += 3) {
      const marked = runs[r]!;
      last = marked & LAST;
      if (popcount32((runs[r + 1]! ^ hi) >>> 0) + popcount32((runs[r + 2]! ^ lo) >>> 0) > maxDistance) continue;
      this.#tally(marked & ~LAST, need, stamp, out, query);
    }
  }

  /**
   * Counts one more key of document `doc` (within the distance) in this lookup (`stamp`), and lists
   * it when the count reaches `need` and the bound lets it through.
   */
  #tally(doc: number, need: number, stamp: number, out: IdList, query: Uint32Array | undefined): void {
    const docs = this.#docs;
    const at = 4 * doc;
    let count = 1;
    if (docs[at + 2] === stamp) {
      count = docs[at + 3]! + 1;
      if (count > need) return; // listed (or refused) already; the count no longer matters
    } else docs[at + 2] = stamp;
    docs[at + 3] = count;
    if (count === need) {
      if (query !== undefined && !this.#mayBeSimilar(query, doc)) this.dropped++;
      else out.push(this.#docIds[doc]!);
    }
  }

  /**
   * Moves every recent entry into its key's run: each key's chain (recent entries, newest first, then
   * its old run) is copied into one new run, in the same order, with the documents' fingerprints.
   */
  #compact(): void {
    const total = this.#runEntries + this.#entries;
    // Run offsets are links below 2³¹ (~25 million documents of 28 entries; the table would hold ~16 GB).
    if (3 * total >= RUN) throw new RangeError(`SketchKeyTable: ${total} entries are more than its runs can address`);
    const out = new Uint32Array(3 * total);
    const slots = this.#slots;
    const entries = this.#entryPairs;
    const runs = this.#runs;
    const docs = this.#docs;
    let w = 0;
    for (let s = 0; s < this.#capacity; s++) {
      let e = slots[2 * s + 1]!;
      if (e === 0) continue;
      const start = w;
      for (; e !== 0 && e < RUN; e = entries[2 * e - 1]!) {
        const doc = entries[2 * e - 2]!;
        out[w] = doc;
        out[w + 1] = docs[4 * doc]!;
        out[w + 2] = docs[4 * doc + 1]!;
        w += 3;
      }
      if (e !== 0) {
        // Copied by hand: most runs are a few entries, too short for subarray and set.
        for (let r = e - RUN, last = 0; last === 0; r += 3, w += 3) {
          const marked = runs[r]!;
          last = marked & LAST;
          out[w] = marked;
          out[w + 1] = runs[r + 1]!;
          out[w + 2] = runs[r + 2]!;
        }
      } else out[w - 3] = (out[w - 3]! | LAST) >>> 0;
      slots[2 * s + 1] = RUN + start;
    }
    this.#runs = out;
    this.#runEntries = total;
    this.#entries = 0;
  }

  /** Whether the bound lets document `doc` through against the whole sketch `query`. */
  #mayBeSimilar(query: Uint32Array, doc: number): boolean {
    const prefix = this.#prefix;
    prefix.values = this.#prefixes;
    prefix.start = PREFIX * doc;
    prefix.known = this.#prefixKnown[doc]!;
    prefix.length = this.#sketchLengths[doc]!;
    return prefixMayBeSimilar(query, prefix as SketchPrefix, this.#verify!, this.#slack);
  }

  /** A stamp no document holds yet. */
  #nextStamp(): number {
    if (this.#stamp === 0xffffffff) {
      for (let at = 2; at < this.#docs.length; at += 4) this.#docs[at] = 0;
      this.#stamp = 0;
    }
    return ++this.#stamp;
  }

  /** The slot holding `key`, or the empty slot where it would go. */
  #findSlot(key: number): number {
    const capacity = this.#capacity;
    const slots = this.#slots;
    let slot = slotOf(key, capacity);
    while (slots[2 * slot + 1] !== 0 && slots[2 * slot] !== key) {
      slot++;
      if (slot === capacity) slot = 0;
    }
    return slot;
  }

  #growDocuments(needed: number): void {
    const capacity = Math.max(needed, Math.ceil(1.5 * this.#docIds.length));
    this.#docIds = grown(this.#docIds, capacity, this.#documents);
    this.#docs = grown(this.#docs, 4 * capacity, 4 * this.#documents);
    if (this.#verify !== undefined) {
      this.#prefixes = grown(this.#prefixes, PREFIX * capacity, PREFIX * this.#documents);
      const known = new Uint8Array(capacity);
      known.set(this.#prefixKnown.subarray(0, this.#documents));
      this.#prefixKnown = known;
      const lengths = new Uint16Array(capacity);
      lengths.set(this.#sketchLengths.subarray(0, this.#documents));
      this.#sketchLengths = lengths;
    }
  }

  #growEntries(needed: number): void {
    const capacity = Math.max(needed, Math.min(Math.ceil(1.5 * (this.#entryPairs.length >>> 1)), Math.ceil(Math.max(MIN_RECENT, this.#runEntries * RECENT_SHARE)) + 1024));
    this.#entryPairs = grown(this.#entryPairs, 2 * capacity, 2 * this.#entries);
  }

  #rehash(capacity: number): void {
    const old = this.#slots;
    const oldCapacity = this.#capacity;
    this.#slots = new Uint32Array(2 * capacity);
    this.#capacity = capacity;
    for (let s = 0; s < oldCapacity; s++) {
      if (old[2 * s + 1] === 0) continue;
      const slot = this.#findSlot(old[2 * s]!);
      this.#slots[2 * slot] = old[2 * s]!;
      this.#slots[2 * slot + 1] = old[2 * s + 1]!;
    }
  }
}
