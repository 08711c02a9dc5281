/**
 * Sentences and words of a raw text, for the cascade's text statistics. A sentence ends at `.`,
 * `!`, `?`, `…` (or their CJK forms) followed by a space, or at a line break; words are runs of
 * letters (apostrophes inside a word kept), lower-cased.
 */

const SENTENCE_END = /(?<=[.!?…。！？])["'”’»)\]]*\s+|\n+/u;
const WORD = /\p{L}[\p{L}\p{M}'’]*/gu;

/** The sentences of a text that have at least one word, as lower-cased words. */
export function sentenceWords(text: string): string[][] {
  const out: string[][] = [];
  for (const sentence of text.split(SENTENCE_END)) {
    const words = sentence.normalize('NFKC').toLowerCase().match(WORD);
    if (words !== null) out.push(words);
  }
  return out;
}

/** The sentences of a text as they are written (trimmed, empty ones left out). */
export function splitSentences(text: string): string[] {
  return text.split(SENTENCE_END).map((s) => s.trim()).filter((s) => s !== '');
}
