/**
 * Speed of `neardup filter` on 100-result lists: time per list with the synonym pass (at the
 * configured critical margin) and, measured beside it in the same run, plain Jaccard (synonym
 * pass off), at each strictness level's threshold. Lists are generated (seeded) from English
 * text: 40 distinct results, 20 synonym-spun copies (20–40% of words replaced from the
 * dictionary), 20 same-title results with another snippet, 20 more distinct ones; plus a worst
 * case where every result is a light spin of one text, so that nearly every pair is compared.
 * The synonym dictionary is loaded before timing (a process loads it once).
 *
 *   npm run bench:filter [-- --lists 200]
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { defaultConfig } from '../src/config.js';
import { filterResults, type FilterSettings, type ResultList, type SearchResult } from '../src/filter/filter-results.js';
import { annotationWordSets } from '../src/filter/annotation-words.js';
import { STRICTNESS_LEVELS } from '../src/filter/query-class.js';
import { loadSynonymDictionary, type SynonymDictionary } from '../src/synonyms/synonym-dictionary.js';
import { spin } from './filter-eval-lists.js';
import { seededRandom } from '../test/helpers/seeded-random.js';

const { values } = parseArgs({ options: { lists: { type: 'string', default: '200' } } });
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

function makeList(random: () => number, vocab: readonly string[], dictionary: SynonymDictionary, k: number): ResultList {
  const fresh = (i: number): SearchResult => ({ url: `https://d${i}.example/${k}`, title: sentence(random, vocab, 8), snippet: sentence(random, vocab, 28) });
  const results: SearchResult[] = [];
  for (let i = 0; i < 40; i++) results.push(fresh(i));
  for (let i = 0; i < 20; i++) {
    const base = results[Math.floor(random() * 40)]!;
    const rate = 0.2 + random() * 0.2;
    results.push({ url: `https://s${i}.example/${k}`, title: spin(base.title!, 'eng', rate, dictionary, random), snippet: spin(base.snippet!, 'eng', rate, dictionary, random) });
  }
  for (let i = 0; i < 20; i++) results.push({ ...fresh(100 + i), title: results[Math.floor(random() * 40)]!.title });
  for (let i = 0; i < 20; i++) results.push(fresh(200 + i));
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
