/**
 * What the cascade costs per page beside the plain analysis, measured in one run:
 *
 *   npx tsx scripts/bench-cascade.ts [--dataset <dir>] [--rounds 5] [--jsonl <file> [--limit 1000]]
 *
 * `--jsonl`: the texts of a JSONL file's `text` fields instead of the dev texts (e.g. bench:dedup's
 * docs, /tmp/neardup-bench-dedup/docs-5000-seed7.jsonl, which mix scripts and carry look-alikes),
 * the first `--limit` of them.
 *
 * On the dev texts (article-benchmark-dev), each round times, interleaved: analyzeText alone (the
 * baseline), then each cascade stage alone and the whole cascade (`shape` and `pos` grammar), on
 * the odd-numbered texts, with a store holding the even-numbered texts' records (so `synonymised`
 * and `compiled` look real pages up; the pages judged are new, as most crawled pages are).
 * Prints CPU and wall ms per page, and `ratio` = baseline / (baseline + cascade) on CPU time: the
 * docs/s a pipeline whose only cost were the analysis would keep with the cascade on (wall time on a
 * loaded machine mostly measures the scheduler). bench:dedup also parses, indexes and
 * writes, so its ratio would be higher than this one. Last line:
 *   `cascade: analysis_ms=<..> cascade_shape_ms=<..> ratio_shape=<..> cascade_pos_ms=<..> ratio_pos=<..>`
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { defaultConfig } from '../src/config.js';
import { cascadeRecord, type GrammarTagger } from '../src/cascade/cascade-record.js';
import { MemoryCascadeStore } from '../src/cascade/cascade-store.js';
import { compiledFlag } from '../src/cascade/compiled-flag.js';
import { generatedFlag } from '../src/cascade/generated-flag.js';
import { synonymisedFlag } from '../src/cascade/synonymised-flag.js';
import { homoglyphFlag } from '../src/cascade/homoglyph-words.js';
import { localCascade, runCascade } from '../src/cascade/run-cascade.js';
import { cascadeRecordOfTable } from '../src/cascade/cascade-record.js';
import { tokenTable, type TokenTable } from '../src/text/token-table.js';
import type { TokenStems } from '../src/analyze/analyze-normalized-text.js';
import { analyzeText, fingerprintParamsFrom } from '../src/analyze/analyze-text.js';
import { loadSynonymDictionary } from '../src/synonyms/synonym-dictionary.js';
import { StemCache } from '../src/text/stem-cache.js';
import { normalizeText } from '../src/text/normalize-text.js';
import { foldHomoglyphs } from '../src/text/fold-homoglyphs.js';
import { encodeCascadeRecord } from '../src/cascade/cascade-record-codec.js';
import { defaultDatasetPath, loadDevTexts } from './cascade-dataset.js';

const { values: flags } = parseArgs({
  options: {
    dataset: { type: 'string', default: defaultDatasetPath() },
    rounds: { type: 'string', default: '5' },
    jsonl: { type: 'string' },
    limit: { type: 'string', default: '1000' },
  },
});
const config = defaultConfig();
const params = fingerprintParamsFrom(config.fingerprint);
const synonyms = loadSynonymDictionary();
/** The first `limit` `text` fields of a JSONL file, as texts to bench. */
function jsonlTexts(file: string, limit: number): { url: string; text: string }[] {
  const lines = readFileSync(file, 'utf8').split('\n').filter((line) => line.trim() !== '').slice(0, limit);
  return lines.map((line, i) => {
    const value = JSON.parse(line) as { url?: unknown; text?: unknown };
    if (typeof value.text !== 'string') throw new Error(`bench-cascade: expected a string \`text\` on line ${i + 1} of ${file}, got ${typeof value.text}`);
    return { url: typeof value.url === 'string' ? value.url : `line:${i + 1}`, text: value.text };
  });
}
const all = flags.jsonl === undefined ? loadDevTexts(flags.dataset, 'bench-cascade') : jsonlTexts(flags.jsonl, Number(flags.limit));
const stored = all.filter((_, i) => i % 2 === 0);
const texts = all.filter((_, i) => i % 2 === 1);
const analyses = texts.map((t) => analyzeText(t.text, params));
const stemCache = new StemCache();
// The normalised texts the analysis made: a wired pipeline hands them to the cascade (CascadeContext.normalized).
const normalized = texts.map((t) => normalizeText(t.text));

function storeFor(tagger: GrammarTagger): MemoryCascadeStore {
  const store = new MemoryCascadeStore();
  stored.forEach((t, id) => store.add({ id, url: t.url, record: cascadeRecord(t.text, analyzeText(t.text, params).language, { tagger }) }));
  return store;
}
const stores = { shape: storeFor('shape'), pos: storeFor('pos') };
const optionsFor = (tagger: GrammarTagger) => ({ ...config.cascade, synonymised: { ...config.cascade.synonymised, tagger } });

const tables = normalized.map((n) => tokenTable(n));
// The analysis's own tables and stems, as page-cascade.ts hands them to the record.
const wired = texts.map((t) => {
  let table: TokenTable | undefined;
  let tokenStems: TokenStems | undefined;
  analyzeText(t.text, params, { stemCache, onTokens: (_n, tt, s) => void ((table = tt), (tokenStems = { stems: s.stems, stop: s.stop.slice() })) });
  return { table: table!, tokenStems: tokenStems! };
});
const records = texts.map((t, i) => cascadeRecord(t.text, analyses[i]!.language, { tagger: 'shape' }));

const cases: Record<string, () => void> = {
  analysis: () => texts.forEach((t) => analyzeText(t.text, params, { stemCache })),
  homoglyph: () => texts.forEach((t) => homoglyphFlag(t.text, config.cascade.homoglyph)),
  generated: () => texts.forEach((t, i) => generatedFlag(t.text, analyses[i]!.language, config.cascade.generated)),
  record_shape: () => texts.forEach((t, i) => cascadeRecord(t.text, analyses[i]!.language, { tagger: 'shape', stemCache }, normalized[i])),
  record_pos: () => texts.forEach((t, i) => cascadeRecord(t.text, analyses[i]!.language, { tagger: 'pos', stemCache }, normalized[i])),
  synonymised: () => records.forEach((r) => synonymisedFlag(r, stores.shape, synonyms, config.cascade.synonymised)),
  compiled: () => records.forEach((r) => compiledFlag(r, stores.shape, config.cascade.compiled)),
  cascade_shape: () => texts.forEach((t, i) => runCascade(analyses[i]!, { text: t.text, options: optionsFor('shape'), store: stores.shape, synonyms, normalized: normalized[i], stemCache })),
  // The wired path: the analysis hands its token table to the page's own half (page-cascade.ts).
  analysis_and_local: () => texts.forEach((t) => {
    let table: TokenTable | undefined;
    let tokenStems: TokenStems | undefined;
    const analysis = analyzeText(t.text, params, { stemCache, onTokens: (_n, tt, s) => void ((table = tt), (tokenStems = { stems: s.stems, stop: s.stop.slice() })) });
    localCascade(analysis, { text: t.text, options: config.cascade, stemCache, table, tokenStems });
  }),
  record_from_table: () => texts.forEach((t, i) => cascadeRecordOfTable(tables[i]!, t.text, analyses[i]!.language, { tagger: 'shape', stemCache })),
  // What page-cascade.ts does per page: the record from the analysis's table and stems, encoded.
  record_wired: () => texts.forEach((t, i) => encodeCascadeRecord(cascadeRecordOfTable(wired[i]!.table, t.text, analyses[i]!.language, { tagger: 'shape', stemCache, tokenStems: wired[i]!.tokenStems }))),
  fold_homoglyphs: () => texts.forEach((t) => foldHomoglyphs(t.text)),
  cascade_pos: () => texts.forEach((t, i) => runCascade(analyses[i]!, { text: t.text, options: optionsFor('pos'), store: stores.pos, synonyms, normalized: normalized[i], stemCache })),
};

// Wall time and CPU time (process.cpuUsage: this process's threads, the GC's included). On a loaded
// machine wall time mostly measures the scheduler; the ratios are taken on CPU time.
const wall = new Map<string, number>(Object.keys(cases).map((k) => [k, 0]));
const cpu = new Map<string, number>(Object.keys(cases).map((k) => [k, 0]));
for (const run of Object.values(cases)) run(); // warm-up (JIT, synonym table, tagger model)
const rounds = Number(flags.rounds);
for (let r = 0; r < rounds; r++) {
  for (const [name, run] of Object.entries(cases)) {
    const start = performance.now();
    const startCpu = process.cpuUsage();
    run();
    const used = process.cpuUsage(startCpu);
    cpu.set(name, cpu.get(name)! + (used.user + used.system) / 1000);
    wall.set(name, wall.get(name)! + performance.now() - start);
  }
}
const perPage = (totals: Map<string, number>, name: string) => totals.get(name)! / rounds / texts.length;
console.log(`${'stage'.padEnd(18)} ${'cpu ms/page'.padStart(12)} ${'wall ms/page'.padStart(12)}`);
for (const name of Object.keys(cases)) console.log(`${name.padEnd(18)} ${perPage(cpu, name).toFixed(3).padStart(12)} ${perPage(wall, name).toFixed(3).padStart(12)}`);
const base = perPage(cpu, 'analysis');
const ratio = (name: string) => (base / (base + perPage(cpu, name))).toFixed(2);
console.log(`wired (analysis + page's own half, table reused) over analysis: ${(perPage(cpu, 'analysis_and_local') / base).toFixed(2)}×`);
console.log(`cascade: analysis_ms=${base.toFixed(3)} cascade_shape_ms=${perPage(cpu, 'cascade_shape').toFixed(3)} ratio_shape=${ratio('cascade_shape')} cascade_pos_ms=${perPage(cpu, 'cascade_pos').toFixed(3)} ratio_pos=${ratio('cascade_pos')}`);
