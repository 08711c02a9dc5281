import { describe, expect, it } from 'vitest';
import { filterResults, listLanguage, type FilterSettings, type SearchResult } from '../../src/filter/filter-results.js';
import { annotationWordSets } from '../../src/filter/annotation-words.js';
import { jaccard } from '../../src/filter/jaccard.js';
import { defaultConfig } from '../../src/config.js';
import { loadSynonymDictionary } from '../../src/synonyms/synonym-dictionary.js';

const settings: FilterSettings = defaultConfig().filter;
const title = 'Council approves new budget for city buses';
const passageA = 'The city council approved the transport budget on Tuesday after a long debate about ticket prices.';
const passageB = 'Bus routes in the northern districts will run every ten minutes from next spring, officials said.';
const other = { url: 'https://other.example/zoo', title: 'Zoo welcomes twin panda cubs', snippet: 'Keepers at the city zoo said the two cubs were born healthy on Sunday morning.' };
const result = (url: string, snippet: string, t = title): SearchResult => ({ url, title: t, snippet });

function similarity(a: SearchResult, b: SearchResult): number {
  const { sets } = annotationWordSets([a, b], 'eng');
  return jaccard(sets[0]!, sets[1]!);
}

describe('filterResults', () => {
  const samePagePassages = [result('https://a.example/1', passageA), result('https://mirror.example/1', passageB), other];

  it('collapses the same page with another snippet for a strict class, keeps it for a lax one', () => {
    const s = similarity(samePagePassages[0]!, samePagePassages[1]!);
    // The shared title alone: between the navigational and the transactional thresholds.
    expect(s).toBeGreaterThanOrEqual(settings.thresholds.maximal);
    expect(s).toBeLessThan(settings.thresholds.low);
    const strict = filterResults({ query: 'bbc.com', results: samePagePassages }, { settings, queryClass: 'navigational-natural' });
    expect(strict.threshold).toBe(settings.thresholds.maximal);
    expect(strict.results.map((r) => r.url)).toEqual(['https://a.example/1', 'https://other.example/zoo']);
    expect(strict.results[0]!.duplicates).toEqual([{ url: 'https://mirror.example/1', similarity: s, synonyms: false }]);
    const lax = filterResults({ query: 'buy bus tickets', results: samePagePassages }, { settings });
    expect(lax.class).toBe('transactional-telegraphic');
    expect(lax.rules).toContain('transaction-word');
    expect(lax.results.map((r) => r.duplicates.length)).toEqual([0, 0, 0]);
  });

  it('always collapses a copy that differs only in case, punctuation and look-alike letters', () => {
    const copy = result('https://copy.example/1', passageA.toUpperCase().replace(/O/g, '\u041e').replace(/\./g, '!'));
    const out = filterResults({ query: '"exact phrase"', results: [samePagePassages[0]!, copy] }, { settings });
    expect(out.class).toBe('exact-phrase');
    expect(out.results).toHaveLength(1);
    expect(out.results[0]!.duplicates[0]).toMatchObject({ url: 'https://copy.example/1', similarity: 1 });
  });

  it('collapses a synonym-spun copy only with the synonym pass', () => {
    const original = result('https://a.example/2', 'Gizmo makers report strong quarterly sales; analysts in London expect further growth.', 'Gizmo sales surge');
    const spun = result('https://b.example/2', 'Widget producers report robust quarterly sales; analysts in London expect further growth.', 'Widget sales soar');
    const plain = similarity(original, spun);
    const t = settings.thresholds.medium;
    expect(plain).toBeLessThan(t);
    expect(plain).toBeGreaterThanOrEqual(t * (1 - settings.criticalMargin));
    const synonyms = loadSynonymDictionary({ builtIn: false, userClasses: [['gizmo', 'widget'], ['surge', 'soar'], ['makers', 'producers'], ['strong', 'robust']] });
    const list = { query: 'gizmo market', results: [original, spun] };
    const out = filterResults(list, { settings, synonyms });
    expect(out.class).toBe('general-telegraphic');
    expect(out.results[0]!.duplicates[0]).toMatchObject({ url: 'https://b.example/2', synonyms: true, similarity: 1 });
    expect(filterResults(list, { settings }).results).toHaveLength(2);
    expect(filterResults(list, { settings: { ...settings, synonyms: false }, synonyms }).results).toHaveLength(2);
    expect(filterResults(list, { settings: { ...settings, criticalMargin: 0 }, synonyms }).results).toHaveLength(2);
  });

  it('lists a duplicate under the first kept result it matches, never under a collapsed one', () => {
    const a = result('https://1.example/', 'alpha beta gamma delta', 'x');
    const b = result('https://2.example/', 'alpha beta gamma delta epsilon zeta', 'x');
    const c = result('https://3.example/', 'beta gamma delta epsilon zeta eta theta', 'x');
    const out = filterResults({ query: 'q', results: [a, b, c] }, { settings, queryClass: 'general-telegraphic' });
    // b is within the threshold of a; c is within it of b (collapsed) but not of a: kept.
    const t = settings.thresholds.medium;
    expect(similarity(b, a)).toBeGreaterThanOrEqual(t);
    expect(similarity(c, b)).toBeGreaterThanOrEqual(t);
    expect(similarity(c, a)).toBeLessThan(t);
    expect(out.results.map((r) => [r.url, r.duplicates.map((d) => d.url)])).toEqual([
      ['https://1.example/', ['https://2.example/']],
      ['https://3.example/', []],
    ]);
  });

  it('keeps extra fields, results without annotations, and an empty list', () => {
    const bare = [{ url: 'https://1.example/', rank: 1 }, { url: 'https://2.example/', rank: 2 }];
    const out = filterResults({ query: 'q', results: bare }, { settings });
    expect(out.results).toEqual([{ url: 'https://1.example/', rank: 1, duplicates: [] }, { url: 'https://2.example/', rank: 2, duplicates: [] }]);
    expect(filterResults({ query: 'q', results: [] }, { settings }).results).toEqual([]);
  });

  it('detects the list language once, or takes the configured one', () => {
    expect(listLanguage({ query: 'купить диван', results: [result('u', 'Диваны и кресла с доставкой по Москве, большой выбор моделей и тканей.', 'Диваны')] }, 'auto')).toBe('rus');
    expect(listLanguage({ query: 'x', results: samePagePassages }, 'auto')).toBe('eng');
    expect(listLanguage({ query: 'x', results: samePagePassages }, 'deu')).toBe('deu');
  });
});
