/**
 * An inverted index from 32-bit hashes to page ids, compact: one open-addressing table of (key, id)
 * pairs in two Int32Arrays (8 bytes a slot, linear probing, grown ×2 past 3/4 full), a key held once
 * per page that has it. A JavaScript Map of arrays costs ~10× more per entry, which the cascade's
 * store cannot afford at millions of pages.
 */

/** Ids kept per hash, at most (see add). */
export const MAX_IDS_PER_HASH = 64;

/** Key 0 marks an empty slot; hash 0 is stored as this key. */
const ZERO_KEY = 0x5bd1e995 | 0;

function keyOf(hash: number): number {
  const k = hash | 0;
  return k === 0 ? ZERO_KEY : k;
}

/** Slot of a key's first probe (a multiplicative hash of an already mixed value spreads runs). */
function home(key: number, mask: number): number {
  return (Math.imul(key, 0x9e3779b1) >>> 0) & mask;
}

export class HashPostings {
  #keys: Int32Array;
  #ids: Int32Array;
  #size = 0;

  constructor(capacity = 1024) {
    let slots = 16;
    while (slots < capacity * 2) slots *= 2;
    this.#keys = new Int32Array(slots);
    this.#ids = new Int32Array(slots);
  }

  /** (key, id) pairs held. */
  get size(): number {
    return this.#size;
  }

  /** Bytes of the table. */
  get bytes(): number {
    return this.#keys.byteLength + this.#ids.byteLength;
  }

  /**
   * Adds (hash, id); a pair already there is not added twice, nor a pair whose hash already has
   * MAX_IDS_PER_HASH ids: a hash that common (a stock phrase, a frequent grammar run) leads nowhere,
   * and its copies would lengthen every probe that crosses them.
   */
  add(hash: number, id: number): void {
    if ((this.#size + 1) * 4 > this.#keys.length * 3) this.#grow();
    const key = keyOf(hash);
    const mask = this.#keys.length - 1;
    let slot = home(key, mask);
    let same = 0;
    while (this.#keys[slot] !== 0) {
      if (this.#keys[slot] === key) {
        if (this.#ids[slot] === id || ++same >= MAX_IDS_PER_HASH) return;
      }
      slot = (slot + 1) & mask;
    }
    this.#keys[slot] = key;
    this.#ids[slot] = id;
    this.#size++;
  }

  /** Calls `visit` with every id held under `hash`. */
  forEach(hash: number, visit: (id: number) => void): void {
    const key = keyOf(hash);
    const keys = this.#keys;
    const mask = keys.length - 1;
    for (let slot = home(key, mask); keys[slot] !== 0; slot = (slot + 1) & mask) {
      if (keys[slot] === key) visit(this.#ids[slot]!);
    }
  }

  /**
   * Counts one hit in `counts[id]` for every id held under `hash`, pushing to `touched` the ids whose
   * count was 0 (forEach with the counting inlined: a lookup makes thousands of these calls).
   * `counts` must be longer than every id held.
   */
  countHits(hash: number, counts: Int32Array, touched: number[]): void {
    const key = keyOf(hash);
    const keys = this.#keys;
    const ids = this.#ids;
    const mask = keys.length - 1;
    for (let slot = home(key, mask); keys[slot] !== 0; slot = (slot + 1) & mask) {
      if (keys[slot] === key) {
        const id = ids[slot]!;
        if (counts[id]!++ === 0) touched.push(id);
      }
    }
  }

  #grow(): void {
    const keys = this.#keys;
    const ids = this.#ids;
    this.#keys = new Int32Array(keys.length * 2);
    this.#ids = new Int32Array(keys.length * 2);
    this.#size = 0;
    const mask = this.#keys.length - 1;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (key === 0) continue;
      let slot = home(key, mask);
      while (this.#keys[slot] !== 0) slot = (slot + 1) & mask;
      this.#keys[slot] = key;
      this.#ids[slot] = ids[i]!;
      this.#size++;
    }
  }
}
