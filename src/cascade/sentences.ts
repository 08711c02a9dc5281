/**
 * Sentences and words of a raw text, for the cascade's text statistics. A sentence ends at `.`,
 * `!`, `?`, `…` (or their CJK forms), closing quotes or brackets, then a space; or at a line break.
 * Words are runs of letters (marks and apostrophes inside a word kept), lower-cased (NFKC first).
 */
import { HOMOGLYPH_CLASSES } from '../text/homoglyph-table.js';

const SENTENCE_END = /(?<=[.!?…。！？])["'”’»)\]]*\s+|\n+/u;

/** The sentences of a text as they are written (trimmed, empty ones left out). */
export function splitSentences(text: string): string[] {
  return text.split(SENTENCE_END).map((s) => s.trim()).filter((s) => s !== '');
}

// Character classes (bits) of BMP code units for the scanner below.
const LETTER = 1;
const WORD_TAIL = 2; // letters, marks, apostrophes: what continues a word
const END = 4;
const CLOSE = 8;
const SPACE = 16;
const LINE_BREAK = 32;
const UPPER = 64;
const NAME_PUNCT = 128; // , ; : between a word and the capitalised word after it

const CLASSES = (() => {
  const table = new Uint8Array(0x10000);
  const letter = /^\p{L}$/u;
  const tail = /^[\p{L}\p{M}'’]$/u;
  const space = /^\s$/u;
  const upper = /^\p{Lu}$/u;
  for (let cp = 0; cp < 0x10000; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const ch = String.fromCharCode(cp);
    table[cp] = (letter.test(ch) ? LETTER : 0) | (tail.test(ch) ? WORD_TAIL : 0) | (space.test(ch) ? SPACE : 0) | (upper.test(ch) ? UPPER : 0);
  }
  for (const ch of '.!?…。！？') table[ch.charCodeAt(0)] |= END;
  for (const ch of '"\'”’»)]') table[ch.charCodeAt(0)] |= CLOSE;
  table[0x0a] |= LINE_BREAK;
  for (const ch of ',;:') table[ch.charCodeAt(0)] |= NAME_PUNCT;
  return table;
})();
const ASTRAL_LETTER = /^\p{L}$/u;
const ASTRAL_TAIL = /^[\p{L}\p{M}]$/u;
const ASTRAL_UPPER = /^\p{Lu}$/u;

/** Class bits of the character at `i` and its width (class · 4 + width). */
function classAt(text: string, i: number): number {
  const unit = text.charCodeAt(i);
  if (unit < 0xd800 || unit > 0xdbff || i + 1 >= text.length) return (CLASSES[unit]! << 2) | 1;
  const cp = text.codePointAt(i)!;
  if (cp <= 0xffff) return 1;
  const ch = String.fromCodePoint(cp);
  return (((ASTRAL_LETTER.test(ch) ? LETTER : 0) | (ASTRAL_TAIL.test(ch) ? WORD_TAIL : 0) | (ASTRAL_UPPER.test(ch) ? UPPER : 0)) << 2) | 2;
}

/** The words of a text by sentence, as ids into `words` (distinct words, in order of first occurrence). */
export interface SentenceWords {
  /** ids[0..count): each word occurrence's id. */
  readonly ids: Int32Array;
  readonly count: number;
  /** sentenceEnds[0..sentenceCount): index in `ids` just after each sentence's last word. */
  readonly sentenceEnds: Int32Array;
  readonly sentenceCount: number;
  /** Number of distinct words (ids run from 0 to distinct − 1). */
  readonly distinct: number;
  /** The distinct words, lower-cased (their strings are made on first use). */
  readonly words: readonly string[];
  /** Length in code units of the distinct word `id`. */
  wordLength(id: number): number;
  /**
   * Each distinct word's value in `lookup` (0 when it lacks the word), without making the words'
   * strings; `longBit` is added for words of at least `longFrom` code units.
   */
  valuesIn(lookup: WordLookup, longBit?: number, longFrom?: number): Uint8Array;
  /** repeatedNameShare of SentenceWordsOptions.cased, when it was given (else NaN). */
  readonly nameShare: number;
}

export interface SentenceWordsOptions {
  /**
   * The text is already NFKC and lower case (normalizeText's output), so it is scanned as is.
   * @default false
   */
  readonly lowered?: boolean;
  /**
   * The text as written, of the same length as the (lowered) text scanned and with its letters at
   * the same places: its names are counted in the same pass (nameShare), instead of a pass of
   * repeatedNameShare of its own.
   */
  readonly cased?: string | undefined;
}

/** Whether a sentence ends at the end mark at `i`: closing quotes or brackets, then a space. */
function endsSentence(text: string, i: number): boolean {
  let j = i + 1;
  while (j < text.length && (CLASSES[text.charCodeAt(j)]! & CLOSE) !== 0) j++;
  return j < text.length && (CLASSES[text.charCodeAt(j)]! & SPACE) !== 0;
}

/** FNV-1a's offset basis and prime: the word table's hash of a word's code units. */
const FNV_BASIS = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * The sentences of a text that have at least one word, as word ids, in one pass over the text
 * lower-cased: no string is made per word occurrence, one per distinct word. Same sentences and
 * words as splitting at SENTENCE_END and matching `\p{L}[\p{L}\p{M}'’]*` in each sentence.
 */
export function sentenceWords(text: string, options: SentenceWordsOptions = {}): SentenceWords {
  const lower = options.lowered === true ? text : text.normalize('NFKC').toLowerCase();
  const n = lower.length;
  const cased = options.cased;
  if (cased !== undefined && cased.length !== n) throw new RangeError(`Expected the cased text to have the scanned text's length ${n}, got ${cased.length}`);
  const names = cased === undefined ? null : new NameCounts();
  let ids = new Int32Array(Math.max(16, n >>> 2));
  let sentenceEnds = new Int32Array(Math.max(16, n >>> 5));
  let count = 0;
  let sentenceCount = 0;
  const table = new WordTable(lower, n >>> 3);
  let i = 0;
  while (i < n) {
    // BMP units straight from the table; a high surrogate through classAt (pairs, lone ones).
    const unit = lower.charCodeAt(i);
    const c = unit < 0xd800 || unit > 0xdbff ? (CLASSES[unit]! << 2) | 1 : classAt(lower, i);
    const cls = c >>> 2;
    if ((cls & LETTER) === 0) {
      const ends = (cls & LINE_BREAK) !== 0 || ((cls & END) !== 0 && endsSentence(lower, i));
      if (ends && count > 0 && (sentenceCount === 0 || sentenceEnds[sentenceCount - 1] !== count)) {
        if (sentenceCount === sentenceEnds.length) sentenceEnds = grow(sentenceEnds);
        sentenceEnds[sentenceCount++] = count;
      }
      i += c & 3;
      continue;
    }
    // The word's hash is taken while it is scanned (no second pass over its code units).
    const start = i;
    let h = Math.imul(FNV_BASIS ^ unit, FNV_PRIME);
    if ((c & 3) === 2) h = Math.imul(h ^ lower.charCodeAt(i + 1), FNV_PRIME);
    i += c & 3;
    while (i < n) {
      const u = lower.charCodeAt(i);
      if (u < 0xd800 || u > 0xdbff) {
        if ((CLASSES[u]! & WORD_TAIL) === 0) break;
        h = Math.imul(h ^ u, FNV_PRIME);
        i++;
        continue;
      }
      const next = classAt(lower, i);
      if (((next >>> 2) & WORD_TAIL) === 0) break;
      h = Math.imul(h ^ u, FNV_PRIME);
      if ((next & 3) === 2) h = Math.imul(h ^ lower.charCodeAt(i + 1), FNV_PRIME);
      i += next & 3;
    }
    if (count === ids.length) ids = grow(ids);
    ids[count++] = table.idOf(start, i, h ^ (h >>> 15));
    if (names !== null) countName(cased!, start, i, c & 3, names);
  }
  if (count > 0 && (sentenceCount === 0 || sentenceEnds[sentenceCount - 1] !== count)) {
    if (sentenceCount === sentenceEnds.length) sentenceEnds = grow(sentenceEnds);
    sentenceEnds[sentenceCount++] = count;
  }
  return {
    ids,
    count,
    sentenceEnds,
    sentenceCount,
    distinct: table.size,
    get words() {
      return table.strings();
    },
    nameShare: names === null ? NaN : names.share(),
    wordLength: (id) => table.length(id),
    valuesIn: (lookup, longBit = 0, longFrom = 0) => table.valuesIn(lookup, longBit, longFrom),
  };
}

function grow(array: Int32Array): Int32Array<ArrayBuffer> {
  const out = new Int32Array(array.length * 2);
  out.set(array);
  return out;
}

/** The hash the scanner takes of a word's code units (FNV-1a, high bits folded in): WordLookup's key. */
function wordHash(word: string): number {
  let h = FNV_BASIS;
  for (let k = 0; k < word.length; k++) h = Math.imul(h ^ word.charCodeAt(k), FNV_PRIME);
  return h ^ (h >>> 15);
}

/**
 * A fixed set of words, each with a value (1–255), looked up by a word's span in a scanned text and
 * its wordHash, so that no string is made for the word looked up. Open addressing, at most half full.
 */
export class WordLookup {
  readonly #words: string[] = [];
  readonly #values: Uint8Array;
  readonly #hashes: Int32Array;
  readonly #slots: Int32Array; // index + 1, 0: empty

  constructor(entries: ReadonlyMap<string, number>) {
    this.#values = new Uint8Array(entries.size);
    this.#hashes = new Int32Array(entries.size);
    // At most a quarter full: a word not in the set (most words looked up) ends its probe soon.
    this.#slots = new Int32Array(1 << (32 - Math.clz32(Math.max(16, entries.size * 4) - 1)));
    const mask = this.#slots.length - 1;
    for (const [word, value] of entries) {
      const index = this.#words.length;
      const h = wordHash(word);
      this.#words.push(word);
      this.#values[index] = value;
      this.#hashes[index] = h;
      let slot = h & mask;
      while (this.#slots[slot] !== 0) slot = (slot + 1) & mask;
      this.#slots[slot] = index + 1;
    }
  }

  /** The value of the word at [start, end) of `text` (whose wordHash is `h`), 0 when it is not in the set. */
  valueAt(text: string, start: number, end: number, h: number): number {
    const slots = this.#slots;
    const mask = slots.length - 1;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const index = slots[slot]! - 1;
      if (index < 0) return 0;
      if (this.#hashes[index] !== h) continue;
      const word = this.#words[index]!;
      if (word.length !== end - start) continue;
      let k = 0;
      while (k < word.length && word.charCodeAt(k) === text.charCodeAt(start + k)) k++;
      if (k === word.length) return this.#values[index]!;
    }
  }
}

/** Distinct words of a text by span: open addressing on the span's hash; strings made only when asked for. */
class WordTable {
  size = 0;
  #strings: string[] | null = null;
  readonly #text: string;
  /** Per id, three entries: start, end, hash (one array: one allocation). */
  #spans: Int32Array<ArrayBuffer>;
  #slots: Int32Array<ArrayBuffer>; // id + 1, 0: empty; at most half full

  /** `expected`: a guess of the number of distinct words (the arrays grow past it). */
  constructor(text: string, expected: number) {
    this.#text = text;
    const size = 1 << (32 - Math.clz32(Math.max(64, expected) - 1));
    this.#spans = new Int32Array(3 * size);
    this.#slots = new Int32Array(size * 2);
  }

  /** The id of the word at [start, end), whose hash is `h`. */
  idOf(start: number, end: number, h: number): number {
    let mask = this.#slots.length - 1;
    let slot = h & mask;
    for (;;) {
      const entry = this.#slots[slot]!;
      if (entry === 0) break;
      const id = entry - 1;
      if (this.#spans[3 * id + 2] === h && this.#sameSpan(id, start, end)) return id;
      slot = (slot + 1) & mask;
    }
    const id = this.size++;
    if (3 * id === this.#spans.length) this.#spans = growTo(this.#spans, 6 * id);
    this.#spans[3 * id] = start;
    this.#spans[3 * id + 1] = end;
    this.#spans[3 * id + 2] = h;
    this.#slots[slot] = id + 1;
    if ((id + 1) * 2 > this.#slots.length) {
      this.#slots = new Int32Array(this.#slots.length * 2);
      mask = this.#slots.length - 1;
      for (let j = 0; j <= id; j++) {
        let t = this.#spans[3 * j + 2]! & mask;
        while (this.#slots[t] !== 0) t = (t + 1) & mask;
        this.#slots[t] = j + 1;
      }
    }
    return id;
  }

  /** The distinct words' strings, made on the first call. */
  strings(): string[] {
    this.#strings ??= Array.from({ length: this.size }, (_, id) => this.#text.slice(this.#spans[3 * id]!, this.#spans[3 * id + 1]!));
    return this.#strings;
  }

  length(id: number): number {
    return this.#spans[3 * id + 1]! - this.#spans[3 * id]!;
  }

  valuesIn(lookup: WordLookup, longBit: number, longFrom: number): Uint8Array {
    const out = new Uint8Array(this.size);
    const spans = this.#spans;
    for (let id = 0; id < this.size; id++) {
      const start = spans[3 * id]!;
      const end = spans[3 * id + 1]!;
      out[id] = lookup.valueAt(this.#text, start, end, spans[3 * id + 2]!) | (end - start >= longFrom ? longBit : 0);
    }
    return out;
  }

  #sameSpan(id: number, start: number, end: number): boolean {
    const s = this.#spans[3 * id]!;
    if (this.#spans[3 * id + 1]! - s !== end - start) return false;
    const text = this.#text;
    for (let k = 0; k < end - start; k++) if (text.charCodeAt(s + k) !== text.charCodeAt(start + k)) return false;
    return true;
  }
}

function growTo(array: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const out = new Int32Array(size);
  out.set(array);
  return out;
}

/** Whether a capitalised word may start at `p`: after a letter, an optional `,` `;` `:`, and white space. */
function afterWordAndSpace(text: string, p: number): boolean {
  let q = p - 1;
  if (q < 0 || (CLASSES[text.charCodeAt(q)]! & SPACE) === 0) return false;
  while (q >= 0 && (CLASSES[text.charCodeAt(q)]! & SPACE) !== 0) q--;
  if (q >= 0 && (CLASSES[text.charCodeAt(q)]! & NAME_PUNCT) !== 0) q--;
  if (q < 0) return false;
  const unit = text.charCodeAt(q);
  if (unit >= 0xdc00 && unit <= 0xdfff && q > 0) return ((classAt(text, q - 1) >>> 2) & LETTER) !== 0;
  return (CLASSES[unit]! & LETTER) !== 0;
}

/**
 * Each BMP code unit's look-alike skeleton: a letter of a look-alike class (homoglyph-table.ts) →
 * the class's Latin letter, case kept; every other unit → itself. Swapping letters for look-alikes
 * moves them within a class, so a spoofed word has its original's skeleton.
 */
const SKELETON = (() => {
  const table = new Uint16Array(0x10000);
  for (let unit = 0; unit < 0x10000; unit++) table[unit] = unit;
  for (const cls of HOMOGLYPH_CLASSES) {
    const representative = (cls.latin !== '' ? cls.latin : cls.cyrillic !== '' ? cls.cyrillic : cls.greek).charCodeAt(0);
    for (const member of [cls.latin, cls.cyrillic, cls.greek, ...cls.extra]) if (member !== '') table[member.charCodeAt(0)] = representative;
  }
  return table;
})();

/** Class bits of the character at `i` and its width, as classAt, without a call for BMP units. */
function classHere(text: string, i: number): number {
  const unit = text.charCodeAt(i);
  return unit < 0xd800 || unit > 0xdbff ? (CLASSES[unit]! << 2) | 1 : classAt(text, i);
}

/** Occurrences of names by their skeleton hash: how many, and how many of a form seen more than once. */
class NameCounts {
  readonly #counts = new Map<number, number>();
  #total = 0;

  add(h: number): void {
    this.#counts.set(h, (this.#counts.get(h) ?? 0) + 1);
    this.#total++;
  }

  share(): number {
    let repeated = 0;
    for (const count of this.#counts.values()) if (count > 1) repeated += count;
    return this.#total === 0 ? 0 : repeated / this.#total;
  }
}

/** Hash of the look-alike skeleton (SKELETON) of text[start, end). */
function skeletonHash(text: string, start: number, end: number): number {
  let h = FNV_BASIS;
  for (let k = start; k < end; k++) h = Math.imul(h ^ SKELETON[text.charCodeAt(k)]!, FNV_PRIME);
  return h;
}

/**
 * Counts the word at [start, end) of `cased` (its first character `width` units wide) when it is a
 * name as repeatedNameShare defines one.
 */
function countName(cased: string, start: number, end: number, width: number, names: NameCounts): void {
  if (end - start <= width || ((classHere(cased, start) >>> 2) & UPPER) === 0 || !afterWordAndSpace(cased, start)) return;
  names.add(skeletonHash(cased, start, end));
}

/**
 * Share of capitalised words inside sentences (names, mostly: an upper-case letter and at least one
 * more word character, after a letter, an optional `,;:`, and white space) whose form occurs more
 * than once. Runs on the text as written (case kept). Forms are told apart by the hash of their
 * look-alike skeletons (SKELETON), so a copy with look-alike letters swapped gets its original's
 * share without folding the text first (two different names share a 32-bit hash with odds of about
 * one in 10⁷ for a page's hundred names).
 */
export function repeatedNameShare(text: string): number {
  const names = new NameCounts();
  const n = text.length;
  let i = 0;
  while (i < n) {
    // Skip what cannot start a name: BMP units that are no upper-case letter (a tight loop; high
    // surrogates stop it, their pair's class is taken below).
    let unit = text.charCodeAt(i);
    while ((CLASSES[unit]! & UPPER) === 0 && (unit < 0xd800 || unit > 0xdbff) && ++i < n) unit = text.charCodeAt(i);
    if (i >= n) break;
    const c = unit < 0xd800 || unit > 0xdbff ? (CLASSES[unit]! << 2) | 1 : classAt(text, i);
    if (((c >>> 2) & UPPER) === 0 || !afterWordAndSpace(text, i)) {
      i += c & 3;
      continue;
    }
    let end = i + (c & 3);
    while (end < n) {
      const next = classHere(text, end);
      if (((next >>> 2) & WORD_TAIL) === 0) break;
      end += next & 3;
    }
    if (end - i > (c & 3)) names.add(skeletonHash(text, i, end));
    i = end;
  }
  return names.share();
}
