/**
 * The language stage: drops the language's stop words and replaces every other word by its
 * Snowball stem. Tokens of scripts written without spaces (one character each) and tokens with
 * digits are kept as they are.
 */
import { createStemmer, hasFastStemmer, hasStemmer, stopWordsFor, type Stemmer } from './language-resources.js';
import type { StemCache } from './stem-cache.js';

export interface StemOptions {
  /** Stems kept across calls (see StemCache); without it, stems are memoised for this call only. */
  readonly stemCache?: StemCache | undefined;
  /** Keep stop words (still stemmed). @default false */
  readonly keepStopWords?: boolean;
}

const HAS_DIGIT = /\p{N}/u;

/**
 * Per BMP code unit: 0 not looked at yet, 1 not a number character, 2 a number character (\p{N}),
 * filled in on a unit's first sight (a pure test, so a lookup never depends on earlier ones; lazy
 * because testing all 65,536 units at load slowed a short command's start-up). Astral units are
 * tested by the regex.
 */
const BMP_DIGIT = new Uint8Array(0x10000);

/** `HAS_DIGIT.test(word)` by table. */
function hasDigit(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const unit = word.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdfff) return HAS_DIGIT.test(word);
    let digit = BMP_DIGIT[unit]!;
    if (digit === 0) digit = BMP_DIGIT[unit] = HAS_DIGIT.test(String.fromCharCode(unit)) ? 2 : 1;
    if (digit === 2) return true;
  }
  return false;
}

/**
 * A word → stem function for `language` (the identity where it has no stemmer). Words are seen
 * once per document (the caller memoises), so only the snowball-stemmers languages consult the
 * shared StemCache; the string stemmers are cheaper than a lookup in a large map.
 */
export function stemmerFor(language: string, options: StemOptions): (word: string) => string {
  if (!hasStemmer(language)) return (word: string) => word;
  // Made on the first miss only: with a warm StemCache most documents never need one.
  let stemmer: Stemmer | null = null;
  const stemOf = (word: string): string =>
    // Single CJK characters and tokens with digits have nothing to stem.
    word.charCodeAt(0) >= 0x2e80 || hasDigit(word) ? word : (stemmer ??= createStemmer(language)!)(word);
  const cache = hasFastStemmer(language) ? undefined : options.stemCache;
  if (cache === undefined) return stemOf;
  const memo = cache.memoFor(language);
  return (word: string): string => {
    let out = memo.get(word);
    if (out === undefined) {
      out = stemOf(word);
      cache.remember(memo, word, out);
    }
    return out;
  };
}

/**
 * Paragraphs of tokens without the stop words of `language` (ISO 639-3), stemmed; paragraphs left
 * empty are dropped. When every token of the text is a stop word, all of them are kept (stemmed),
 * so that a short text such as "to be or not to be" still has features.
 */
export function removeStopWordsAndStemParagraphs(
  paragraphs: readonly (readonly string[])[], language: string, options: StemOptions = {},
): string[][] {
  const stopWords = stopWordsFor(language);
  const stem = stemmerFor(language, options);
  const keepAll = options.keepStopWords === true || stopWords.size === 0;
  // One lookup per token: each distinct token's stem, or null for a stop word.
  const seen = new Map<string, string | null>();
  const out: string[][] = [];
  for (const tokens of paragraphs) {
    const words: string[] = [];
    for (const token of tokens) {
      let word = seen.get(token);
      if (word === undefined) {
        word = !keepAll && stopWords.has(token) ? null : stem(token);
        seen.set(token, word);
      }
      if (word !== null) words.push(word);
    }
    if (words.length > 0) out.push(words);
  }
  if (out.length === 0 && paragraphs.some((p) => p.length > 0)) {
    for (const tokens of paragraphs) if (tokens.length > 0) out.push(tokens.map(stem));
  }
  return out;
}

/** One paragraph: `tokens` without stop words, stemmed (see removeStopWordsAndStemParagraphs). */
export function removeStopWordsAndStem(tokens: readonly string[], language: string, options: StemOptions = {}): string[] {
  return removeStopWordsAndStemParagraphs([tokens], language, options).flat();
}
