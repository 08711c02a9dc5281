/**
 * Evaluates the cascade's flags on a labelled set built from the dev pages' texts
 * (article-benchmark-dev, MIT):
 *
 *   npm run eval:cascade -- [--dataset <dir>] [--seed 1] [--tagger shape|pos] [--store indexed|memory] [--json]
 *
 * Kinds of page (each expected to get the flags in brackets):
 *   natural          every dev text, judged against the store of all the OTHER texts  []
 *   homoglyph        a copy with a third of its look-alike letters swapped (Latin ↔ Cyrillic)  [homoglyph]
 *   markov1/markov2/shuffled/salad  generated texts standing in for the texts the `generated` trees
 *                    held out that are long enough to judge (made from the other texts of the
 *                    language)  [generated]
 *   synonymised-10/30/50  a copy with 10/30/50% of its content words replaced by synonyms from the
 *                    synonym dictionary (WordNet, src/synonyms/), English texts  [synonymised]
 *   compiled-2/3/4   a page of ~600 words made of paragraph runs of 2, 3 or 4 texts  [compiled]
 * All but `natural` are judged against the store of all dev texts. Prints, per flag, precision,
 * recall and F1 over the whole set, and its false-positive rate on the natural texts; then the share
 * of each kind that gets each flag; then how often the compiled stage counts the sources right,
 * by test (hypergeometric, containment).
 */
import { parseArgs } from 'node:util';
import { defaultConfig } from '../src/config.js';
import { cascadeRecord, type CascadeRecord, type GrammarTagger } from '../src/cascade/cascade-record.js';
import { MemoryCascadeStore, type CascadeStore, type StoredCascadePage } from '../src/cascade/cascade-store.js';
import { IndexedCascadeStore, type CascadeRecordSource } from '../src/cascade/indexed-cascade-store.js';
import { decodeCascadeRecord, encodeCascadeRecord, storedPart } from '../src/cascade/cascade-record-codec.js';
import { compiledFlag, compiledSources } from '../src/cascade/compiled-flag.js';
import { runCascade } from '../src/cascade/run-cascade.js';
import { GENERATOR_NAMES, generateText } from '../src/cascade/text-generators.js';
import { analyzeText, fingerprintParamsFrom } from '../src/analyze/analyze-text.js';
import { loadSynonymDictionary } from '../src/synonyms/synonym-dictionary.js';
import { CASCADE_FLAG_KINDS, type CascadeFlagKind } from '../src/types.js';
import { defaultDatasetPath, loadDevTexts, splitByLanguage, wordCount, type DevText } from './cascade-dataset.js';
import { compilePage, homoglyphCopy, spinText } from './cascade-variants.js';
import { seededRandom } from '../test/helpers/seeded-random.js';

const { values: flags } = parseArgs({
  options: {
    dataset: { type: 'string', default: defaultDatasetPath() },
    store: { type: 'string', default: 'indexed' },
    seed: { type: 'string', default: '1' },
    tagger: { type: 'string', default: 'shape' },
    json: { type: 'boolean', default: false },
  },
});
if (flags.tagger !== 'shape' && flags.tagger !== 'pos') {
  process.stderr.write(`eval-cascade: Expected \`tagger\` to be shape|pos, got \`${flags.tagger}\` (string)\n`);
  process.exit(2);
}
const tagger: GrammarTagger = flags.tagger;
const config = defaultConfig();
const options = { ...config.cascade, synonymised: { ...config.cascade.synonymised, tagger } };
const params = fingerprintParamsFrom(config.fingerprint);
const random = seededRandom(Number(flags.seed));
const synonyms = loadSynonymDictionary();

interface Item {
  readonly kind: string;
  readonly text: string;
  readonly expected: readonly CascadeFlagKind[];
  /** Dev text to take out of the store while judging (a natural text is not its own source). */
  readonly self?: number;
  readonly sources?: number;
  /** Share of content words the spinner could replace. */
  readonly replaced?: number;
}

/** Texts the `generated` tree held out: the same split as scripts/train-generated.ts --seed 1. */
function heldOutTexts(texts: readonly DevText[]): DevText[] {
  const counts = new Map<string, number>();
  for (const t of texts) counts.set(t.language, (counts.get(t.language) ?? 0) + 1);
  const trained = texts.filter((t) => (counts.get(t.language) ?? 0) >= 3);
  return splitByLanguage(trained, 0.7, seededRandom(1)).test;
}

function buildItems(texts: readonly DevText[]): Item[] {
  const items: Item[] = texts.map((t, i) => ({ kind: 'natural', text: t.text, expected: [], self: i }));
  for (const t of texts) items.push({ kind: 'homoglyph', text: homoglyphCopy(t.text, 1 / 3, random), expected: ['homoglyph'] });
  // Texts too short for the stage (cascade.generated.minWords) are left out, as the trainer leaves
  // them out: a generated text standing in for them would be too short to be judged.
  for (const t of heldOutTexts(texts).filter((h) => wordCount(h.text) >= options.generated.minWords)) {
    const others = texts.filter((o) => o.language === t.language && o.id !== t.id).map((o) => o.text);
    for (const name of GENERATOR_NAMES) items.push({ kind: name, text: generateText(name, others, wordCount(t.text), random), expected: ['generated'] });
  }
  const english = texts.filter((t) => t.language === 'eng');
  // Spinners: a synonym of any sense of the word (the lemma as the dictionary gives it); `-forms`: the
  // synonym given the replaced word's ending (plural, tense); `-swaps`: forms kept, multi-word synonyms taken and a tenth of the
  // function words swapped too.
  const styles = [['', {}], ['-forms', { keepForm: true }], ['-swaps', { keepForm: true, functionSwaps: 0.1, multiWord: true }]] as const;
  for (const [suffix, style] of styles) for (const share of [0.1, 0.3, 0.5]) {
    for (const t of english) {
      const spun = spinText(t.text, 'eng', synonyms, share, random, style);
      items.push({ kind: `synonymised-${share * 100}${suffix}`, text: spun.text, expected: ['synonymised'], replaced: spun.replaced });
    }
  }
  for (const count of [2, 3, 4]) {
    for (let n = 0; n < 30; n++) {
      const picked = new Set<number>();
      while (picked.size < count) picked.add(Math.floor(random() * english.length));
      const text = compilePage([...picked].map((i) => english[i]!.text), 600, random);
      items.push({ kind: `compiled-${count}`, text, expected: ['compiled'], sources: count });
    }
  }
  return items;
}

interface Judged {
  readonly item: Item;
  readonly flags: ReadonlySet<CascadeFlagKind>;
  readonly record: CascadeRecord | null;
}

function judgeAll(texts: readonly DevText[], items: readonly Item[], store: CascadeStore, records: readonly CascadeRecord[]): Judged[] {
  return items.map((item) => {
    if (item.self !== undefined) store.delete(item.self);
    const analysis = analyzeText(item.text, params);
    const result = runCascade(analysis, { text: item.text, options, store, synonyms });
    if (item.self !== undefined) store.add({ id: item.self, url: texts[item.self]!.url, record: records[item.self]! });
    return { item, flags: new Set(result.flags.map((f) => f.kind)), record: result.record };
  });
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const f3 = (x: number) => x.toFixed(3);

function flagTable(judged: readonly Judged[]): string[] {
  const lines = ['flag          precision  recall   F1     FP on natural'];
  for (const flag of CASCADE_FLAG_KINDS) {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const j of judged) {
      const want = j.item.expected.includes(flag);
      const got = j.flags.has(flag);
      if (want && got) tp++;
      else if (got) fp++;
      else if (want) fn++;
    }
    const natural = judged.filter((j) => j.item.kind === 'natural');
    const falseNatural = natural.filter((j) => j.flags.has(flag)).length;
    const p = tp + fp === 0 ? 1 : tp / (tp + fp);
    const r = tp + fn === 0 ? 1 : tp / (tp + fn);
    const f = p + r === 0 ? 0 : (2 * p * r) / (p + r);
    lines.push(`${flag.padEnd(13)} ${f3(p).padStart(9)}  ${f3(r).padStart(6)}  ${f3(f)}  ${pct(falseNatural / natural.length)} (${falseNatural}/${natural.length})`);
  }
  return lines;
}

function kindTable(judged: readonly Judged[]): string[] {
  const kinds = [...new Set(judged.map((j) => j.item.kind))];
  const lines = [`kind            n    ${CASCADE_FLAG_KINDS.map((f) => f.padStart(12)).join('')}`];
  for (const kind of kinds) {
    const mine = judged.filter((j) => j.item.kind === kind);
    const cells = CASCADE_FLAG_KINDS.map((f) => pct(mine.filter((j) => j.flags.has(f)).length / mine.length).padStart(12));
    const replaced = mine[0]!.item.replaced === undefined ? '' : `  (replaced ${pct(mine.reduce((s, j) => s + j.item.replaced!, 0) / mine.length)} of content words)`;
    lines.push(`${kind.padEnd(15)} ${String(mine.length).padStart(3)}  ${cells.join('')}${replaced}`);
  }
  return lines;
}

function sourceCountTable(texts: readonly DevText[], judged: readonly Judged[], store: CascadeStore, records: readonly CascadeRecord[]): string[] {
  const lines = ['compiled, by test: sources counted right on compiled pages; natural pages flagged'];
  for (const test of ['hypergeometric', 'containment'] as const) {
    const opts = { ...options.compiled, test };
    let right = 0;
    let total = 0;
    for (const j of judged) {
      if (j.item.sources === undefined || j.record === null) continue;
      total++;
      if (compiledSources(j.record, store, opts).length === j.item.sources) right++;
    }
    let natural = 0;
    records.forEach((record, id) => {
      store.delete(id);
      if (compiledFlag(record, store, opts) !== null) natural++;
      store.add({ id, url: texts[id]!.url, record });
    });
    lines.push(`  ${test.padEnd(15)} sources right ${pct(right / total)} (${right}/${total})  natural flagged ${pct(natural / records.length)} (${natural}/${records.length})`);
  }
  return lines;
}

/** The `generated` flag on the held-out split only: held-out natural texts against generated ones. */
function heldOutGenerated(texts: readonly DevText[], judged: readonly Judged[]): string {
  const heldOut = new Set(heldOutTexts(texts).filter((h) => wordCount(h.text) >= options.generated.minWords).map((t) => t.text));
  const natural = judged.filter((j) => j.item.kind === 'natural' && heldOut.has(j.item.text));
  const generated = judged.filter((j) => j.item.expected.includes('generated'));
  const tp = generated.filter((j) => j.flags.has('generated')).length;
  const fp = natural.filter((j) => j.flags.has('generated')).length;
  const p = tp + fp === 0 ? 1 : tp / (tp + fp);
  const r = tp / generated.length;
  return `generated on the held-out split (${natural.length} natural, ${generated.length} generated): precision ${f3(p)} recall ${f3(r)} F1 ${f3((2 * p * r) / (p + r))}`;
}

/**
 * The store the pipeline uses (`--store indexed`, default: sampled postings, records round-tripped
 * through the database's byte encoding), or every hash indexed in memory (`--store memory`).
 */
function makeStore(): CascadeStore {
  if (flags.store === 'memory') return new MemoryCascadeStore();
  const rows = new Map<number, { url: string; bytes: Uint8Array }>();
  const source: CascadeRecordSource = {
    get: (id): StoredCascadePage | undefined => {
      const row = rows.get(id);
      return row === undefined ? undefined : { id, url: row.url, record: decodeCascadeRecord(row.bytes) };
    },
    put: (page) => void rows.set(page.id, { url: page.url, bytes: storedPart(encodeCascadeRecord(page.record)) }),
    delete: (id) => void rows.delete(id),
  };
  return new IndexedCascadeStore(source);
}

function main(): void {
  const texts = loadDevTexts(flags.dataset, 'eval-cascade');
  const store = makeStore();
  const records = texts.map((t) => cascadeRecord(t.text, analyzeText(t.text, params).language, { tagger: options.synonymised.tagger }));
  records.forEach((record, id) => store.add({ id, url: texts[id]!.url, record }));
  const items = buildItems(texts);
  const judged = judgeAll(texts, items, store, records);
  const out = [
    `eval-cascade: ${texts.length} dev texts, ${items.length} labelled pages, tagger ${options.synonymised.tagger}, store ${flags.store}, seed ${flags.seed}`,
    ...flagTable(judged),
    '',
    ...kindTable(judged),
    '',
    ...sourceCountTable(texts, judged, store, records),
    '',
    heldOutGenerated(texts, judged),
  ];
  console.log(out.join('\n'));
}

main();
