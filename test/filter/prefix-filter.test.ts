/**
 * Issue 28 item 8: `filter` compares only the pairs that share one of their rarest words (prefix
 * filtering) and pairs synonyms in linear time. Both must give exactly what comparing every pair
 * gave: here against the former all-pairs loop and the former |A| × |B| synonym pairing, kept
 * below as references, on seeded lists full of copies, synonym spins and near misses.
 */
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config.js';
import { annotationWordSets } from '../../src/filter/annotation-words.js';
import { filterResults, listLanguage, type FilterSettings, type ResultList, type SearchResult } from '../../src/filter/filter-results.js';
import { jaccard, synonymJaccard, type ClassesOfWord } from '../../src/filter/jaccard.js';
import { PrefixIndex, prefixLength, prefixOf, rarityRanks } from '../../src/filter/prefix-filter.js';
import { STRICTNESS_LEVELS } from '../../src/filter/query-class.js';
import { loadSynonymDictionary, type SynonymDictionary } from '../../src/synonyms/synonym-dictionary.js';
import { seededRandom } from '../helpers/seeded-random.js';

/** The synonym pairing as it was: every word of A against every word of B. */
function referenceSynonymJaccard(a: Int32Array, b: Int32Array, classesOf: ClassesOfWord): { similarity: number; pairs: number } {
  const inA = new Set(a);
  const inB = new Set(b);
  const common = [...a].filter((x) => inB.has(x)).length;
  const onlyB = [...b].filter((x) => !inA.has(x) && classesOf(x).length > 0);
  const used = new Set<number>();
  let pairs = 0;
  for (const x of a) {
    if (inB.has(x)) continue;
    const mine = classesOf(x);
    const k = onlyB.findIndex((y) => !used.has(y) && classesOf(y).some((c) => mine.includes(c)));
    if (k !== -1) {
      used.add(onlyB[k]!);
      pairs++;
    }
  }
  const union = a.length + b.length - common - pairs;
  return { similarity: union === 0 ? 0 : (common + pairs) / union, pairs };
}

/** filterResults as it was: each result against every kept one, in rank order. */
function referenceFilter(list: ResultList, settings: FilterSettings, dictionary: SynonymDictionary | undefined): string[] {
  const language = listLanguage(list, settings.language);
  const { sets, stems } = annotationWordSets(list.results, language);
  const classesOf = dictionary === undefined ? undefined : (id: number) => dictionary.classesOf(language, stems[id]!);
  const threshold = settings.thresholds.medium;
  const critical = threshold * (1 - settings.criticalMargin);
  const kept: number[] = [];
  const lines: string[] = [];
  for (let i = 0; i < list.results.length; i++) {
    let found = -1;
    for (const k of kept) {
      let s = jaccard(sets[i]!, sets[k]!);
      if (s < threshold && classesOf !== undefined && s >= critical) s = referenceSynonymJaccard(sets[i]!, sets[k]!, classesOf).similarity;
      if (s >= threshold) {
        found = k;
        break;
      }
    }
    if (found === -1) kept.push(i);
    lines.push(`${i} → ${found}`);
  }
  return lines;
}

function actualFilter(list: ResultList, settings: FilterSettings, dictionary: SynonymDictionary | undefined): string[] {
  const out = filterResults(list, { settings, synonyms: dictionary, queryClass: 'general-telegraphic' });
  const index = new Map(list.results.map((r, i) => [r.url, i]));
  const lines = list.results.map((_, i) => `${i} → -1`);
  for (const kept of out.results) for (const d of kept.duplicates) lines[index.get(d.url)!] = `${index.get(d.url)} → ${index.get(kept.url)}`;
  return lines;
}

const dictionary = loadSynonymDictionary();

/** A seeded list: distinct texts, copies with words dropped, added or replaced by synonyms, shuffled. */
function makeList(seed: number, size: number): ResultList {
  const random = seededRandom(seed);
  const vocab: string[] = [];
  for (let c = 0; c < 400; c++) vocab.push(...dictionary.wordsOf('eng', c * 7).filter((w) => /^[a-z]+$/.test(w)));
  const pick = () => vocab[Math.floor(random() * vocab.length)]!;
  const texts: string[][] = [];
  const results: SearchResult[] = [];
  for (let i = 0; i < size; i++) {
    let words: string[];
    if (texts.length === 0 || random() < 0.4) {
      words = Array.from({ length: 4 + Math.floor(random() * 30) }, pick);
    } else {
      words = [...texts[Math.floor(random() * texts.length)]!];
      const edits = Math.floor(random() * words.length * 0.6);
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(random() * words.length);
        const kind = random();
        if (kind < 0.5) {
          const classes = dictionary.classesOf('eng', words[at]!);
          const options = classes.flatMap((c) => dictionary.wordsOf('eng', c)).filter((w) => /^[a-z]+$/.test(w));
          words[at] = options.length > 0 ? options[Math.floor(random() * options.length)]! : pick();
        } else if (kind < 0.75) words.splice(at, 1);
        else words.splice(at, 0, pick());
      }
    }
    texts.push(words);
    results.push({ url: `https://r${i}.example/`, title: words.slice(0, 5).join(' '), snippet: words.slice(5).join(' ') });
  }
  return { query: 'the query', results };
}

describe('prefix filtering', () => {
  it('prefix length: the words that must be probed for Jaccard ≥ c', () => {
    expect(prefixLength(0, 0.5)).toBe(0);
    expect(prefixLength(10, 1)).toBe(1);
    expect(prefixLength(10, 0.5)).toBe(6);
    expect(prefixLength(10, 0.01)).toBe(10);
    expect(prefixLength(3, 0.58)).toBe(2);
  });

  it('finds every earlier item that shares a prefix word, once, ascending', () => {
    const sets = [Int32Array.of(0, 1, 2), Int32Array.of(2, 3), Int32Array.of(0, 3), Int32Array.of(4)];
    const ranks = rarityRanks(sets, 5);
    expect([...ranks]).toEqual([2, 0, 3, 4, 1]); // words 1 and 4 are in one set each, 0, 2 and 3 in two
    const index = new PrefixIndex(5, 4);
    for (let i = 0; i < 3; i++) index.add(i, prefixOf(sets[i]!, ranks, 0.01));
    expect([...index.candidates(prefixOf(Int32Array.of(0, 2, 3), ranks, 0.01))]).toEqual([0, 1, 2]);
    expect([...index.candidates(prefixOf(sets[3]!, ranks, 0.5))]).toEqual([]);
  });

  it('the linear synonym pairing pairs exactly as the |A| × |B| one', () => {
    const random = seededRandom(7);
    for (let round = 0; round < 2000; round++) {
      const classes = new Map<number, number[]>();
      for (let w = 0; w < 40; w++) {
        const n = Math.floor(random() * 3);
        classes.set(w, [...new Set(Array.from({ length: n }, () => Math.floor(random() * 8)))].sort((x, y) => x - y));
      }
      const classesOf = (w: number) => classes.get(w) ?? [];
      const draw = () => Int32Array.from(new Set(Array.from({ length: Math.floor(random() * 20) }, () => Math.floor(random() * 40)))).sort();
      const a = draw();
      const b = draw();
      expect(synonymJaccard(a, b, classesOf)).toEqual(referenceSynonymJaccard(a, b, classesOf));
    }
  });

  it.each([0, 0.3, 0.6, 1])('filterResults gives what comparing every pair gave (critical margin %d)', (margin) => {
    const base = defaultConfig().filter;
    for (const level of STRICTNESS_LEVELS) {
      const t = base.thresholds[level];
      const settings: FilterSettings = { ...base, criticalMargin: margin, thresholds: Object.fromEntries(STRICTNESS_LEVELS.map((l) => [l, t])) as FilterSettings['thresholds'] };
      for (const seed of [1, 2, 3]) {
        const list = makeList(seed * 100 + level.length, margin === 1 ? 50 : 150); // margin 1: every pair gets the slow reference pairing
        expect(actualFilter(list, settings, dictionary)).toEqual(referenceFilter(list, settings, dictionary));
        expect(actualFilter(list, { ...settings, synonyms: false }, undefined)).toEqual(referenceFilter(list, settings, undefined));
      }
    }
  });

  it('compares the first filter.maxResults results and passes the rest through, counted', () => {
    const list = makeList(42, 60);
    const settings: FilterSettings = { ...defaultConfig().filter, maxResults: 40 };
    const capped = filterResults(list, { settings, synonyms: dictionary, queryClass: 'general-telegraphic' });
    const first = filterResults({ ...list, results: list.results.slice(0, 40) }, { settings, synonyms: dictionary, queryClass: 'general-telegraphic' });
    expect(capped.unfiltered).toBe(20);
    expect(capped.results.slice(0, first.results.length)).toEqual(first.results);
    expect(capped.results.slice(first.results.length).map((r) => r.url)).toEqual(list.results.slice(40).map((r) => r.url));
    expect(capped.results.slice(first.results.length).every((r) => r.duplicates.length === 0)).toBe(true);
  });
});
