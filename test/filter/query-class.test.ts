import { describe, expect, it } from 'vitest';
import { CLASS_STRICTNESS, QUERY_CLASSES, STRICTNESS_LEVELS, levelOfInterval, parseQueryClass } from '../../src/filter/query-class.js';
import { defaultConfig, loadConfig, parseConfig } from '../../src/config.js';
import { ValidationError } from '../../src/errors.js';

describe('query classes and strictness', () => {
  it('parses a class by name or by the method\'s number', () => {
    expect(parseQueryClass('1')).toBe('informational-natural');
    expect(parseQueryClass('11')).toBe('exact-phrase');
    expect(parseQueryClass(' Multimedia ')).toBe('multimedia');
    for (const bad of ['0', '12', 'shopping', '']) expect(() => parseQueryClass(bad)).toThrow(ValidationError);
  });

  it('groups the 11 intervals into the 5 levels', () => {
    const byLevel = Object.fromEntries(STRICTNESS_LEVELS.map((l) => [l, QUERY_CLASSES.filter((c) => levelOfInterval(CLASS_STRICTNESS[c]) === l)]));
    expect(byLevel).toEqual({
      minimal: ['multimedia', 'service', 'exact-phrase'],
      low: ['transactional-natural', 'transactional-telegraphic'],
      medium: ['informational-telegraphic', 'general-natural', 'general-telegraphic'],
      high: ['informational-natural', 'navigational-telegraphic'],
      maximal: ['navigational-natural'],
    });
  });

  it('ships a config whose levels follow the intervals and whose thresholds fall as strictness rises', () => {
    const { filter } = defaultConfig();
    for (const c of QUERY_CLASSES) expect(filter.classLevels[c]).toBe(levelOfInterval(CLASS_STRICTNESS[c]));
    const t = STRICTNESS_LEVELS.map((l) => filter.thresholds[l]);
    for (let i = 1; i < t.length; i++) expect(t[i]).toBeLessThan(t[i - 1]!);
  });
});

describe('config filter section', () => {
  const config = defaultConfig();
  const withFilter = (filter: Record<string, unknown>) => ({ ...config, filter: { ...config.filter, ...filter } });

  it.each([
    [{ thresholds: { ...config.filter.thresholds, low: 0.5 } }, /Expected `filter\.thresholds\.medium` to be at most `low`'s 0\.5 .*got 0\.58 \(number\)/],
    [{ thresholds: { ...config.filter.thresholds, maximal: 0 } }, /Expected `filter\.thresholds\.maximal` to be .*got 0 \(number\)/],
    [{ classLevels: { ...config.filter.classLevels, service: 'strict' } }, /Expected `filter\.classLevels\.service` to be one of "minimal"\|"low"\|"medium"\|"high"\|"maximal", got `strict`/],
    [{ criticalMargin: 1.5 }, /Expected `filter\.criticalMargin` to be .*1.*got 1\.5/],
    [{ language: 'english' }, /Expected `filter\.language`/],
    [{ extra: 1 }, /Unknown setting in `filter` `extra`/],
  ])('refuses %j', (filter, message) => {
    expect(() => parseConfig(withFilter(filter))).toThrow(message);
  });

  it('takes NEARDUP_FILTER_* from the environment', () => {
    const c = loadConfig({ env: { NEARDUP_FILTER_CRITICAL_MARGIN: '0.1', NEARDUP_FILTER_SYNONYMS: 'false', NEARDUP_FILTER_LANGUAGE: 'rus' } });
    expect([c.filter.criticalMargin, c.filter.synonyms, c.filter.language]).toEqual([0.1, false, 'rus']);
  });
});
