/**
 * Splits (normalised) text into tokens: runs of Unicode letters and digits (combining marks stay
 * with the letter before them). Scripts written without spaces between words — Han, Hiragana,
 * Katakana, Thai, Lao, Khmer, Myanmar — give one token per character, so that CJK text still
 * yields shingles (of characters). Everything else (spaces, punctuation, symbols, U+FFFD) separates.
 *
 * Paragraphs are separated by a blank line (two or more line breaks, as extraction writes them) or
 * U+2029; a single line break is a soft wrap inside a paragraph.
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

/** Class of every BMP code unit; surrogates are separators (pairs are classified on the fly). */
const BMP_CLASS = (() => {
  const table = new Uint8Array(0x10000);
  for (let cp = 0; cp < 0x10000; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    table[cp] = classify(String.fromCharCode(cp));
  }
  return table;
})();

/** Tokens of `text`, in order. Expects normalised text (see normalizeText) but accepts any string. */
export function tokenize(text: string): string[] {
  return tokenizeParagraphs(text).flat();
}

/** Tokens of `text` by paragraph (paragraphs without tokens are left out). */
export function tokenizeParagraphs(text: string): string[][] {
  const paragraphs: string[][] = [];
  let tokens: string[] = [];
  const n = text.length;
  let start = -1;
  let kind = SEPARATOR; // kind of the token being built: SEPARATOR (none), WORD or SOLO
  let lineBreaks = 0; // line breaks since the last token
  const push = (end: number) => {
    if (lineBreaks >= 2 && tokens.length > 0) {
      paragraphs.push(tokens);
      tokens = [];
    }
    lineBreaks = 0;
    tokens.push(text.slice(start, end));
  };
  for (let i = 0; i < n; i++) {
    const unit = text.charCodeAt(i);
    let cls: number;
    let width = 1;
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < n) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        cls = classify(text.slice(i, i + 2));
        width = 2;
      } else {
        cls = SEPARATOR;
      }
    } else {
      cls = BMP_CLASS[unit]!;
    }
    if (cls === WORD) {
      if (kind === SOLO) push(i);
      if (kind !== WORD) {
        start = i;
        kind = WORD;
      }
    } else if (cls === SOLO) {
      if (kind !== SEPARATOR) push(i);
      start = i;
      kind = SOLO;
    } else if (cls === SEPARATOR) {
      if (kind !== SEPARATOR) push(i);
      kind = SEPARATOR;
      if (unit === 0x0a || (unit === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) lineBreaks++;
      else if (unit === 0x2029) lineBreaks += 2;
    }
    // A mark extends the current token and is dropped between tokens.
    i += width - 1;
  }
  if (kind !== SEPARATOR) push(n);
  if (tokens.length > 0) paragraphs.push(tokens);
  return paragraphs;
}
