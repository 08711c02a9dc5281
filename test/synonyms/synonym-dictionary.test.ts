import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSynonymDictionary } from '../../src/synonyms/synonym-dictionary.js';
import { parseSynonymClasses } from '../../src/synonyms/parse-synonym-classes.js';
import { InputError, ValidationError } from '../../src/errors.js';
import { stemEnglish } from '../../src/text/english-stemmer.js';
import { stemRussian } from '../../src/text/russian-stemmer.js';

const dir = mkdtempSync(join(tmpdir(), 'neardup-synonyms-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const shares = (a: readonly number[], b: readonly number[]) => a.some((id) => b.includes(id));

describe('loadSynonymDictionary, shipped tables', () => {
  const dictionary = loadSynonymDictionary();

  it('puts WordNet synonyms of English in one class, looked up by stem', () => {
    const car = dictionary.classesOf('eng', stemEnglish('car'));
    expect(car.length).toBeGreaterThan(0);
    expect(shares(car, dictionary.classesOf('eng', stemEnglish('automobile')))).toBe(true);
    // Inflected forms share the stem, so the class.
    expect(shares(dictionary.classesOf('eng', stemEnglish('cars')), dictionary.classesOf('eng', stemEnglish('automobiles')))).toBe(true);
    expect(shares(car, dictionary.classesOf('eng', stemEnglish('banana')))).toBe(false);
    expect(dictionary.wordsOf('eng', car[0]!)).toContain('car');
  });

  it('stemsOf lists the stems a class is found by', () => {
    for (const id of dictionary.classesOf('eng', stemEnglish('car'))) {
      const stems = dictionary.stemsOf('eng', id);
      expect(stems).toContain(stemEnglish('car'));
      for (const s of stems) expect(dictionary.classesOf('eng', s)).toContain(id);
    }
    expect(dictionary.stemsOf('eng', -1)).toEqual([]);
    expect(dictionary.stemsOf('deu', 0)).toEqual([]);
  });

  it('puts thesaurus synonyms of Russian in one class', () => {
    const a = dictionary.classesOf('rus', stemRussian('автомобиль'));
    expect(shares(a, dictionary.classesOf('rus', stemRussian('автомашина')))).toBe(true);
    expect(shares(dictionary.classesOf('rus', stemRussian('купить')), dictionary.classesOf('rus', stemRussian('приобрести')))).toBe(true);
    expect(shares(a, dictionary.classesOf('rus', stemRussian('купить')))).toBe(false);
  });

  it('has no classes for an unknown language or word', () => {
    expect(dictionary.classesOf('deu', 'auto')).toEqual([]);
    expect(dictionary.classesOf('eng', 'qqqxyz')).toEqual([]);
    expect(dictionary.languages).toEqual(['eng', 'rus']);
    expect(dictionary.classCount('eng')).toBeGreaterThan(5000);
  });

  it('ids are ascending per word', () => {
    const ids = dictionary.classesOf('eng', stemEnglish('run'));
    expect(ids.length).toBeGreaterThan(1);
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);
  });
});

describe('loadSynonymDictionary, user classes', () => {
  it('reads a user file, one class a line, with comments, commas or spaces', () => {
    const file = join(dir, 'user.txt');
    writeFileSync(file, '# my classes\nlaptop notebook\n\nsneakers, trainers, running shoes\nсмартфон телефон\n');
    const dictionary = loadSynonymDictionary({ builtIn: false, userFile: file });
    expect(dictionary.languages).toEqual(['eng', 'rus']);
    expect(shares(dictionary.classesOf('eng', stemEnglish('laptops')), dictionary.classesOf('eng', stemEnglish('notebook')))).toBe(true);
    expect(shares(dictionary.classesOf('eng', stemEnglish('sneakers')), dictionary.classesOf('eng', stemEnglish('trainers')))).toBe(true);
    // The phrase "running shoes" is two words: left out, it equates nothing.
    expect(dictionary.classesOf('eng', stemEnglish('shoes'))).toEqual([]);
    expect(shares(dictionary.classesOf('rus', stemRussian('смартфоны')), dictionary.classesOf('rus', stemRussian('телефон')))).toBe(true);
    // Without the shipped tables, WordNet's classes are absent.
    expect(dictionary.classesOf('eng', stemEnglish('car'))).toEqual([]);
  });

  it('adds user classes after the shipped ones', () => {
    const dictionary = loadSynonymDictionary({ userClasses: [['gizmo', 'doohickey']] });
    const gizmo = dictionary.classesOf('eng', stemEnglish('gizmo'));
    expect(shares(gizmo, dictionary.classesOf('eng', stemEnglish('doohickey')))).toBe(true);
    expect(dictionary.classesOf('eng', stemEnglish('car')).length).toBeGreaterThan(0);
  });

  it('drops stop words and classes left with one stem', () => {
    const dictionary = loadSynonymDictionary({ builtIn: false, userClasses: [['the', 'gadget'], ['run', 'running']] });
    expect(dictionary.classCount('eng')).toBe(0);
  });

  it('folds look-alike letters and case like the fingerprint does', () => {
    // "Gizmо" with a Cyrillic о, upper-case G.
    const dictionary = loadSynonymDictionary({ builtIn: false, userLanguage: 'eng', userClasses: [['Gizm\u043e', 'widget']] });
    expect(dictionary.classesOf('eng', stemEnglish('gizmo')).length).toBe(1);
  });

  it('refuses a missing file and a one-word line, naming the line', () => {
    expect(() => loadSynonymDictionary({ userFile: join(dir, 'missing.txt') })).toThrow(InputError);
    const file = join(dir, 'bad.txt');
    writeFileSync(file, 'a b\nlonely\n');
    expect(() => loadSynonymDictionary({ userFile: file })).toThrow(/line 2/);
    expect(() => loadSynonymDictionary({ userClasses: [['solo']] })).toThrow(ValidationError);
    expect(() => loadSynonymDictionary({ userLanguage: 'English' })).toThrow(/Expected `userLanguage` to be an ISO 639-3 code/);
  });
});

describe('parseSynonymClasses', () => {
  it.each([
    ['a b c', [['a', 'b', 'c']]],
    ['a, b c, d', [['a', 'b c', 'd']]],
    ['a\tb', [['a', 'b']]],
    ['# comment\n\n  x  y  \r\n', [['x', 'y']]],
    ['a a b', [['a', 'b']]],
  ])('%j', (text, expected) => {
    expect(parseSynonymClasses(text).map((c) => c.words)).toEqual(expected);
  });
});
