/**
 * An inverted index from 32-bit hashes to page ids, compact: one open-addressing table holding each
 * hash once (key and value side by side in one Int32Array, 8 bytes a slot — one cache line read per
 * probe of a table of megabytes —, linear probing, grown ×2 past 3/4 full). The value is the
 * hash's only id (≥ 0), or, once it has two or more, −1 − the offset of its list in an arena
 * (Int32Array): [count, capacity and an order flag, ids…], capacity 2, 4, … MAX_IDS_PER_HASH,
 * moved to a list twice as large when full (the arena is compacted whenever it grows). A JavaScript Map of
 * arrays costs ~10× more per entry, which the cascade's store cannot afford at millions of pages.
 *
 * Each hash is held in one slot, not once per id: a common hash (a paragraph many pages hold) no
 * longer makes a run of up to 64 slots that every lookup crossing it walks through, and its ids lie
 * side by side.
 */

/** Ids kept per hash, at most (see add). */
export const MAX_IDS_PER_HASH = 64;

/** Key 0 marks an empty slot; hash 0 is stored as this key. */
const ZERO_KEY = 0x5bd1e995 | 0;
/** Arena words before a list's ids: count, capacity | UNORDERED (its ids not all ascending). */
const LIST_HEADER = 2;
const UNORDERED = 1 << 30;
const CAPACITY = UNORDERED - 1;

function keyOf(hash: number): number {
  const k = hash | 0;
  return k === 0 ? ZERO_KEY : k;
}

/** Slot of a key's first probe (a multiplicative hash of an already mixed value spreads runs). */
function home(key: number, mask: number): number {
  return (Math.imul(key, 0x9e3779b1) >>> 0) & mask;
}

/**
 * The ids a lookup touched (whose count went from 0 to 1), `ids[0, count)`: one array reused across
 * lookups, grown and never shrunk (a number[] emptied after each lookup gave up its memory, and the
 * thousands of ids a lookup touches made it grow again every time).
 */
export interface TouchedIds {
  ids: Int32Array;
  count: number;
}

export function touchedIds(capacity = 1024): TouchedIds {
  return { ids: new Int32Array(capacity), count: 0 };
}

function pushTouched(touched: TouchedIds, id: number): void {
  if (touched.count === touched.ids.length) {
    const grown = new Int32Array(2 * touched.ids.length);
    grown.set(touched.ids);
    touched.ids = grown;
  }
  touched.ids[touched.count++] = id;
}

export class HashPostings {
  /** Slot s: key at 2s (0: empty), at 2s + 1 the id (≥ 0) or −1 − the arena offset of the hash's list. */
  #slots: Int32Array;
  #arena = new Int32Array(1024);
  /** Arena words in use (live lists and lists left behind by a move). */
  #arenaUsed = 0;
  /** Distinct keys held. */
  #keyCount = 0;
  #size = 0;

  constructor(capacity = 1024) {
    let slots = 16;
    while (slots < capacity * 2) slots *= 2;
    this.#slots = new Int32Array(2 * slots);
  }

  /** (key, id) pairs held. */
  get size(): number {
    return this.#size;
  }

  /** Bytes of the table and the arena. */
  get bytes(): number {
    return this.#slots.byteLength + this.#arena.byteLength;
  }

  /**
   * Adds (hash, id), id ≥ 0; a pair already there is not added twice, nor a pair whose hash already
   * has MAX_IDS_PER_HASH ids: a hash that common (a stock phrase, a frequent grammar run) leads
   * nowhere.
   */
  add(hash: number, id: number): void {
    if ((this.#keyCount + 1) * 8 > this.#slots.length * 3) this.#grow();
    const key = keyOf(hash);
    const slots = this.#slots;
    const mask = slots.length / 2 - 1;
    let at = 2 * home(key, mask);
    while (slots[at] !== 0 && slots[at] !== key) at = (at + 2) & (2 * mask + 1);
    if (slots[at] === 0) {
      slots[at] = key;
      slots[at + 1] = id;
      this.#keyCount++;
      this.#size++;
      return;
    }
    const value = slots[at + 1]!;
    if (value >= 0) {
      if (value === id) return;
      const list = this.#newList(2);
      this.#arena[list] = 2;
      if (id < value) this.#arena[list + 1] = 2 | UNORDERED;
      this.#arena[list + LIST_HEADER] = value;
      this.#arena[list + LIST_HEADER + 1] = id;
      slots[at + 1] = -1 - list;
      this.#size++;
      return;
    }
    if (this.#appendToList(at + 1, id)) this.#size++;
  }

  /** Appends `id` to the list whose offset `#slots[valueAt]` holds; false when it is there or the list is full. */
  #appendToList(valueAt: number, id: number): boolean {
    let list = -1 - this.#slots[valueAt]!;
    let arena = this.#arena;
    const count = arena[list]!;
    if (count >= MAX_IDS_PER_HASH) return false;
    // Ids mostly come ascending (pages are indexed in id order): an id above the last of an
    // ascending list is not in it. Otherwise the list is searched, and marked unordered when needed.
    const last = arena[list + LIST_HEADER + count - 1]!;
    let flags = arena[list + 1]! & UNORDERED;
    if (flags === 0 && id < last) flags = UNORDERED;
    if (flags !== 0 || id === last) {
      for (let i = list + LIST_HEADER, end = i + count; i < end; i++) if (arena[i] === id) return false;
    }
    if (count === (arena[list + 1]! & CAPACITY)) {
      const moved = this.#newList(2 * count);
      arena = this.#arena; // #newList may have compacted it: the list's offset is read again
      const from = -1 - this.#slots[valueAt]!;
      arena.copyWithin(moved + LIST_HEADER, from + LIST_HEADER, from + LIST_HEADER + count);
      arena[moved] = count;
      this.#slots[valueAt] = -1 - moved;
      list = moved;
    }
    arena[list + LIST_HEADER + count] = id;
    arena[list] = count + 1;
    arena[list + 1] = (arena[list + 1]! & CAPACITY) | flags;
    return true;
  }

  /** Offset of a new, empty list of `capacity` ids (count 0). */
  #newList(capacity: number): number {
    const words = LIST_HEADER + capacity;
    if (this.#arenaUsed + words > this.#arena.length) this.#compact(words);
    const at = this.#arenaUsed;
    this.#arena[at] = 0;
    this.#arena[at + 1] = capacity;
    this.#arenaUsed += words;
    return at;
  }

  /** Copies the live lists into a new arena with room for `more` words (lists left by a move dropped). */
  #compact(more: number): void {
    const slots = this.#slots;
    const old = this.#arena;
    let live = more;
    for (let v = 1; v < slots.length; v += 2) if (slots[v]! < 0) live += LIST_HEADER + (old[-1 - slots[v]! + 1]! & CAPACITY);
    let length = old.length;
    while (length < 2 * live) length *= 2;
    const arena = new Int32Array(length);
    let at = 0;
    for (let v = 1; v < slots.length; v += 2) {
      if (slots[v]! >= 0) continue;
      const from = -1 - slots[v]!;
      const words = LIST_HEADER + (old[from + 1]! & CAPACITY);
      arena.set(old.subarray(from, from + words), at);
      slots[v] = -1 - at;
      at += words;
    }
    this.#arena = arena;
    this.#arenaUsed = at;
  }

  /** Calls `visit` with every id held under `hash`. */
  forEach(hash: number, visit: (id: number) => void): void {
    const at = this.#slotOf(hash);
    if (at < 0) return;
    const value = this.#slots[at + 1]!;
    if (value >= 0) {
      visit(value);
      return;
    }
    const arena = this.#arena;
    const list = -1 - value;
    for (let i = list + LIST_HEADER, end = i + arena[list]!; i < end; i++) visit(arena[i]!);
  }

  /**
   * Counts one hit in `counts[id]` for every id held under `hash`, pushing to `touched` the ids whose
   * count was 0 (forEach with the counting inlined: a lookup makes thousands of these calls).
   * `counts` must be longer than every id held.
   */
  countHits(hash: number, counts: Int32Array, touched: TouchedIds): void {
    const at = this.#slotOf(hash);
    if (at < 0) return;
    const value = this.#slots[at + 1]!;
    if (value >= 0) {
      if (counts[value]!++ === 0) pushTouched(touched, value);
      return;
    }
    const arena = this.#arena;
    const list = -1 - value;
    for (let i = list + LIST_HEADER, end = i + arena[list]!; i < end; i++) {
      const id = arena[i]!;
      if (counts[id]!++ === 0) pushTouched(touched, id);
    }
  }

  /**
   * countHits for every hash of `hashes` whose low bits under `sampleMask` are 0, in their order
   * (the same counts and the same `touched` as one countHits call each). In passes: first every
   * hash's slot value, then every list's length, then the counting: the lookups of a pass do not
   * wait on one another, so the memory reads of a table of megabytes overlap instead of each
   * waiting on the last. `scratch`: at least twice as long as `hashes` (reused across calls).
   */
  countHitsOfAll(hashes: Uint32Array, sampleMask: number, counts: Int32Array, touched: TouchedIds, scratch: Int32Array): void {
    const slots = this.#slots;
    const wrap = slots.length - 1;
    const mask = slots.length / 2 - 1;
    // Pass 1: the slot values of the sampled hashes held (an id, or −1 − a list's offset).
    let found = 0;
    for (let i = 0; i < hashes.length; i++) {
      const hash = hashes[i]!;
      if ((hash & sampleMask) !== 0) continue;
      const key = keyOf(hash);
      for (let at = 2 * home(key, mask); ; at = (at + 2) & wrap) {
        const k = slots[at]!;
        if (k === key) {
          scratch[found++] = slots[at + 1]!;
          break;
        }
        if (k === 0) break;
      }
    }
    // Pass 2: each list's length (its first words read, so that pass 3 finds them in cache), after the values.
    const arena = this.#arena;
    for (let f = 0; f < found; f++) {
      const value = scratch[f]!;
      scratch[found + f] = value < 0 ? arena[-1 - value]! : 0;
    }
    // Pass 3: the counting, in the hashes' order.
    for (let f = 0; f < found; f++) {
      const value = scratch[f]!;
      if (value >= 0) {
        if (counts[value]!++ === 0) pushTouched(touched, value);
        continue;
      }
      const from = -1 - value + LIST_HEADER;
      for (let i = from, end = from + scratch[found + f]!; i < end; i++) {
        const id = arena[i]!;
        if (counts[id]!++ === 0) pushTouched(touched, id);
      }
    }
  }

  /** Index in #slots of the key of `hash`, or -1. */
  #slotOf(hash: number): number {
    const key = keyOf(hash);
    const slots = this.#slots;
    const wrap = slots.length - 1;
    for (let at = 2 * home(key, slots.length / 2 - 1); ; at = (at + 2) & wrap) {
      const k = slots[at]!;
      if (k === key) return at;
      if (k === 0) return -1;
    }
  }

  #grow(): void {
    const old = this.#slots;
    const slots = new Int32Array(old.length * 2);
    const mask = slots.length / 2 - 1;
    const wrap = slots.length - 1;
    for (let i = 0; i < old.length; i += 2) {
      const key = old[i]!;
      if (key === 0) continue;
      let at = 2 * home(key, mask);
      while (slots[at] !== 0) at = (at + 2) & wrap;
      slots[at] = key;
      slots[at + 1] = old[i + 1]!;
    }
    this.#slots = slots;
  }
}
