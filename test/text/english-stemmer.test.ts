import fc from 'fast-check';
import snowball from 'snowball-stemmers';
import stopwordsIso from 'stopwords-iso' with { type: 'json' };
import { describe, expect, it } from 'vitest';
import { stemEnglish } from '../../src/text/english-stemmer.js';
import { tokenize } from '../../src/text/tokenize.js';
import { loadDevTruth } from '../helpers/dev-texts.js';

const reference = snowball.newStemmer('english');

describe('stemEnglish', () => {
  it('gives snowball-stemmers’ English stem for every word of the dev pages and stop-word lists', () => {
    const words = new Set<string>();
    const truth = loadDevTruth();
    for (const { articleBody } of Object.values(truth)) for (const token of tokenize(articleBody.toLowerCase())) words.add(token);
    for (const list of Object.values(stopwordsIso as Record<string, string[]>)) for (const word of list) words.add(word.toLowerCase());
    expect(words.size).toBeGreaterThan(15_000);
    const mismatches = [...words].filter((w) => stemEnglish(w) !== reference.stem(w));
    expect(mismatches).toEqual([]);
  });

  it('agrees on every Porter2 suffix combination', () => {
    const stems = ['gener', 'commun', 'arsen', 'hop', 'tap', 'fil', 'cry', 'ty', 'say', 'play', 'happ', 'rat', 'troubl', 'siz', 'agre',
      'feed', 'cont', 'relat', 'nation', 'condition', 'hesit', 'digit', 'radic', 'differ', 'predic', 'analog', 'geolog', 'fluen',
      'beauti', 'sens', 'activ', 'formal', 'electr', 'adjust', 'depend', 'communi', 'ski', 'yell', 'ayy', 'eye', 'sky', 'ie', 'a', 'ab'];
    const suffixes = ['', 's', 'es', 'ies', 'ied', 'sses', 'ss', 'us', 'ed', 'eed', 'ing', 'ingly', 'edly', 'eedly', 'ly', 'li', 'ational',
      'tional', 'enci', 'anci', 'abli', 'entli', 'izer', 'ization', 'ation', 'ator', 'alism', 'aliti', 'alli', 'fulness', 'ousli', 'ousness',
      'iveness', 'iviti', 'biliti', 'bli', 'ogi', 'fulli', 'lessli', 'icate', 'ative', 'alize', 'iciti', 'ical', 'ful', 'ness', 'al', 'ance',
      'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize', 'ion', 'sion', 'tion',
      'e', 'l', 'll', "'s", "'", "'s'", 'y', 'yed', 'ying', 'at', 'bl', 'iz', 'bbing', 'dded', 'tting'];
    const mismatches: string[] = [];
    for (const stem of stems) for (const suffix of suffixes) for (const tail of ['', 'ly', 'ness', 's', 'ed']) {
      const word = stem + suffix + tail;
      if (stemEnglish(word) !== reference.stem(word)) mismatches.push(word);
    }
    expect(mismatches).toEqual([]);
  });

  it('agrees on random lower-case words', () => {
    const letters = fc.constantFrom(...'abcdeefghiilmnoprsstuyy\''.split(''));
    fc.assert(fc.property(fc.array(letters, { minLength: 1, maxLength: 14 }).map((a) => a.join('')), (word) => {
      expect(stemEnglish(word)).toBe(reference.stem(word));
    }), { numRuns: 3000 });
  });

  it.each([
    ['generously', 'generous'], ['skies', 'sky'], ['dying', 'die'], ['news', 'news'], ['succeeding', 'succeed'],
    ['hopping', 'hop'], ['hoping', 'hope'], ['relational', 'relat'], ['cries', 'cri'], ['ties', 'tie'], ['yelled', 'yell'],
  ])('%s → %s', (word, stem) => {
    expect(stemEnglish(word)).toBe(stem);
  });
});
