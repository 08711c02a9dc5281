/**
 * What the analysis works out per distinct token — its word hash, whether it is a stop word, its
 * stem and the stem's word hash — remembered across documents for one language, so that a token
 * met in an earlier document of the thread costs one lookup instead of a slice, a stop-word lookup,
 * a stemmer run and two hash runs. Words repeat from document to document (a 20,000-document
 * corpus of news texts meets ~95% of its distinct-tokens-per-document again), so most lookups hit.
 *
 * Keyed by a token table's spanHash (token-table.ts; seeded per thread, so a memo never leaves its
 * thread) and confirmed code unit by code unit: a hit is always the same token, never a hash
 * collision, so the memo cannot change a value. The hash columns are filled by the caller (text/
 * does not know fingerprint/'s hashes); an entry is complete when `add` returns.
 *
 * Bounded: StemCache (stem-cache.ts) owns the memos and makes them start over when its budget of
 * entries is spent (`reserve`).
 */
import { ownCopy } from './own-copy.js';

/** Int32s per entry in `records`. */
export const MEMO_STRIDE = 8;
/** Offsets in an entry's record: the caller's four hash words, the stop flag. */
export const MEMO_TOKEN_A = 0;
export const MEMO_TOKEN_B = 1;
export const MEMO_STEM_A = 2;
export const MEMO_STEM_B = 3;
export const MEMO_STOP = 4;
const HASH = 5;
const CHARS_AT = 6;
const LENGTH = 7;

export class TokenMemo {
  /** Entries held. */
  size = 0;
  /**
   * MEMO_STRIDE int32 per entry, one entry's words side by side (one cache line read per hit): the
   * token's word hash (MEMO_TOKEN_A/B) and its stem's (MEMO_STEM_A/B), written by the caller as
   * uint32 bit patterns; MEMO_STOP 1 for a stop word of the memo's language; then the key (span
   * hash, and where the token's code units are in the memo's own pool, and how many).
   */
  records = new Int32Array(0);
  /** entry → stem of the token (its own copy, never a view of a document) */
  stems: string[] = [];
  /** The tokens' code units, one after another (the key a hit is confirmed against). */
  #chars = new Uint16Array(0);
  #charsUsed = 0;
  /** Two int32 per slot: span hash, entry + 1 (0: empty); kept at most half full. */
  #slots = new Int32Array(0);
  #mask = 0;
  readonly #reserve: () => void;

  /** `reserve` is called before each new entry (the owner may clear every memo then). */
  constructor(reserve: () => void = () => {}) {
    this.#reserve = reserve;
    this.clear();
  }

  /** Forgets every entry. */
  clear(): void {
    this.size = 0;
    this.stems = [];
    this.records = new Int32Array(1024 * MEMO_STRIDE);
    this.#chars = new Uint16Array(8192);
    this.#charsUsed = 0;
    this.#slots = new Int32Array(2 * 2048);
    this.#mask = 2047;
  }

  /** The entry of text[start..end), or -1; `hash` must be spanHash(text, start, end). */
  find(text: string, start: number, end: number, hash: number): number {
    const length = end - start;
    const slots = this.#slots;
    const mask = this.#mask;
    let slot = hash & mask;
    for (;;) {
      const entry = slots[2 * slot + 1]!;
      if (entry === 0) return -1;
      if (slots[2 * slot] === hash) {
        const e = entry - 1;
        const at = e * MEMO_STRIDE;
        if (this.records[at + LENGTH] === length) {
          const chars = this.#chars;
          const from = this.records[at + CHARS_AT]!;
          let i = 0;
          while (i < length && chars[from + i] === text.charCodeAt(start + i)) i++;
          if (i === length) return e;
        }
      }
      slot = (slot + 1) & mask;
    }
  }

  /**
   * Adds text[start..end), which `find` did not find, with its stem and stop flag; the caller fills
   * the hash words of the returned entry. `stem` may be a view of a document: the memo keeps a copy.
   */
  add(text: string, start: number, end: number, hash: number, stem: string, stop: boolean): number {
    this.#reserve();
    const e = this.size;
    const length = end - start;
    if ((e + 1) * MEMO_STRIDE > this.records.length) this.records = grown(this.records, e * MEMO_STRIDE);
    if (this.#charsUsed + length > this.#chars.length) {
      const chars = new Uint16Array(Math.max(2 * this.#chars.length, this.#charsUsed + length));
      chars.set(this.#chars.subarray(0, this.#charsUsed));
      this.#chars = chars;
    }
    const at = e * MEMO_STRIDE;
    const from = this.#charsUsed;
    for (let i = 0; i < length; i++) this.#chars[from + i] = text.charCodeAt(start + i);
    this.#charsUsed = from + length;
    this.records[at + MEMO_STOP] = stop ? 1 : 0;
    this.records[at + HASH] = hash;
    this.records[at + CHARS_AT] = from;
    this.records[at + LENGTH] = length;
    this.stems.push(ownCopy(stem));
    this.size = e + 1;
    if (this.size * 2 > this.#slots.length / 2) {
      this.#slots = new Int32Array(this.#slots.length * 2);
      this.#mask = this.#slots.length / 2 - 1;
      for (let j = 0; j < e; j++) this.#place(j);
    }
    this.#place(e);
    return e;
  }

  #place(e: number): void {
    const hash = this.records[e * MEMO_STRIDE + HASH]!;
    let slot = hash & this.#mask;
    while (this.#slots[2 * slot + 1] !== 0) slot = (slot + 1) & this.#mask;
    this.#slots[2 * slot] = hash;
    this.#slots[2 * slot + 1] = e + 1;
  }
}

function grown(array: Int32Array<ArrayBuffer>, used: number): Int32Array<ArrayBuffer> {
  const out = new Int32Array(array.length * 2);
  out.set(array.subarray(0, used));
  return out;
}
