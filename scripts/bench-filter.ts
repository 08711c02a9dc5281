/**
 * Speed of `neardup filter` on 100-result lists: time per list with the synonym pass (at the
 * configured critical margin) and, measured beside it in the same run, plain Jaccard (synonym
 * pass off), at each strictness level's threshold. Lists are generated (seeded) from English
 * text: 40 distinct results, 20 synonym-spun copies (20–40% of words replaced from the
 * dictionary), 20 same-title results with another snippet, 20 more distinct ones; plus a worst
 * case where every result is a light spin of one text, so that nearly every pair is compared.
 * The synonym dictionary is loaded before timing (a process loads it once).
 *
 * Large lists (issue 28): one list of each size in --large, the same mix scaled up, timed with and
 * without synonyms, beside the former way of comparing every result with every kept one (plain
 * Jaccard, up to --all-pairs-max results, as it grows with the square); and 20 results of 17,000
 * words each, light spins of one text, with and without the synonym pass.
 *
 *   npm run bench:filter [-- --lists 200 --large 1000,5000,20000,100000 --all-pairs-max 5000]
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { defaultConfig } from '../src/config.js';
import { filterResults, type FilterSettings, type ResultList, type SearchResult } from '../src/filter/filter-results.js';
import { annotationWordSets } from '../src/filter/annotation-words.js';
import { jaccard } from '../src/filter/jaccard.js';
import { STRICTNESS_LEVELS } from '../src/filter/query-class.js';
import { loadSynonymDictionary, type SynonymDictionary } from '../src/synonyms/synonym-dictionary.js';
import { spin } from './filter-eval-lists.js';
import { seededRandom } from '../test/helpers/seeded-random.js';

const { values } = parseArgs({
  options: {
    lists: { type: 'string', default: '200' },
    large: { type: 'string', default: '1000,5000,20000,100000' },
    'all-pairs-max': { type: 'string', default: '5000' },
  },
});
const LISTS = Number(values.lists);

const FUNCTION = ['the', 'of', 'and', 'to', 'in', 'a', 'for', 'on', 'with', 'that', 'by', 'from', 'is', 'was', 'at'];
/** Content words of news text, plus every word of the dictionary's first classes (so spins find synonyms). */
function vocabulary(dictionary: SynonymDictionary): string[] {
  const words: string[] = [];
  for (let c = 0; c < 3000; c++) words.push(...dictionary.wordsOf('eng', c * 3));
  return words;
}

function sentence(random: () => number, vocab: readonly string[], n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(random() < 0.35 ? FUNCTION[Math.floor(random() * FUNCTION.length)]! : vocab[Math.floor(random() * vocab.length)]!);
  return `${out.join(' ')}.`;
}

/** `scale` × (40 distinct, 20 spins, 20 same-title, 20 distinct) results. */
function makeList(random: () => number, vocab: readonly string[], dictionary: SynonymDictionary, k: number, scale = 1): ResultList {
  const fresh = (i: number): SearchResult => ({ url: `https://d${i}.example/${k}`, title: sentence(random, vocab, 8), snippet: sentence(random, vocab, 28) });
  const results: SearchResult[] = [];
  const distinct = 40 * scale;
  for (let i = 0; i < distinct; i++) results.push(fresh(i));
  for (let i = 0; i < 20 * scale; i++) {
    const base = results[Math.floor(random() * distinct)]!;
    const rate = 0.2 + random() * 0.2;
    results.push({ url: `https://s${i}.example/${k}`, title: spin(base.title!, 'eng', rate, dictionary, random), snippet: spin(base.snippet!, 'eng', rate, dictionary, random) });
  }
  for (let i = 0; i < 20 * scale; i++) results.push({ ...fresh(100 * scale + i), title: results[Math.floor(random() * distinct)]!.title });
  for (let i = 0; i < 20 * scale; i++) results.push(fresh(200 * scale + i));
  // Shuffled: duplicates anywhere in the ranking.
  for (let i = results.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [results[i], results[j]] = [results[j]!, results[i]!];
  }
  return { query: 'bench query', results };
}

function makeWorstList(random: () => number, vocab: readonly string[], dictionary: SynonymDictionary, k: number): ResultList {
  const title = sentence(random, vocab, 8);
  const snippet = sentence(random, vocab, 28);
  return { query: 'bench query', results: Array.from({ length: 100 }, (_, i) => ({ url: `https://w${i}.example/${k}`, title: spin(title, 'eng', 0.3, dictionary, random), snippet: spin(snippet, 'eng', 0.3, dictionary, random) })) };
}

interface Timing { readonly median: number; readonly p95: number; readonly cpu: number; readonly kept: number }

/**
 * Wall time per list (median, p95) and CPU time per list (the process's user+system time over all
 * lists, ÷ lists): on a shared machine the wall time includes waiting for a core, the CPU time not.
 */
function timeLists(lists: readonly ResultList[], settings: FilterSettings, dictionary: SynonymDictionary | undefined): Timing {
  const times: number[] = [];
  let kept = 0;
  const cpu0 = process.cpuUsage();
  for (const list of lists) {
    const t0 = performance.now();
    kept += filterResults(list, { settings, synonyms: dictionary, queryClass: 'general-telegraphic' }).results.length;
    times.push(performance.now() - t0);
  }
  const cpu = process.cpuUsage(cpu0);
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)]!, p95: times[Math.floor(times.length * 0.95)]!, cpu: (cpu.user + cpu.system) / 1000 / lists.length, kept: kept / lists.length };
}

const base = defaultConfig().filter;
const dictionary = loadSynonymDictionary();
dictionary.classCount('eng');
const random = seededRandom(15);
const vocab = vocabulary(dictionary);
const lists = Array.from({ length: LISTS }, (_, k) => makeList(random, vocab, dictionary, k));
const worst = Array.from({ length: Math.max(20, LISTS / 10) }, (_, k) => makeWorstList(random, vocab, dictionary, k));

// Warm-up (JIT), not timed.
for (const list of lists.slice(0, 20)) filterResults(list, { settings: base, synonyms: dictionary });

const cpu0 = process.cpuUsage();
for (const list of lists) annotationWordSets(list.results, 'eng');
const cpu = process.cpuUsage(cpu0);
const normalise = (cpu.user + cpu.system) / 1000 / lists.length;
console.log(`${LISTS} lists of 100 results (+ ${worst.length} worst-case lists); normalising 100 annotations alone: ${normalise.toFixed(2)} ms CPU a list; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.availableParallelism()} cores`);
console.log(`critical margin ${base.criticalMargin}; ms per list: wall median / p95 / CPU mean; ratio = with synonyms ÷ plain (CPU)`);
console.log(`${'level'.padEnd(20)}${'plain Jaccard'.padStart(22)}${'with synonyms'.padStart(22)}${'ratio'.padStart(7)}${'kept plain/syn'.padStart(16)}`);
const f = (x: Timing) => `${x.median.toFixed(2)} / ${x.p95.toFixed(2)} / ${x.cpu.toFixed(2)}`;
for (const [name, set] of [['mixed', lists], ['worst', worst]] as const) {
  for (const level of [...STRICTNESS_LEVELS].reverse()) {
    const t = base.thresholds[level];
    const settings: FilterSettings = { ...base, thresholds: Object.fromEntries(STRICTNESS_LEVELS.map((l) => [l, t])) as FilterSettings['thresholds'] };
    const plain = timeLists(set, { ...settings, synonyms: false }, undefined);
    const syn = timeLists(set, settings, dictionary);
    console.log(`${`${name} ${level} ${t}`.padEnd(20)}${f(plain).padStart(22)}${f(syn).padStart(22)}${(syn.cpu / plain.cpu).toFixed(2).padStart(7)}${`${plain.kept.toFixed(1)}/${syn.kept.toFixed(1)}`.padStart(16)}`);
  }
}

// ---- Large lists ----
/** The former way: each result against every kept one, plain Jaccard (the baseline beside the new way). */
function allPairsKept(list: ResultList, threshold: number): number {
  const { sets } = annotationWordSets(list.results, 'eng');
  const kept: number[] = [];
  for (let i = 0; i < sets.length; i++) if (!kept.some((k) => jaccard(sets[i]!, sets[k]!) >= threshold)) kept.push(i);
  return kept.length;
}

function cpuMs<T>(run: () => T): { ms: number; value: T } {
  const cpu0 = process.cpuUsage();
  const value = run();
  const cpu = process.cpuUsage(cpu0);
  return { ms: (cpu.user + cpu.system) / 1000, value };
}

const medium = base.thresholds.medium;
const allPairsMax = Number(values['all-pairs-max']);
console.log(`\nlarge lists (one list each, level medium ${medium}, default cap filter.maxResults ${base.maxResults} lifted): CPU seconds`);
console.log(`${'results'.padStart(8)}${'plain'.padStart(10)}${'synonyms'.padStart(10)}${'all pairs (former)'.padStart(20)}${'ratio'.padStart(8)}${'kept'.padStart(8)}`);
for (const size of values.large.split(',').map(Number).filter((n) => n > 0)) {
  const list = makeList(random, vocab, dictionary, size, Math.max(1, Math.round(size / 100)));
  const settings: FilterSettings = { ...base, maxResults: list.results.length };
  const plain = cpuMs(() => filterResults(list, { settings: { ...settings, synonyms: false }, queryClass: 'general-telegraphic' }).results.length);
  const syn = cpuMs(() => filterResults(list, { settings, synonyms: dictionary, queryClass: 'general-telegraphic' }).results.length);
  const former = list.results.length <= allPairsMax ? cpuMs(() => allPairsKept(list, medium)) : null;
  if (former !== null && former.value !== plain.value) throw new Error(`all pairs kept ${former.value}, prefix filtering ${plain.value}`);
  console.log(`${String(list.results.length).padStart(8)}${(plain.ms / 1000).toFixed(2).padStart(10)}${(syn.ms / 1000).toFixed(2).padStart(10)}`
    + `${(former === null ? '-' : (former.ms / 1000).toFixed(2)).padStart(20)}${(former === null ? '-' : (former.ms / plain.ms).toFixed(1)).padStart(8)}${String(syn.value).padStart(8)}`);
}

const longText = Array.from({ length: 17_000 / 36 }, () => sentence(random, vocab, 36)).join(' ');
const long: ResultList = { query: 'bench query', results: Array.from({ length: 20 }, (_, i) => ({ url: `https://long${i}.example/`, title: 'long', snippet: spin(longText, 'eng', 0.3, dictionary, random) })) };
const longSettings: FilterSettings = { ...base, criticalMargin: 0.95, thresholds: Object.fromEntries(STRICTNESS_LEVELS.map((l) => [l, 0.9])) as FilterSettings['thresholds'] };
const longPlain = cpuMs(() => filterResults(long, { settings: { ...longSettings, synonyms: false }, queryClass: 'general-telegraphic' }).results.length);
const longSyn = cpuMs(() => filterResults(long, { settings: longSettings, synonyms: dictionary, queryClass: 'general-telegraphic' }).results.length);
console.log(`20 results of 17,000 words (30% spun; threshold 0.9, margin 0.95: every pair in the synonym pass): plain ${(longPlain.ms / 1000).toFixed(2)} s, with synonyms ${(longSyn.ms / 1000).toFixed(2)} s CPU (kept ${longPlain.value} / ${longSyn.value})`);
