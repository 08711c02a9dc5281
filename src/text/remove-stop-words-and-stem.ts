/**
 * The language stage: drops the language's stop words and replaces every other word by its
 * Snowball stem. Tokens of scripts written without spaces (one character each) and tokens with
 * digits are kept as they are.
 */
import { createStemmer, stopWordsFor } from './language-resources.js';
import type { StemCache } from './stem-cache.js';

export interface StemOptions {
  /** Stems kept across calls (see StemCache); without it, stems are memoised for this call only. */
  readonly stemCache?: StemCache | undefined;
  /** Keep stop words (still stemmed). @default false */
  readonly keepStopWords?: boolean;
}

const HAS_DIGIT = /\p{N}/u;

/**
 * Words of `tokens` without the stop words of `language` (ISO 639-3), stemmed. When every token is
 * a stop word, all of them are kept (stemmed), so that a short text such as "to be or not to be"
 * still has features.
 */
export function removeStopWordsAndStem(tokens: readonly string[], language: string, options: StemOptions = {}): string[] {
  const stopWords = stopWordsFor(language);
  const stemmer = createStemmer(language);
  const cache = options.stemCache;
  const memo = cache === undefined ? new Map<string, string>() : cache.memoFor(language);
  const stem = (word: string): string => {
    if (stemmer === null) return word;
    let out = memo.get(word);
    if (out === undefined) {
      // Single CJK characters and tokens with digits have nothing to stem.
      out = word.charCodeAt(0) >= 0x2e80 || HAS_DIGIT.test(word) ? word : stemmer(word);
      if (cache === undefined) memo.set(word, out);
      else cache.remember(memo, word, out);
    }
    return out;
  };
  const out: string[] = [];
  const keepAll = options.keepStopWords === true || stopWords.size === 0;
  for (const token of tokens) if (keepAll || !stopWords.has(token)) out.push(stem(token));
  if (out.length === 0 && tokens.length > 0) for (const token of tokens) out.push(stem(token));
  return out;
}
