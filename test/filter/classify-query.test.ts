import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyQuery } from '../../src/filter/classify-query.js';
import { QUERY_CLASSES } from '../../src/filter/query-class.js';

describe('classifyQuery', () => {
  it.each([
    ['what is the capital of france', 'informational-natural', 'question-word'],
    ['как приготовить борщ', 'informational-natural', 'question-word'],
    ['photosynthesis definition', 'informational-telegraphic', 'information-word'],
    ['история римской империи', 'informational-telegraphic', 'information-word'],
    ['how do i log in to my gmail account', 'navigational-natural', 'site-name'],
    ['где находится официальный сайт госуслуг', 'navigational-natural', 'navigation-word'],
    ['facebook login', 'navigational-telegraphic', 'site-name'],
    ['bbc.co.uk', 'navigational-telegraphic', 'url'],
    ['личный кабинет', 'navigational-telegraphic', 'navigation-word'],
    ['where can i buy a cheap laptop', 'transactional-natural', 'transaction-word'],
    ['buy iphone 15', 'transactional-telegraphic', 'transaction-word'],
    ['купить холодильник недорого', 'transactional-telegraphic', 'transaction-word'],
    ['куплю диван', 'transactional-telegraphic', 'transaction-word'],
    ['the best places to live in europe', 'general-natural', 'function-words'],
    ['climate change', 'general-telegraphic', undefined],
    ['погода москва', 'general-telegraphic', undefined],
    ['cute cat photos', 'multimedia', 'media-word'],
    ['смотреть фильм онлайн', 'multimedia', 'media-word'],
    ['site:example.com neardup', 'service', 'operator'],
    ['jaguar -car', 'service', 'operator'],
    ['"to be or not to be"', 'exact-phrase', 'quoted-phrase'],
    ['«война и мир» цитаты', 'exact-phrase', 'quoted-phrase'],
  ])('%s → %s', (query, expected, rule) => {
    const result = classifyQuery(query);
    expect(result.class).toBe(expected);
    if (rule !== undefined) expect(result.rules).toContain(rule);
    else expect(result.rules.filter((r) => !['function-words', 'question-mark', 'question-start'].includes(r))).toEqual([]);
  });

  it('lets the most specific intent win when several match', () => {
    // operator beats quotes beats media beats buying beats a site name beats a question
    expect(classifyQuery('site:youtube.com "cat video"').class).toBe('service');
    expect(classifyQuery('"cat video" download').class).toBe('exact-phrase');
    expect(classifyQuery('download youtube video').class).toBe('multimedia');
    expect(classifyQuery('buy kindle amazon').class).toBe('transactional-telegraphic');
    expect(classifyQuery('what is wikipedia').class).toBe('navigational-natural');
    const both = classifyQuery('скачать песню mp3');
    expect(both.class).toBe('multimedia');
    expect(both.rules).toEqual(expect.arrayContaining(['media-word', 'transaction-word']));
    expect(both.rules.indexOf('media-word')).toBeLessThan(both.rules.indexOf('transaction-word'));
  });

  it('tells natural language from telegraphic style', () => {
    expect(classifyQuery('cheap flights london').style).toBe('telegraphic');
    expect(classifyQuery('cheap flights to london').style).toBe('natural');
    expect(classifyQuery('flights?').rules).toContain('question-mark');
    expect(classifyQuery('why').rules).toContain('question-start');
    // Two words with a function word are still keywords.
    expect(classifyQuery('in london').style).toBe('telegraphic');
  });

  it('normalises like the fingerprint: case, look-alike letters, inflection', () => {
    expect(classifyQuery('BUY IPHONE').class).toBe('transactional-telegraphic');
    // "purchase" with a Cyrillic а
    expect(classifyQuery('purch\u0430se iphone').class).toBe('transactional-telegraphic');
    expect(classifyQuery('купила платье').class).toBe('transactional-telegraphic');
    expect(classifyQuery('').class).toBe('general-telegraphic');
  });
});

describe('classifyQuery on the labelled query set', () => {
  it('classifies at least 90% of the 176 labelled English and Russian queries right', () => {
    const file = join(import.meta.dirname, '..', 'fixtures', 'filter', 'labelled-queries.tsv');
    const rows = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#')).map((l) => l.split('\t'));
    expect(rows.length).toBeGreaterThanOrEqual(150);
    expect(new Set(rows.map((r) => r[0]))).toEqual(new Set(QUERY_CLASSES));
    const right = rows.filter(([cls, , query]) => classifyQuery(query!).class === cls).length;
    expect(right / rows.length).toBeGreaterThanOrEqual(0.9);
  });
});
