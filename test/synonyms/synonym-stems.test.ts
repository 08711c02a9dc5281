/** src/synonyms/synonym-stems.ts: the stems of the shipped tables, made at build time. */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseSynonymClasses } from '../../src/synonyms/parse-synonym-classes.js';
import { BUILT_IN_SYNONYM_TABLES, loadSynonymDictionary } from '../../src/synonyms/synonym-dictionary.js';
import { classStemsOf, formatStemTable, openStemTable, parseStemTable, stemTableName } from '../../src/synonyms/synonym-stems.js';

const data = (file: string) => readFileSync(new URL(`../../src/synonyms/data/${file}`, import.meta.url));

describe('shipped stem tables', () => {
  it.each(Object.entries(BUILT_IN_SYNONYM_TABLES))('%s: hold the stems this code makes of %s (else: npm run build:synonyms -- --stems-only)', (language, file) => {
    const bytes = data(file);
    const text = file.endsWith('.gz') ? gunzipSync(bytes).toString('utf8') : bytes.toString('utf8');
    const classes = parseSynonymClasses(text, file).map((c) => c.words);
    const shipped = parseStemTable(file, bytes, data(stemTableName(file)));
    expect(shipped).not.toBeNull();
    expect(shipped!.length).toBe(classes.length);
    expect(shipped).toEqual(classStemsOf(language, classes));
    // The index: every stem's ids are the classes (of two stems or more) holding it.
    const opened = openStemTable(file, bytes, data(stemTableName(file)))!;
    const expected = new Map<string, number[]>();
    let id = 0;
    for (const stems of shipped!) {
      if (stems.length < 2) continue;
      for (const s of stems) (expected.get(s) ?? expected.set(s, []).get(s)!).push(id);
      expect(opened.stemsOf(id)).toEqual(stems);
      id++;
    }
    expect(opened.classCount).toBe(id);
    for (const [stem, ids] of expected) expect(opened.classesOf(stem), stem).toEqual(ids);
  });
});

describe('stem tables', () => {
  const table = Buffer.from('# t\ncars automobile\nthe a\nrun running runs\n');
  const stems = classStemsOf('eng', [['cars', 'automobile'], ['the', 'a'], ['run', 'running', 'runs']]);

  it('stems entries as the dictionary looks words up: stop words dropped, one stem per class kept once', () => {
    expect(stems).toEqual([['car', 'automobil'], [], ['run']]);
  });

  it.each(['x.txt', 'x.txt.gz'])('reads back what it wrote (%s), and nothing made from other table bytes', (file) => {
    const bytes = formatStemTable(file, table, stems, 'LICENSE');
    expect(parseStemTable(file, table, bytes)).toEqual(stems);
    expect(parseStemTable(file, Buffer.from(`${table.toString()}edited\n`), bytes)).toBeNull();
    expect(parseStemTable(file.replace('x', 'other'), table, bytes)).toBeNull();
  });

  it('opens a stem table for lookups: ids of classes of two stems or more, prefixes and misses', () => {
    const classes = [['ab', 'abc'], ['solo'], ['abc', 'b', 'ab'], ['z\u00e9', 'a'], []];
    const bytes = formatStemTable('t.txt', table, classes, 'L');
    const opened = openStemTable('t.txt', table, bytes)!;
    expect(opened.classCount).toBe(3);
    expect(opened.classesOf('ab')).toEqual([0, 1]);
    expect(opened.classesOf('abc')).toEqual([0, 1]);
    expect(opened.classesOf('b')).toEqual([1]);
    expect(opened.classesOf('a')).toEqual([2]);
    expect(opened.classesOf('z\u00e9')).toEqual([2]);
    for (const miss of ['', 'a b', 'abcd', 'aa', 'solo', 'zz', 'z']) expect(opened.classesOf(miss), miss).toEqual([]);
    expect(opened.stemsOf(1)).toEqual(['abc', 'b', 'ab']);
    expect(opened.classIndexOf(2)).toBe(3);
    expect(openStemTable('t.txt', Buffer.from('other'), bytes)).toBeNull();
  });

  it('names a table\'s stem table', () => {
    expect(stemTableName('wordnet-en.txt')).toBe('wordnet-en.stems.txt');
    expect(stemTableName('mythes-ru.txt.gz')).toBe('mythes-ru.stems.txt.gz');
  });

  it('a dictionary from shipped stems looks words up as one stemmed at load', () => {
    const dictionary = loadSynonymDictionary();
    const file = BUILT_IN_SYNONYM_TABLES.eng!;
    const classes = parseSynonymClasses(data(file).toString('utf8'), file).map((c) => c.words);
    const kept = classes.filter((_, i) => classStemsOf('eng', [classes[i]!])[0]!.length >= 2);
    expect(dictionary.classCount('eng')).toBe(kept.length);
    expect(dictionary.wordsOf('eng', 100)).toEqual(kept[100]);
    expect(dictionary.wordsOf('eng', kept.length)).toEqual([]);
  });
});
