import { describe, expect, it } from 'vitest';
import { STEMMED_LANGUAGES, STOPWORD_LANGUAGES, createStemmer, stopWordsFor } from '../../src/text/language-resources.js';
import { normalizeText } from '../../src/text/normalize-text.js';
import { removeStopWordsAndStem } from '../../src/text/remove-stop-words-and-stem.js';
import { shingles } from '../../src/text/shingles.js';
import { StemCache } from '../../src/text/stem-cache.js';
import { tokenize } from '../../src/text/tokenize.js';

const words = (text: string, language: string) => removeStopWordsAndStem(tokenize(normalizeText(text)), language);

describe('the seed’s Catalan worked example', () => {
  // The seed's method predicts "detectar document near", "document near duplicate". What the
  // Catalan Snowball stemmer really gives is shorter stems; the shape is the predicted one:
  // "de" dropped as a stop word, two 3-word shingles.
  it('drops the stop word and stems', () => {
    expect(words('detecció de documents near duplicates', 'cat')).toEqual(['detec', 'docu', 'near', 'duplicat']);
  });

  it('gives two shingles of three stems', () => {
    expect(shingles(words('detecció de documents near duplicates', 'cat'), 3)).toEqual(['detec docu near', 'docu near duplicat']);
  });
});

describe('removeStopWordsAndStem', () => {
  it.each([
    ['eng', 'The detection of duplicated documents', ['detect', 'duplic', 'document']],
    ['rus', 'Обнаружение дубликатов документов в интернете', ['обнаружен', 'дубликат', 'документ', 'интернет']],
    ['spa', 'La detección de los documentos duplicados', ['deteccion', 'document', 'duplic']],
    ['fra', 'La détection des documents dupliqués', ['détect', 'docu', 'dupliqu']],
    ['deu', 'Die Erkennung von doppelten Dokumenten', ['erkenn', 'doppelt', 'dokument']],
    ['cat', "L'obtenció d'un índex dels documents", ['obten', 'index', 'docu']],
  ])('%s', (language, text, expected) => {
    expect(words(text, language)).toEqual(expected);
  });

  it('leaves an unknown language alone (no stop words, no stems)', () => {
    expect(words('the running dogs', 'und')).toEqual(['the', 'running', 'dogs']);
    expect(words('kucing berlari cepat', 'kin')).toEqual(['kucing', 'berlari', 'cepat']);
  });

  it('drops stop words without stemming where there is no stemmer', () => {
    expect(createStemmer('pol')).toBeNull();
    expect(stopWordsFor('pol').size).toBeGreaterThan(0);
    expect(words('to jest bardzo ładny dom', 'pol')).not.toContain('jest');
  });

  it('keeps every word (stemmed) when all are stop words', () => {
    expect(words('to be or not to be', 'eng')).toEqual(['to', 'be', 'or', 'not', 'to', 'be']);
  });

  it('keeps CJK characters and numbers unstemmed', () => {
    expect(removeStopWordsAndStem(['文', '档', 'covid19', '2024'], 'eng')).toEqual(['文', '档', 'covid19', '2024']);
  });

  it('covers the six required languages with stop words and stems', () => {
    for (const language of ['eng', 'rus', 'spa', 'cat', 'fra', 'deu']) {
      expect(STEMMED_LANGUAGES).toContain(language);
      expect(STOPWORD_LANGUAGES).toContain(language);
    }
  });

  it('gives the same words with a StemCache shared across calls (bounded)', () => {
    const cache = new StemCache({ maxEntries: 5 });
    const text = 'Los documentos duplicados aparecen en muchos sitios y los buscadores detectan documentos casi duplicados';
    const tokens = tokenize(normalizeText(text));
    const plain = removeStopWordsAndStem(tokens, 'spa');
    expect(removeStopWordsAndStem(tokens, 'spa', { stemCache: cache })).toEqual(plain);
    expect(cache.size).toBeGreaterThan(0);
    expect(removeStopWordsAndStem(tokens, 'spa', { stemCache: cache })).toEqual(plain);
    expect(cache.size).toBeLessThanOrEqual(5);
  });

  it('memoises English, Russian and German per document only (their stemmers beat a big map)', () => {
    const cache = new StemCache();
    const english = tokenize(normalizeText('Running runners ran quickly through the running fields'));
    expect(removeStopWordsAndStem(english, 'eng', { stemCache: cache })).toEqual(removeStopWordsAndStem(english, 'eng'));
    expect(cache.size).toBe(0);
  });

  it('rejects a bad cache size', () => {
    expect(() => new StemCache({ maxEntries: 0 })).toThrow(/maxEntries/);
  });
});
