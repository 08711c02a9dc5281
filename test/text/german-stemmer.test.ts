import fc from 'fast-check';
import snowball from 'snowball-stemmers';
import stopwordsIso from 'stopwords-iso' with { type: 'json' };
import { describe, expect, it } from 'vitest';
import { stemGerman } from '../../src/text/german-stemmer.js';
import { tokenize } from '../../src/text/tokenize.js';
import { loadDevTruth } from '../helpers/dev-texts.js';

const reference = snowball.newStemmer('german');

describe('stemGerman', () => {
  it('gives snowball-stemmers’ German stem for every word of the dev pages and stop-word lists', () => {
    const words = new Set<string>();
    const truth = loadDevTruth();
    for (const { articleBody } of Object.values(truth)) for (const t of tokenize(articleBody.toLowerCase())) words.add(t);
    for (const code of ['de', 'nl', 'en']) for (const w of (stopwordsIso as Record<string, string[]>)[code]!) words.add(w.toLowerCase());
    expect(words.size).toBeGreaterThan(14_000);
    expect([...words].filter((w) => stemGerman(w) !== reference.stem(w))).toEqual([]);
  });

  it('agrees on every suffix of the algorithm after a few stems', () => {
    const stems = ['haus', 'kind', 'bau', 'schön', 'groß', 'freund', 'arbeit', 'kenntn', 'erkenn', 'ab', 'a', 'trau', 'heilig', 'lebend'];
    const suffixes = ['', 'e', 'em', 'en', 'ern', 'er', 's', 'es', 'est', 'st', 'end', 'ig', 'ung', 'lich', 'isch', 'ik', 'heit', 'keit',
      'igkeit', 'lichkeit', 'endig', 'ungen', 'nis', 'nisse', 'nissen', 'erlich', 'enheit', 'ß', 'ßen', 'ue', 'uy', 'aue', 'eye'];
    const mismatches: string[] = [];
    for (const stem of stems) for (const suffix of suffixes) for (const tail of ['', 'e', 'en', 's', 'er', 'st', 'est']) {
      const word = stem + suffix + tail;
      if (stemGerman(word) !== reference.stem(word)) mismatches.push(word);
    }
    expect(mismatches).toEqual([]);
  });

  it('agrees on random words', () => {
    const letters = fc.constantFrom(...'abcdeefghiiklmnnoprsstuuyäöüßeeaa'.split(''));
    fc.assert(fc.property(fc.array(letters, { minLength: 1, maxLength: 14 }).map((a) => a.join('')), (word) => {
      expect(stemGerman(word)).toBe(reference.stem(word));
    }), { numRuns: 5000 });
  });

  it.each([['häuser', 'haus'], ['dokumenten', 'dokument'], ['erkenntnisse', 'erkenntnis'], ['großen', 'gross']])('%s → %s', (word, stem) => {
    expect(stemGerman(word)).toBe(stem);
  });
});
