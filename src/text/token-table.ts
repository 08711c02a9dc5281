/**
 * The tokens of a text as spans and ids, without making a string per token: the tokeniser's one
 * scanner (tokenize.ts builds its string arrays from this table). Each distinct token gets an id
 * (in order of first occurrence) and the span of its first occurrence; the token sequence is a
 * typed array of ids, cut into paragraphs. Later stages (stop words, stems, hashes) then work once
 * per distinct token instead of once per occurrence.
 *
 * Tokens are runs of Unicode letters and digits (combining marks stay with the letter before them).
 * Scripts written without spaces between words — Han, Hiragana, Katakana, Thai, Lao, Khmer,
 * Myanmar — give one token per character. Everything else (spaces, punctuation, symbols, U+FFFD)
 * separates. Paragraphs are separated by a blank line (two or more line breaks with only whitespace
 * between them) or U+2029; a single
 * line break is a soft wrap inside a paragraph — except in a text with no blank line (a line of
 * whitespace alone) nor U+2029 between its tokens at all, where every line break ends a paragraph:
 * most text corpora write one paragraph a line, and extraction (HTML) always writes blank lines, so
 * pages are unchanged. Paragraphs without tokens are left out.
 */

const SEPARATOR = 0;
const WORD = 1;
const SOLO = 2;
const MARK = 3;

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
const MARK_CHAR = /^\p{M}$/u;
const SOLO_SCRIPT = /^[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}\u30FC\u3005\u3007]$/u;

function classify(ch: string): number {
  if (MARK_CHAR.test(ch)) return MARK;
  if (!LETTER_OR_DIGIT.test(ch)) return SEPARATOR;
  return SOLO_SCRIPT.test(ch) ? SOLO : WORD;
}

/** A BMP_CLASS entry not computed yet (no class has this value). */
const UNCLASSIFIED = 0xff;

/**
 * Class of each BMP code unit, filled in on a unit's first sight: classify is pure, so the table
 * only ever holds its answers, and a lookup's result never depends on earlier lookups. Filled
 * lazily because classifying all 65,536 units at load took a large share of a short command's
 * start-up, while a text meets a few hundred distinct units. One table per thread.
 */
const BMP_CLASS = new Uint8Array(0x10000).fill(UNCLASSIFIED);

/** Class of a BMP code unit; surrogates are separators (pairs are classified on the fly). */
function bmpClass(unit: number): number {
  const known = BMP_CLASS[unit]!;
  if (known !== UNCLASSIFIED) return known;
  const cls = unit >= 0xd800 && unit <= 0xdfff ? SEPARATOR : classify(String.fromCharCode(unit));
  BMP_CLASS[unit] = cls;
  return cls;
}

export interface TokenTable {
  /** The text the spans point into. */
  readonly text: string;
  /** Number of tokens (occurrences). */
  readonly count: number;
  /** ids[0..count): the distinct-token id of each token, in order. */
  readonly ids: Int32Array;
  /** Number of paragraphs (each has at least one token). */
  readonly paragraphCount: number;
  /** paragraphEnds[0..paragraphCount): index in `ids` just after each paragraph's last token. */
  readonly paragraphEnds: Int32Array;
  /** Number of distinct tokens. */
  readonly distinct: number;
  /**
   * Three int32 per distinct token, in one array: spans[3·id] and spans[3·id + 1] are the start and
   * end (code units in `text`) of its first occurrence, spans[3·id + 2] its spanHash.
   */
  readonly spans: Int32Array;
}

/**
 * FNV-1a's offset basis XOR a random value drawn once per thread: token tables probe linearly, so a
 * fixed hash would let a page of crafted colliding tokens make tokenising quadratic. Constant for the
 * thread's lifetime (SpanSets and token tables of one thread agree); never persisted.
 */
const SPAN_HASH_BASIS = (0x811c9dc5 ^ crypto.getRandomValues(new Uint32Array(1))[0]!) | 0;

/**
 * The hash tokenTable keys tokens by: FNV-1a (seeded per thread) over the UTF-16 code units of
 * text[start..end), then a finaliser for the low bits (int32). Not for anything outside one thread.
 */
export function spanHash(text: string, start: number, end: number): number {
  let h = SPAN_HASH_BASIS;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return h;
}

function grow(array: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const out = new Int32Array(Math.max(16, size * 2));
  out.set(array.subarray(0, size));
  return out;
}

/** Whitespace that is no line break (what NFKC leaves of the spaces, and the rest). */
function isSpace(unit: number): boolean {
  return unit === 0x20 || unit === 0x09 || unit === 0x0b || unit === 0x0c || unit === 0xa0 || unit === 0x3000
    || (unit >= 0x2000 && unit <= 0x200a) || unit === 0x1680 || unit === 0x202f || unit === 0x205f || unit === 0x85;
}

/**
 * Class of the character at `i` plus 4 × (its width − 1): a surrogate pair is classified as one
 * character of width 2; a lone surrogate separates.
 */
function classAt(text: string, i: number, n: number): number {
  const unit = text.charCodeAt(i);
  if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < n) {
    const low = text.charCodeAt(i + 1);
    if (low >= 0xdc00 && low <= 0xdfff) return classify(text.slice(i, i + 2)) + 4;
  }
  return bmpClass(unit);
}

/** Tokens of `text` as a table of ids and spans. Expects normalised text but accepts any string. */
export function tokenTable(text: string): TokenTable {
  const n = text.length;
  let ids = new Int32Array(Math.max(16, (n >>> 2) + 1));
  let count = 0;
  let paragraphEnds = new Int32Array(16);
  let paragraphCount = 0;
  // Ends at single line breaks, used only when the text has no blank line between tokens (see above).
  let lineEnds = new Int32Array(16);
  let lineCount = 0;
  let blankLine = false; // a blank line (or U+2029) lies between two tokens somewhere in the text
  let blank = false; // ... between the last token and the next
  let pureBreaks = 0; // consecutive line breaks with only whitespace between them
  let spans = new Int32Array(3 * Math.max(16, n >>> 4));
  let distinct = 0;
  // Open addressing: slot → id + 1 (0: empty); kept at most half full.
  let slots = new Int32Array(Math.max(64, 1 << (32 - Math.clz32(spans.length / 3))));
  let mask = slots.length - 1;
  let lineBreaks = 0; // line breaks since the last token

  let i = 0;
  while (i < n) {
    // Between tokens: separators (line breaks counted) and marks (dropped).
    const first = classAt(text, i, n);
    const cls = first & 3;
    if (cls === SEPARATOR) {
      const unit = text.charCodeAt(i);
      if (unit === 0x0a || (unit === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
        lineBreaks++;
        if (++pureBreaks >= 2) blank = true;
      } else if (unit === 0x2029) {
        lineBreaks++;
        blank = true;
      } else if (unit !== 0x0d && !isSpace(unit)) pureBreaks = 0;
      i += 1 + (first >>> 2);
      continue;
    }
    if (cls === MARK) {
      pureBreaks = 0;
      i += 1 + (first >>> 2);
      continue;
    }
    // A token: a word runs over letters, digits and marks; a solo character takes its marks.
    // spanHash of the token, computed as its code units are read.
    const start = i;
    let h = Math.imul(SPAN_HASH_BASIS ^ text.charCodeAt(i), 0x01000193);
    if (first >= 4) h = Math.imul(h ^ text.charCodeAt(i + 1), 0x01000193);
    i += 1 + (first >>> 2);
    while (i < n) {
      const unit = text.charCodeAt(i);
      if (unit < 0xd800 || unit > 0xdfff) {
        const c = bmpClass(unit);
        if (c !== MARK && (c !== WORD || cls !== WORD)) break;
        h = Math.imul(h ^ unit, 0x01000193);
        i++;
      } else {
        const next = classAt(text, i, n);
        const c = next & 3;
        if (c !== MARK && (c !== WORD || cls !== WORD)) break;
        h = Math.imul(h ^ unit, 0x01000193);
        if (next >= 4) h = Math.imul(h ^ text.charCodeAt(i + 1), 0x01000193);
        i += 1 + (next >>> 2);
      }
    }
    const end = i;
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    h ^= h >>> 12;

    if (blank && count > 0 && (paragraphCount === 0 || paragraphEnds[paragraphCount - 1] !== count)) {
      if (paragraphCount === paragraphEnds.length) paragraphEnds = grow(paragraphEnds, paragraphCount);
      paragraphEnds[paragraphCount++] = count;
    }
    if (lineBreaks >= 1 && count > 0 && !blankLine) {
      if (blank) blankLine = true;
      else {
        if (lineCount === lineEnds.length) lineEnds = grow(lineEnds, lineCount);
        lineEnds[lineCount++] = count;
      }
    }
    lineBreaks = 0;
    pureBreaks = 0;
    blank = false;
    const length = end - start;
    let slot = h & mask;
    let id = -1;
    for (;;) {
      const entry = slots[slot]!;
      if (entry === 0) break;
      const candidate = entry - 1;
      const at = candidate * 3;
      if (spans[at + 2] === h && spans[at + 1]! - spans[at]! === length) {
        const s = spans[at]!;
        let k = 0;
        while (k < length && text.charCodeAt(s + k) === text.charCodeAt(start + k)) k++;
        if (k === length) {
          id = candidate;
          break;
        }
      }
      slot = (slot + 1) & mask;
    }
    if (id < 0) {
      id = distinct++;
      const at = id * 3;
      if (at === spans.length) spans = grow(spans, at);
      spans[at] = start;
      spans[at + 1] = end;
      spans[at + 2] = h;
      slots[slot] = id + 1;
      if (distinct * 2 > slots.length) {
        slots = new Int32Array(slots.length * 2);
        mask = slots.length - 1;
        for (let j = 0; j < distinct; j++) {
          let t = spans[j * 3 + 2]! & mask;
          while (slots[t] !== 0) t = (t + 1) & mask;
          slots[t] = j + 1;
        }
      }
    }
    if (count === ids.length) ids = grow(ids, count);
    ids[count++] = id;
  }
  if (!blankLine && lineCount > 0) {
    paragraphEnds = lineEnds;
    paragraphCount = lineCount;
  }
  if (count > 0 && (paragraphCount === 0 || paragraphEnds[paragraphCount - 1] !== count)) {
    if (paragraphCount === paragraphEnds.length) paragraphEnds = grow(paragraphEnds, paragraphCount);
    paragraphEnds[paragraphCount++] = count;
  }
  return { text, count, ids, paragraphCount, paragraphEnds, distinct, spans };
}

/** The string of distinct token `id`. */
export function tokenString(table: TokenTable, id: number): string {
  return table.text.slice(table.spans[id * 3]!, table.spans[id * 3 + 1]!);
}
