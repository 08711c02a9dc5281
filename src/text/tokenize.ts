/**
 * Splits (normalised) text into tokens: runs of Unicode letters and digits (combining marks stay
 * with the letter before them). Scripts written without spaces between words — Han, Hiragana,
 * Katakana, Thai, Lao, Khmer, Myanmar — give one token per character, so that CJK text still
 * yields shingles (of characters). Everything else (spaces, punctuation, symbols, U+FFFD) separates.
 *
 * Paragraphs are separated by a blank line (two or more line breaks, as extraction writes them) or
 * U+2029; a single line break is a soft wrap inside a paragraph — unless the text has no blank line
 * between its tokens at all, where each line break ends a paragraph (one paragraph a line, as in most
 * text corpora).
 *
 * The scanner itself is tokenTable (token-table.ts); these give its tokens as strings.
 */
import { tokenTable } from './token-table.js';

/** Tokens of `text`, in order. Expects normalised text (see normalizeText) but accepts any string. */
export function tokenize(text: string): string[] {
  return tokenizeParagraphs(text).flat();
}

/** Tokens of `text` by paragraph (paragraphs without tokens are left out). */
export function tokenizeParagraphs(text: string): string[][] {
  const table = tokenTable(text);
  const strings = new Array<string>(table.distinct);
  for (let id = 0; id < table.distinct; id++) strings[id] = text.slice(table.spans[id * 3]!, table.spans[id * 3 + 1]!);
  const paragraphs: string[][] = [];
  let from = 0;
  for (let p = 0; p < table.paragraphCount; p++) {
    const to = table.paragraphEnds[p]!;
    const tokens = new Array<string>(to - from);
    for (let k = from; k < to; k++) tokens[k - from] = strings[table.ids[k]!]!;
    paragraphs.push(tokens);
    from = to;
  }
  return paragraphs;
}
