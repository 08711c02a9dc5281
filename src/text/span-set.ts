/**
 * An immutable set of strings that answers "is text[start..end) a member?" without slicing the
 * text: members are keyed by spanHash (token-table.ts), so a token table's hash of a token is the
 * lookup key, and a candidate is confirmed code unit by code unit. Used for the stop-word lists.
 */
import { spanHash } from './token-table.js';

export class SpanSet {
  readonly size: number;
  readonly #mask: number;
  /** slot → member index + 1 (0: empty) */
  readonly #slots: Int32Array;
  readonly #hashes: Int32Array;
  readonly #members: readonly string[];

  constructor(members: Iterable<string>) {
    const list = [...new Set(members)];
    let capacity = 16;
    while (capacity < list.length * 2) capacity *= 2;
    this.size = list.length;
    this.#mask = capacity - 1;
    this.#slots = new Int32Array(capacity);
    this.#hashes = new Int32Array(list.length);
    this.#members = list;
    list.forEach((member, index) => {
      const h = spanHash(member, 0, member.length);
      this.#hashes[index] = h;
      let slot = h & this.#mask;
      while (this.#slots[slot] !== 0) slot = (slot + 1) & this.#mask;
      this.#slots[slot] = index + 1;
    });
  }

  /** Whether text[start..end) is a member; `hash` must be spanHash(text, start, end). */
  hasSpan(text: string, start: number, end: number, hash: number): boolean {
    const length = end - start;
    let slot = hash & this.#mask;
    for (;;) {
      const entry = this.#slots[slot]!;
      if (entry === 0) return false;
      if (this.#hashes[entry - 1] === hash) {
        const member = this.#members[entry - 1]!;
        if (member.length === length) {
          let i = 0;
          while (i < length && member.charCodeAt(i) === text.charCodeAt(start + i)) i++;
          if (i === length) return true;
        }
      }
      slot = (slot + 1) & this.#mask;
    }
  }

  /** Whether `word` is a member. */
  has(word: string): boolean {
    return this.hasSpan(word, 0, word.length, spanHash(word, 0, word.length));
  }
}
