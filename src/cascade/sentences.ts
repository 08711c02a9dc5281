/**
 * Sentences and words of a raw text, for the cascade's text statistics. A sentence ends at `.`,
 * `!`, `?`, `…` (or their CJK forms), closing quotes or brackets, then a space; or at a line break.
 * Words are runs of letters (marks and apostrophes inside a word kept), lower-cased (NFKC first).
 */

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
  /** The distinct words, lower-cased. */
  readonly words: readonly string[];
}

/** Whether a sentence ends at the end mark at `i`: closing quotes or brackets, then a space. */
function endsSentence(text: string, i: number): boolean {
  let j = i + 1;
  while (j < text.length && (CLASSES[text.charCodeAt(j)]! & CLOSE) !== 0) j++;
  return j < text.length && (CLASSES[text.charCodeAt(j)]! & SPACE) !== 0;
}

/**
 * The sentences of a text that have at least one word, as word ids, in one pass over the text
 * lower-cased: no string is made per word occurrence, one per distinct word. Same sentences and
 * words as splitting at SENTENCE_END and matching `\p{L}[\p{L}\p{M}'’]*` in each sentence.
 */
export function sentenceWords(text: string): SentenceWords {
  const lower = text.normalize('NFKC').toLowerCase();
  const n = lower.length;
  let ids = new Int32Array(Math.max(16, n >>> 2));
  let sentenceEnds = new Int32Array(16);
  let count = 0;
  let sentenceCount = 0;
  const table = new WordTable(lower);
  let i = 0;
  while (i < n) {
    const c = classAt(lower, i);
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
    const start = i;
    i += c & 3;
    while (i < n) {
      const next = classAt(lower, i);
      if (((next >>> 2) & WORD_TAIL) === 0) break;
      i += next & 3;
    }
    if (count === ids.length) ids = grow(ids);
    ids[count++] = table.idOf(start, i);
  }
  if (count > 0 && (sentenceCount === 0 || sentenceEnds[sentenceCount - 1] !== count)) {
    if (sentenceCount === sentenceEnds.length) sentenceEnds = grow(sentenceEnds);
    sentenceEnds[sentenceCount++] = count;
  }
  return { ids, count, sentenceEnds, sentenceCount, words: table.words };
}

function grow(array: Int32Array): Int32Array<ArrayBuffer> {
  const out = new Int32Array(array.length * 2);
  out.set(array);
  return out;
}

/** Distinct words of a text by span: open addressing on FNV-1a of the span, a string per distinct word only. */
class WordTable {
  readonly words: string[] = [];
  readonly #text: string;
  #starts = new Int32Array(64);
  #ends = new Int32Array(64);
  #slots = new Int32Array(128); // id + 1, 0: empty; at most half full
  #hashes = new Int32Array(64);

  constructor(text: string) {
    this.#text = text;
  }

  idOf(start: number, end: number): number {
    const text = this.#text;
    let h = 0x811c9dc5;
    for (let k = start; k < end; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
    h ^= h >>> 15;
    let mask = this.#slots.length - 1;
    let slot = h & mask;
    for (;;) {
      const entry = this.#slots[slot]!;
      if (entry === 0) break;
      const id = entry - 1;
      if (this.#hashes[id] === h && this.#sameSpan(id, start, end)) return id;
      slot = (slot + 1) & mask;
    }
    const id = this.words.length;
    if (id === this.#starts.length) {
      this.#starts = growTo(this.#starts, id * 2);
      this.#ends = growTo(this.#ends, id * 2);
      this.#hashes = growTo(this.#hashes, id * 2);
    }
    this.#starts[id] = start;
    this.#ends[id] = end;
    this.#hashes[id] = h;
    this.words.push(text.slice(start, end));
    this.#slots[slot] = id + 1;
    if ((id + 1) * 2 > this.#slots.length) {
      this.#slots = new Int32Array(this.#slots.length * 2);
      mask = this.#slots.length - 1;
      for (let j = 0; j <= id; j++) {
        let t = this.#hashes[j]! & mask;
        while (this.#slots[t] !== 0) t = (t + 1) & mask;
        this.#slots[t] = j + 1;
      }
    }
    return id;
  }

  #sameSpan(id: number, start: number, end: number): boolean {
    const s = this.#starts[id]!;
    if (this.#ends[id]! - s !== end - start) return false;
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
 * Share of capitalised words inside sentences (names, mostly: an upper-case letter and at least one
 * more word character, after a letter, an optional `,;:`, and white space) whose form occurs more
 * than once. Runs on the text as written (case kept).
 */
export function repeatedNameShare(text: string): number {
  const counts = new Map<string, number>();
  let total = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = classAt(text, i);
    if (((c >>> 2) & UPPER) === 0 || !afterWordAndSpace(text, i)) {
      i += c & 3;
      continue;
    }
    let end = i + (c & 3);
    while (end < n) {
      const next = classAt(text, end);
      if (((next >>> 2) & WORD_TAIL) === 0) break;
      end += next & 3;
    }
    if (end - i === (c & 3)) {
      i = end;
      continue;
    }
    const name = text.slice(i, end);
    counts.set(name, (counts.get(name) ?? 0) + 1);
    total++;
    i = end;
  }
  let repeated = 0;
  for (const count of counts.values()) if (count > 1) repeated += count;
  return total === 0 ? 0 : repeated / total;
}
