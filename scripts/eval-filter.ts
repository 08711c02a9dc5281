/**
 * Evaluates `neardup filter`:
 * 1. the query classifier on the labelled set test/fixtures/filter/labelled-queries.tsv
 *    (accuracy, by language, and the confusion of classes);
 * 2. collapsing on result lists built from the article benchmark's dev pages (see
 *    filter-eval-lists.ts): precision, recall and F1 of "collapsed under the right result", by
 *    threshold, plain Jaccard and with the synonym pass side by side, recall by duplicate kind,
 *    and the figures at each configured strictness level.
 *
 *   npm run eval:filter -- /path/to/article-benchmark-dev      (or NEARDUP_ARTICLE_DEV=/path)
 *   options: --queries <tsv> --margin <m> --json
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { classifyQuery } from '../src/filter/classify-query.js';
import { filterResults, type FilterSettings } from '../src/filter/filter-results.js';
import { QUERY_CLASSES, STRICTNESS_LEVELS, type QueryClass } from '../src/filter/query-class.js';
import { defaultConfig } from '../src/config.js';
import { loadSynonymDictionary, type SynonymDictionary } from '../src/synonyms/synonym-dictionary.js';
import { buildEvalLists, loadArticles, type EvalList, type ResultKind } from './filter-eval-lists.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    queries: { type: 'string', default: join(import.meta.dirname, '..', 'test', 'fixtures', 'filter', 'labelled-queries.tsv') },
    margin: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const settings = defaultConfig().filter;
const margin = values.margin === undefined ? settings.criticalMargin : Number(values.margin);

// ---- 1. classifier ----
function evalClassifier(file: string): void {
  const rows = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#')).map((l) => l.split('\t') as [QueryClass, string, string]);
  const confusion = new Map<string, number>();
  const byLanguage = new Map<string, [number, number]>();
  let correct = 0;
  const misses: string[] = [];
  for (const [gold, language, query] of rows) {
    const got = classifyQuery(query).class;
    confusion.set(`${gold}|${got}`, (confusion.get(`${gold}|${got}`) ?? 0) + 1);
    const l = byLanguage.get(language) ?? [0, 0];
    l[1]++;
    if (got === gold) { correct++; l[0]++; } else misses.push(`  ${gold.padEnd(26)} → ${got.padEnd(26)} ${query}`);
    byLanguage.set(language, l);
  }
  console.log(`\n== Query classifier: ${rows.length} labelled queries (${file})`);
  console.log(`accuracy ${(correct / rows.length).toFixed(3)} (${correct}/${rows.length}); ${[...byLanguage].map(([l, [c, n]]) => `${l} ${(c / n).toFixed(3)} (${c}/${n})`).join(', ')}`);
  const short = (c: string) => String(QUERY_CLASSES.indexOf(c as QueryClass) + 1).padStart(3);
  console.log('\nconfusion (rows: labelled class, columns: predicted class number 1–11; recall per class)');
  console.log(`${''.padEnd(28)}${QUERY_CLASSES.map(short).join('')}  recall`);
  for (const gold of QUERY_CLASSES) {
    const counts = QUERY_CLASSES.map((p) => confusion.get(`${gold}|${p}`) ?? 0);
    const total = counts.reduce((x, y) => x + y, 0);
    const cells = counts.map((n) => (n === 0 ? '  .' : String(n).padStart(3))).join('');
    console.log(`${short(gold)} ${gold.padEnd(24)}${cells}  ${total === 0 ? '—' : (counts[QUERY_CLASSES.indexOf(gold)]! / total).toFixed(2)}`);
  }
  if (misses.length > 0) console.log(`\nmisclassified:\n${misses.join('\n')}`);
}

// ---- 2. collapsing ----
interface Counts { tp: number; collapsed: number; gold: number; byKind: Map<ResultKind, [number, number]>; falseByKind: Map<ResultKind, number> }

function score(lists: readonly EvalList[], threshold: number, synonyms: SynonymDictionary | undefined, m: number): Counts {
  const s: FilterSettings = { ...settings, criticalMargin: m, synonyms: synonyms !== undefined, thresholds: Object.fromEntries(STRICTNESS_LEVELS.map((l) => [l, threshold])) as FilterSettings['thresholds'] };
  const counts: Counts = { tp: 0, collapsed: 0, gold: 0, byKind: new Map(), falseByKind: new Map() };
  for (const list of lists) {
    const out = filterResults(list, { settings: s, synonyms, queryClass: 'general-telegraphic' });
    const headOf = new Map<string, string>();
    for (const kept of out.results) for (const d of kept.duplicates) headOf.set(d.url, kept.url);
    for (const r of list.results) {
      const head = headOf.get(r.url);
      const right = r.goldHead !== null && head === r.goldHead;
      if (r.goldHead !== null) {
        counts.gold++;
        const k = counts.byKind.get(r.kind) ?? [0, 0];
        k[1]++;
        if (right) k[0]++;
        counts.byKind.set(r.kind, k);
      }
      if (head !== undefined) {
        counts.collapsed++;
        if (right) counts.tp++;
        else counts.falseByKind.set(r.kind, (counts.falseByKind.get(r.kind) ?? 0) + 1);
      }
    }
  }
  return counts;
}

const prf = (c: Counts) => {
  const p = c.collapsed === 0 ? 1 : c.tp / c.collapsed;
  const r = c.gold === 0 ? 0 : c.tp / c.gold;
  return { p, r, f: p + r === 0 ? 0 : (2 * p * r) / (p + r) };
};
const f3 = (x: number) => x.toFixed(3);
const kindRecall = (c: Counts, kind: ResultKind) => { const k = c.byKind.get(kind) ?? [0, 0]; return k[1] === 0 ? '—' : f3(k[0] / k[1]); };

function row(label: string, plain: Counts, syn: Counts): string {
  const a = prf(plain);
  const b = prf(syn);
  const kinds = (['passage', 'synonym-light', 'synonym-heavy'] as const).map((k) => `${kindRecall(plain, k)}/${kindRecall(syn, k)}`.padStart(12)).join('');
  const fpTopic = `${plain.falseByKind.get('topic') ?? 0}/${syn.falseByKind.get('topic') ?? 0}`.padStart(8);
  return `${label.padEnd(16)}${f3(a.p)}/${f3(b.p)}  ${f3(a.r)}/${f3(b.r)}  ${f3(a.f)}/${f3(b.f)}${kinds}${fpTopic}`;
}

function evalLists(folder: string): void {
  const started = performance.now();
  const articles = loadArticles(folder);
  const dictionary = loadSynonymDictionary();
  const lists = buildEvalLists(articles, dictionary);
  const n = lists.reduce((x, l) => x + l.results.length, 0);
  const dups = lists.reduce((x, l) => x + l.results.filter((r) => r.goldHead !== null).length, 0);
  const languages = [...new Set(lists.map((l) => l.language))].map((l) => `${l} ${lists.filter((x) => x.language === l).length}`).join(', ');
  console.log(`\n== Collapsing: ${lists.length} lists from ${articles.length} usable dev articles (lists by language: ${languages}), ${n} results, ${dups} duplicates; built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  console.log(`each cell plain/with synonyms (critical margin ${margin}); recall by kind; topic = other articles wrongly collapsed`);
  const header = `${'threshold'.padEnd(16)}${'precision'.padEnd(13)}  ${'recall'.padEnd(11)}  ${'F1'.padEnd(11)}${'passage'.padStart(12)}${'syn 20%'.padStart(12)}${'syn 40%'.padStart(12)}${'topic FP'.padStart(8)}`;
  console.log(header);
  for (let t = 0.1; t < 0.951; t += 0.05) console.log(row(t.toFixed(2), score(lists, t, undefined, margin), score(lists, t, dictionary, margin)));
  console.log('\nat the configured strictness levels (config filter.thresholds):');
  console.log(header);
  for (const level of [...STRICTNESS_LEVELS].reverse()) {
    const t = settings.thresholds[level];
    console.log(row(`${level} ${t}`, score(lists, t, undefined, margin), score(lists, t, dictionary, margin)));
  }
  console.log('\ncritical margin: precision/recall with synonyms at each configured level\'s threshold');
  const ts = [...STRICTNESS_LEVELS].reverse().map((l) => settings.thresholds[l]);
  console.log(`${'margin'.padEnd(8)}${ts.map((t) => `t=${t}`.padStart(14)).join('')}`);
  for (const m of [0, 0.1, 0.2, 0.3, 0.4, 0.5]) {
    console.log(`${String(m).padEnd(8)}${ts.map((t) => { const x = prf(score(lists, t, dictionary, m)); return `${f3(x.p)}/${f3(x.r)}`.padStart(14); }).join('')}`);
  }
}

evalClassifier(values.queries!);
const folder = positionals[0] ?? process.env.NEARDUP_ARTICLE_DEV;
if (folder === undefined || !existsSync(join(folder, 'ground-truth.json'))) {
  console.error(`\nCollapsing not evaluated: ${folder === undefined ? 'no dataset folder given' : `no ground-truth.json in ${folder}`}. Pass the article benchmark dev folder (ground-truth.json + html/) as the argument or NEARDUP_ARTICLE_DEV.`);
  process.exit(1);
}
evalLists(folder);
