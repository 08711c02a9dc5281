import { describe, expect, it } from 'vitest';
import { repeatedNameShare, sentenceWords, splitSentences, WordLookup } from '../../src/cascade/sentences.js';
import { normalizeText } from '../../src/text/normalize-text.js';
import { devTexts } from './dev-texts.js';

/** The definitions the scanner implements, as regular expressions (slow, per-word strings). */
const WORD = /\p{L}[\p{L}\p{M}'’]*/gu;
const NAME = /(?<=\p{L}[,;:]?\s+)\p{Lu}[\p{L}\p{M}'’]+/gu;

function referenceSentences(text: string): string[][] {
  return text
    .split(/(?<=[.!?…。！？])["'”’»)\]]*\s+|\n+/u)
    .map((s) => s.normalize('NFKC').toLowerCase().match(WORD))
    .filter((w): w is RegExpMatchArray => w !== null)
    .map((w) => [...w]);
}

function scannedSentences(text: string): string[][] {
  const { ids, sentenceEnds, sentenceCount, words } = sentenceWords(text);
  const out: string[][] = [];
  let from = 0;
  for (let s = 0; s < sentenceCount; s++) {
    out.push([...ids.subarray(from, sentenceEnds[s]!)].map((id) => words[id]!));
    from = sentenceEnds[s]!;
  }
  return out;
}

function referenceNameShare(text: string): number {
  const counts = new Map<string, number>();
  for (const m of text.matchAll(NAME)) counts.set(m[0], (counts.get(m[0]) ?? 0) + 1);
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const repeated = [...counts.values()].filter((c) => c > 1).reduce((a, b) => a + b, 0);
  return total === 0 ? 0 : repeated / total;
}

const TRICKY = [
  'He said "stop." Then he left!  Really? Yes… no.\nNew line; Paris, Paris: London and London.',
  "It's the dogs' bone.' Next one (he said.) After that ’tis over. Ünïcode Œuvre café\u0301 here.",
  'Ｆｕｌｌ ｗｉｄｔｈ. 𝐁old 𝐁old text, 𝐁old. Ends with a mark\u0301',
  'A. B. C.\n\n\nD e f . . g',
  '',
];

describe('sentence scanner', () => {
  it('gives the sentences and words of the regular-expression definition', () => {
    for (const text of [...TRICKY, ...devTexts.map((t) => t.text)]) expect(scannedSentences(text)).toEqual(referenceSentences(text));
  });

  it('numbers distinct words once, in order of first occurrence', () => {
    const { words, count } = sentenceWords('the cat and the hat. The cat!');
    expect(words).toEqual(['the', 'cat', 'and', 'hat']);
    expect(count).toBe(7);
  });

  it('counts repeated capitalised words as the regular expression does', () => {
    for (const text of [...TRICKY, ...devTexts.map((t) => t.text)]) expect(repeatedNameShare(text)).toBe(referenceNameShare(text));
    expect(repeatedNameShare('We met Anna and Bob, then Anna again; Anna left.')).toBe(3 / 4);
  });

  it('counts a name spelt with look-alike letters as its original', () => {
    // Cyrillic А and Р in the second Paris: the same name to a reader, and to the count.
    expect(repeatedNameShare('We saw Paris and then \u0410nna saw \u0420aris with Anna.')).toBe(1);
    expect(repeatedNameShare('We saw Paris and then Anna saw Parts.')).toBe(0);
  });

  it('counts names in the words\' pass as repeatedNameShare does, given the text as written', () => {
    let compared = 0;
    for (const text of [...TRICKY, ...devTexts.map((t) => t.text)]) {
      const lower = normalizeText(text);
      if (lower.length !== text.length) continue;
      compared++;
      const scan = sentenceWords(lower, { lowered: true, cased: text });
      expect(scan.nameShare).toBe(repeatedNameShare(text));
      expect(scan.count).toBe(sentenceWords(text).count);
    }
    expect(compared).toBeGreaterThan(5);
    expect(Number.isNaN(sentenceWords('Some Text.').nameShare)).toBe(true);
    expect(() => sentenceWords('abc', { lowered: true, cased: 'ab' })).toThrow(RangeError);
  });

  it('looks words up by span, without their strings', () => {
    const lookup = new WordLookup(new Map([['the', 1], ['cat', 2], ['caterpillar', 4], ['пёс', 8]]));
    const scan = sentenceWords('The cat saw the caterpillar, a ca and a пёс.');
    const values = scan.valuesIn(lookup, 16, 3);
    const byWord = Object.fromEntries(scan.words.map((w, id) => [w, values[id]]));
    expect(byWord).toEqual({ the: 1 | 16, cat: 2 | 16, saw: 16, caterpillar: 4 | 16, a: 0, ca: 0, and: 16, пёс: 8 | 16 });
    expect(scan.distinct).toBe(scan.words.length);
    expect(scan.words.map((_, id) => scan.wordLength(id))).toEqual(scan.words.map((w) => w.length));
  });

  it('splits written sentences', () => {
    expect(splitSentences('One. Two!\nThree')).toEqual(['One.', 'Two!', 'Three']);
  });
});
