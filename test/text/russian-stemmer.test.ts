import fc from 'fast-check';
import snowball from 'snowball-stemmers';
import stopwordsIso from 'stopwords-iso' with { type: 'json' };
import { describe, expect, it } from 'vitest';
import { stemRussian } from '../../src/text/russian-stemmer.js';
import { tokenize } from '../../src/text/tokenize.js';
import { loadDevTruth } from '../helpers/dev-texts.js';

const reference = snowball.newStemmer('russian');

describe('stemRussian', () => {
  it('gives snowball-stemmers’ Russian stem for every Cyrillic word of the dev pages and stop-word lists', () => {
    const words = new Set<string>();
    const truth = loadDevTruth();
    for (const { articleBody } of Object.values(truth)) for (const t of tokenize(articleBody.toLowerCase())) if (/[а-яё]/.test(t)) words.add(t);
    for (const code of ['ru', 'uk', 'bg']) for (const w of (stopwordsIso as Record<string, string[]>)[code]!) words.add(w.toLowerCase());
    expect(words.size).toBeGreaterThan(3000);
    expect([...words].filter((w) => stemRussian(w) !== reference.stem(w))).toEqual([]);
  });

  it('agrees on every suffix of the algorithm after a few stems', () => {
    const stems = ['красн', 'бега', 'чита', 'дом', 'нов', 'работ', 'говор', 'сильн', 'пис', 'ид', 'а', 'я', 'в'];
    const suffixes = ['', 'в', 'вши', 'вшись', 'ив', 'ивши', 'ившись', 'ыв', 'ывши', 'ывшись', 'ее', 'ие', 'ое', 'ые', 'ими', 'ыми', 'ей',
      'ий', 'ой', 'ый', 'ем', 'им', 'ом', 'ым', 'его', 'ого', 'ему', 'ому', 'их', 'ых', 'ею', 'ою', 'ую', 'юю', 'ая', 'яя', 'нн', 'вш', 'щ',
      'ющ', 'ивш', 'ывш', 'ующ', 'ла', 'на', 'ете', 'йте', 'ли', 'й', 'л', 'н', 'ло', 'но', 'ет', 'ют', 'ны', 'ть', 'ешь', 'нно', 'ила',
      'ыла', 'ена', 'ейте', 'уйте', 'ите', 'или', 'ыли', 'уй', 'ил', 'ыл', 'ен', 'ило', 'ыло', 'ено', 'ят', 'ует', 'уют', 'ит', 'ыт', 'ены',
      'ить', 'ыть', 'ишь', 'ю', 'а', 'ев', 'ов', 'ье', 'е', 'иями', 'ями', 'ами', 'еи', 'ии', 'и', 'ией', 'иям', 'ям', 'ием', 'ам', 'о',
      'у', 'ах', 'иях', 'ях', 'ы', 'ь', 'ию', 'ью', 'ия', 'ья', 'я', 'ост', 'ость', 'ейш', 'ейше', 'енн'];
    const mismatches: string[] = [];
    for (const stem of stems) for (const suffix of suffixes) for (const tail of ['', 'ся', 'сь', 'ости', 'ейшее']) {
      const word = stem + suffix + tail;
      if (stemRussian(word) !== reference.stem(word)) mismatches.push(word);
    }
    expect(mismatches).toEqual([]);
  });

  it('agrees on random Cyrillic words', () => {
    const letters = fc.constantFrom(...'абвгдеёжзийклмнопрстуфхцчшщъыьэюяааееиоо'.split(''));
    fc.assert(fc.property(fc.array(letters, { minLength: 1, maxLength: 14 }).map((a) => a.join('')), (word) => {
      expect(stemRussian(word)).toBe(reference.stem(word));
    }), { numRuns: 5000 });
  });

  it.each([
    ['документов', 'документ'], ['красивейшая', 'красив'], ['прочитавшись', 'прочита'], ['сильнейшее', 'сильн'],
    // In this version ё is no vowel, so RV starts after the final а and nothing is removed.
    ['ёлка', 'ёлка'],
  ])('%s → %s', (word, stem) => {
    expect(stemRussian(word)).toBe(reference.stem(word));
    expect(stemRussian(word)).toBe(stem);
  });
});
