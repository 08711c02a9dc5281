/**
 * The second stage's candidate table: each stored document is filed under its `keys` smallest
 * sketch values (shingle-sketch.ts); a lookup lists the documents filed under any of the query's
 * keys. Two documents whose feature sets have Jaccard J share their smallest value with probability
 * J, so near copies meet here whatever their simhash distance; unrelated documents share a 32-bit
 * key with probability ~keys² / 2³² (scripts/measure-second-stage.ts chose this over multi-probing
 * the 16-bit block tables: probing 65 or 2,081 neighbours of a fingerprint reached distance 4 or 5
 * only, and blocks matched exactly reached 79/88 re-templated and 73/88 edited copies, where 8
 * sketch keys reached 87 and 88).
 *
 * A key shared by many documents (a site's template shingle that happens to hash low) would make
 * every lookup list all of them; a lookup reads only the `perKeyLimit` documents filed last under a
 * key. A true copy shares most of its keys, so the limit costs little recall.
 *
 * In memory only, like the block tables: SQLite (the stored sketches) is the source of truth and
 * the table is rebuilt from it on open and kept in step inside each write transaction. Entries live
 * in typed arrays (a chain per key, newest first); no object per document.
 */
import type { IdList } from './id-list.js';

/** Options of a SketchKeyTable. */
export interface SketchKeyTableOptions {
  /** Smallest sketch values each document is filed under. @default 8 */
  readonly keys?: number;
  /** Documents read per key and lookup (the newest). @default 32 */
  readonly perKeyLimit?: number;
}

function slotOf(key: number, mask: number): number {
  let h = Math.imul(key ^ (key >>> 16), 0x7feb352d);
  h ^= h >>> 15;
  return h & mask;
}

function growTo(array: Uint32Array, capacity: number): Uint32Array<ArrayBuffer> {
  const out = new Uint32Array(capacity);
  out.set(array);
  return out;
}

export class SketchKeyTable {
  readonly keys: number;
  readonly perKeyLimit: number;
  // Open-addressing table of distinct keys → head entry (entry index + 1; 0 = empty slot).
  #slotKeys = new Uint32Array(1024);
  #slotHeads = new Int32Array(1024);
  #distinctKeys = 0;
  // Entries: document id and the next (older) entry under the same key (index + 1; 0 = none).
  #ids = new Uint32Array(1024);
  #next = new Int32Array(1024);
  #entries = 0;
  #documents = 0;
  /** Ids a lookup found, before counting (reused across lookups). */
  #scratch = new Uint32Array(256);

  constructor(options: SketchKeyTableOptions = {}) {
    this.keys = options.keys ?? 8;
    this.perKeyLimit = options.perKeyLimit ?? 32;
    for (const [name, value] of [['keys', this.keys], ['perKeyLimit', this.perKeyLimit]] as const) {
      if (!Number.isInteger(value) || value < 1) throw new RangeError(`Expected \`${name}\` to be a positive integer, got ${String(value)}`);
    }
  }

  /** Documents added. */
  get size(): number {
    return this.#documents;
  }

  /** Bytes held in typed arrays. */
  get byteLength(): number {
    return this.#slotKeys.byteLength + this.#slotHeads.byteLength + this.#ids.byteLength + this.#next.byteLength;
  }

  /** Files document `id` under the first `keys` values of its sketch (ascending, distinct). */
  add(id: number, sketch: Uint32Array): void {
    const n = Math.min(this.keys, sketch.length);
    if (this.#entries + n > this.#ids.length) this.#growEntries(this.#entries + n);
    if (2 * (this.#distinctKeys + n) > this.#slotKeys.length) this.#rehash(2 * this.#slotKeys.length);
    for (let i = 0; i < n; i++) {
      const slot = this.#findSlot(sketch[i]!);
      if (this.#slotHeads[slot] === 0) {
        this.#slotKeys[slot] = sketch[i]!;
        this.#distinctKeys++;
      }
      const entry = this.#entries++;
      this.#ids[entry] = id;
      this.#next[entry] = this.#slotHeads[slot]!;
      this.#slotHeads[slot] = entry + 1;
    }
    this.#documents++;
  }

  /**
   * Adds to `out` the documents filed under at least `minShared` of the first `keys` values of
   * `sketch` (fewer when the sketch is shorter). A copy shares most of its keys; two unrelated
   * documents meet on one small value now and then (the smallest of many 32-bit values are small
   * numbers, so they collide far more often than 2⁻³²), hardly ever on two.
   */
  candidates(sketch: Uint32Array, out: IdList, minShared = 1): void {
    const n = Math.min(this.keys, sketch.length);
    const need = Math.max(1, Math.min(minShared, n));
    let found = 0;
    for (let i = 0; i < n; i++) {
      const slot = this.#findSlot(sketch[i]!);
      let read = 0;
      for (let e = this.#slotHeads[slot]!; e !== 0 && read < this.perKeyLimit; e = this.#next[e - 1]!, read++) {
        if (found === this.#scratch.length) this.#scratch = growTo(this.#scratch, 2 * found);
        this.#scratch[found++] = this.#ids[e - 1]!;
      }
    }
    if (need === 1) {
      for (let i = 0; i < found; i++) out.push(this.#scratch[i]!);
      return;
    }
    // An id found under `need` keys appears `need` times: sort and count runs.
    const ids = this.#scratch.subarray(0, found).sort();
    for (let i = 0; i < found;) {
      let j = i + 1;
      while (j < found && ids[j] === ids[i]) j++;
      if (j - i >= need) out.push(ids[i]!);
      i = j;
    }
  }

  /** The slot holding `key`, or the empty slot where it would go. */
  #findSlot(key: number): number {
    const mask = this.#slotKeys.length - 1;
    let slot = slotOf(key, mask);
    while (this.#slotHeads[slot] !== 0 && this.#slotKeys[slot] !== key) slot = (slot + 1) & mask;
    return slot;
  }

  #growEntries(needed: number): void {
    let capacity = this.#ids.length;
    while (capacity < needed) capacity *= 2;
    const ids = new Uint32Array(capacity);
    ids.set(this.#ids.subarray(0, this.#entries));
    const next = new Int32Array(capacity);
    next.set(this.#next.subarray(0, this.#entries));
    this.#ids = ids;
    this.#next = next;
  }

  #rehash(capacity: number): void {
    const oldKeys = this.#slotKeys;
    const oldHeads = this.#slotHeads;
    this.#slotKeys = new Uint32Array(capacity);
    this.#slotHeads = new Int32Array(capacity);
    for (let s = 0; s < oldKeys.length; s++) {
      if (oldHeads[s] === 0) continue;
      const slot = this.#findSlot(oldKeys[s]!);
      this.#slotKeys[slot] = oldKeys[s]!;
      this.#slotHeads[slot] = oldHeads[s]!;
    }
  }
}
