/**
 * The language stage: drops the language's stop words and replaces every other word by its
 * Snowball stem. Tokens of scripts written without spaces (one character each) and tokens with
 * digits are kept as they are.
 */
import { createStemmer, hasStemmer, stopWordsFor, type Stemmer } from './language-resources.js';
import type { StemCache } from './stem-cache.js';

export interface StemOptions {
  /** Stems kept across calls (see StemCache); without it, stems are memoised for this call only. */
  readonly stemCache?: StemCache | undefined;
  /** Keep stop words (still stemmed). @default false */
  readonly keepStopWords?: boolean;
}

const HAS_DIGIT = /\p{N}/u;

/** A word → stem function with the call's (or the cache's) memo. */
function memoStemmer(language: string, options: StemOptions): (word: string) => string {
  if (!hasStemmer(language)) return (word: string) => word;
  // Made on the first miss only: with a warm StemCache most documents never need one.
  let stemmer: Stemmer | null = null;
  const cache = options.stemCache;
  const memo = cache === undefined ? new Map<string, string>() : cache.memoFor(language);
  return (word: string): string => {
    let out = memo.get(word);
    if (out === undefined) {
      // Single CJK characters and tokens with digits have nothing to stem.
      if (word.charCodeAt(0) >= 0x2e80 || HAS_DIGIT.test(word)) out = word;
      else out = (stemmer ??= createStemmer(language)!)(word);
      if (cache === undefined) memo.set(word, out);
      else cache.remember(memo, word, out);
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
  const stem = memoStemmer(language, options);
  const keepAll = options.keepStopWords === true || stopWords.size === 0;
  const out: string[][] = [];
  for (const tokens of paragraphs) {
    const words: string[] = [];
    for (const token of tokens) if (keepAll || !stopWords.has(token)) words.push(stem(token));
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
