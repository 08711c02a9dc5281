/**
 * Measures the committed `generated` model (src/cascade/generated-tree.json) through the stage
 * itself (generatedFlag, the config's minWords and minScore) on texts it was not trained on:
 *
 *   npm run eval:generated -- [--per-genre blogs=360,...] [--hold-out man] [--seed 1] [--real-pages] [--curve] [--model FILE] [--json]
 *
 * The genres are read and split as scripts/train-generated.ts does (same seed, same split): the 30%
 * of each trained genre, and the held-out genre whole. Per genre: the share of natural texts
 * flagged (target ≤ 1%), and of each generator's stand-ins (target ≥ 90%), made from the other half
 * of the genre's texts. Also a kind of text no generator makes and no genre holds (Python source
 * files of the Python installation, read as text): how many are left unflagged as unlike anything
 * trained on, and the flags' confidence (share of trees voting generated).
 *
 * `--curve`: the trade-off of the decision cut: for each minScore (and each minimum tree-vote
 * confidence at the config's minScore), the natural share flagged per genre and on the real pages,
 * and each generated kind's share flagged (all genres together, and the lowest genre).
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultConfig } from '../src/config.js';
import { evaluateForest } from '../src/cascade/decision-tree.js';
import { generatedFeatures } from '../src/cascade/generated-features.js';
import { GENERATED_MODEL, MAX_OUTSIDE, generatedFlag, outsideRange, parseGeneratedModel, type GeneratedModel } from '../src/cascade/generated-flag.js';
import { realPageTexts, type RealText } from './generated-real-pages.js';
import { GENERATOR_NAMES, generateFrom, generatorSource } from '../src/cascade/text-generators.js';
import { GENRES, genreTextCounts, loadGenreTexts, splitGenres, type Genre, type GenreText } from './generated-corpus.js';
import { seededRandom } from '../test/helpers/seeded-random.js';

const { values: flags } = parseArgs({
  options: {
    'per-genre': { type: 'string', default: '' },
    'hold-out': { type: 'string', default: 'man' },
    seed: { type: 'string', default: '1' },
    json: { type: 'boolean', default: false },
    model: { type: 'string' },
    'real-pages': { type: 'boolean', default: false },
    curve: { type: 'boolean', default: false },
  },
});
const random = seededRandom(Number(flags.seed));
const holdOut = flags['hold-out'] as Genre;
const options = defaultConfig().cascade.generated;
/** The model measured: `--model <file>` (a train:generated output), else the committed one. */
const model: GeneratedModel = flags.model === undefined ? GENERATED_MODEL : parseGeneratedModel(JSON.parse(readFileSync(flags.model, 'utf8')));

interface Tally {
  n: number;
  flagged: number;
  /** Scored generated but left unflagged: unlike anything trained on. */
  unseen: number;
  confidence: number;
  /** Every judged text's score, tree-vote share and whether its features are within the model's ranges (for --curve). */
  judged: { score: number; confidence: number; inRange: boolean }[];
}

/** Judges texts in English, or each in its own language (real pages); `flaggedIds` collects the ids of the flagged ones. */
function judge(texts: readonly (string | RealText)[], flaggedIds?: string[]): Tally {
  const tally: Tally = { n: 0, flagged: 0, unseen: 0, confidence: 0, judged: [] };
  for (const item of texts) {
    const { text, language, id } = typeof item === 'string' ? { text: item, language: 'eng', id: '' } : item;
    if (!model.languages.includes(language)) continue;
    const flag = generatedFlag(text, language, options, model);
    const { values, words } = generatedFeatures(text, language);
    if (words < options.minWords) continue;
    tally.n++;
    const forest = evaluateForest(model.trees, values, model.features);
    const inRange = outsideRange(model.ranges, values) < MAX_OUTSIDE;
    tally.judged.push({ score: forest.score, confidence: forest.votes / model.trees.length, inRange });
    if (flag !== null) {
      tally.flagged++;
      tally.confidence += flag.confidence;
      flaggedIds?.push(`${id} score ${flag.score.toFixed(2)} confidence ${flag.confidence.toFixed(2)} ${JSON.stringify(flag.features)}`);
    } else if (forest.score >= options.minScore && !inRange) {
      tally.unseen++;
    }
  }
  return tally;
}

/** Share of a tally's texts flagged at a cut (score ≥ minScore, tree votes ≥ minConfidence, within the ranges). */
function flaggedAt(t: Tally, minScore: number, minConfidence: number): number {
  if (t.judged.length === 0) return 0;
  return t.judged.filter((j) => j.inRange && j.score > 0 && j.score >= minScore && j.confidence >= minConfidence).length / t.judged.length;
}

/** The trade-off table: natural share flagged per genre and real-page set, each kind's share flagged overall and in its lowest genre. */
function printCurve(rows: Record<string, Record<string, Tally>>, real: Record<string, Tally>): void {
  const genres = Object.keys(rows);
  const realSets = Object.keys(real);
  const pooled = (kind: string): Tally => {
    const judged = genres.flatMap((g) => rows[g]![kind]?.judged ?? []);
    return { n: judged.length, flagged: 0, unseen: 0, confidence: 0, judged };
  };
  const cell = (x: number) => `${(100 * x).toFixed(1)}%`;
  const cuts: [number, number][] = [
    ...[0.6, 0.7, 0.75, 0.8, 0.82, 0.85, 0.87, 0.9, 0.92, 0.95].map((m): [number, number] => [m, 0]),
    ...[0.85, 0.9, 0.95, 1].map((c): [number, number] => [options.minScore, c]),
  ];
  console.log(`\ntrade-off: natural flagged per genre and real-page set; each kind flagged over all genres (lowest genre)`);
  console.log(`| minScore | minConfidence | ${genres.map((g) => `natural ${g}`).join(' | ')} | ${realSets.join(' | ')} | ${GENERATOR_NAMES.join(' | ')} |`);
  console.log(`|---:|---:|${[...genres, ...realSets, ...GENERATOR_NAMES].map(() => '---:').join('|')}|`);
  for (const [minScore, minConfidence] of cuts) {
    const naturals = genres.map((g) => cell(flaggedAt(rows[g]!.natural!, minScore, minConfidence)));
    const reals = realSets.map((r) => cell(flaggedAt(real[r]!, minScore, minConfidence)));
    const kinds = GENERATOR_NAMES.map((k) => {
      const lowest = Math.min(...genres.flatMap((g) => (rows[g]![k] === undefined || rows[g]![k]!.n === 0 ? [] : [flaggedAt(rows[g]![k]!, minScore, minConfidence)])));
      return `${cell(flaggedAt(pooled(k), minScore, minConfidence))} (${cell(lowest)})`;
    });
    console.log(`| ${minScore} | ${minConfidence} | ${[...naturals, ...reals, ...kinds].join(' | ')} |`);
  }
}

const pct = (t: Tally, x: number) => `${(100 * x / Math.max(1, t.n)).toFixed(1)}%`;

function generatedFor(texts: readonly GenreText[]): Map<string, string[]> {
  const out = new Map<string, string[]>(GENERATOR_NAMES.map((n) => [n, []]));
  if (texts.length < 4) return out;
  const half = Math.ceil(texts.length / 2);
  const parts = [texts.slice(0, half), texts.slice(half)];
  for (const [p, part] of parts.entries()) {
    const source = generatorSource(parts[1 - p]!.map((t) => t.text), 'eng');
    for (const doc of part) {
      const words = Math.min(400, doc.text.split(/\s+/).length);
      for (const name of GENERATOR_NAMES) for (let k = 0; k < 2; k++) out.get(name)!.push(generateFrom(name, source, words, random, 4));
    }
  }
  return out;
}

function pythonSources(limit: number): string[] {
  const folder = '/usr/lib/python3.11';
  if (!existsSync(folder)) return [];
  return readdirSync(folder).filter((f) => f.endsWith('.py')).sort().slice(0, limit).map((f) => readFileSync(join(folder, f), 'utf8').slice(0, 4000));
}

function main(): void {
  const all = loadGenreTexts(genreTextCounts(flags['per-genre']), random);
  const { train, test, held } = splitGenres(all, holdOut, random);
  const rows: Record<string, Record<string, Tally>> = {};
  for (const genre of GENRES) {
    const texts = genre === holdOut ? held : test.filter((t) => t.genre === genre);
    if (texts.length === 0) continue;
    const row: Record<string, Tally> = { natural: judge(texts.map((t) => t.text)) };
    for (const [name, made] of generatedFor(texts)) row[name] = judge(made);
    rows[`${genre}${genre === holdOut ? ' (held out)' : ''}`] = row;
  }
  const unseenKind = judge(pythonSources(60));
  // Real pages as a crawl sees them, measured only (dragnet-train's extracted texts are never trained on).
  const real: Record<string, Tally> = {};
  const realFlagged: Record<string, string[]> = {};
  if (flags['real-pages']) {
    // dragnet-train's hand-made texts are the blogs genre: its pages whose texts were trained on are counted apart.
    const trainedIds = new Set(train.filter((t) => t.genre === 'blogs' || t.genre === 'blogpages').map((t) => t.id));
    for (const [set, texts] of Object.entries(realPageTexts())) {
      if (set !== 'dragnet extracted') {
        real[set] = judge(texts, (realFlagged[set] = []));
        continue;
      }
      real[`${set}, text never trained on`] = judge(texts.filter((t) => !trainedIds.has(t.id)), (realFlagged[`${set}, text never trained on`] = []));
      real[`${set}, trained on (blogs genres)`] = judge(texts.filter((t) => trainedIds.has(t.id)), (realFlagged[`${set}, trained on (blogs genres)`] = []));
    }
  }
  if (flags.json) {
    const strip = (t: Tally) => ({ n: t.n, flagged: t.flagged, unseen: t.unseen, confidence: t.confidence });
    const stripRow = (row: Record<string, Tally>) => Object.fromEntries(Object.entries(row).map(([k, t]) => [k, strip(t)]));
    console.log(JSON.stringify({ rows: Object.fromEntries(Object.entries(rows).map(([g, row]) => [g, stripRow(row)])), pythonSource: strip(unseenKind), real: stripRow(real), realFlagged }));
    return;
  }
  console.log(`generated stage on texts not trained on (minScore ${options.minScore}, minWords ${options.minWords}); flagged share (n)`);
  for (const [genre, row] of Object.entries(rows)) {
    console.log(`${genre}:`);
    for (const [kind, t] of Object.entries(row)) {
      console.log(`  ${kind.padEnd(13)} flagged ${pct(t, t.flagged).padStart(6)} of ${String(t.n).padStart(4)}  left unflagged as unseen ${pct(t, t.unseen)}  mean confidence ${(t.confidence / Math.max(1, t.flagged)).toFixed(2)}`);
    }
  }
  console.log(`a kind never trained on (Python source files as text): flagged ${pct(unseenKind, unseenKind.flagged)} of ${unseenKind.n}, left unflagged as unseen ${pct(unseenKind, unseenKind.unseen)}`);
  printTable(rows);
  for (const [set, t] of Object.entries(real)) {
    console.log(`real pages, ${set}: flagged ${pct(t, t.flagged)} (${t.flagged} of ${t.n})`);
    for (const line of realFlagged[set]!) console.log(`    ${line}`);
  }
  if (flags.curve) printCurve(rows, real);
}

/** Flagged share per genre (rows) and kind (columns): natural ≤ 1% and every generator ≥ 90% are the targets. */
function printTable(rows: Record<string, Record<string, Tally>>): void {
  const kinds = ['natural', ...GENERATOR_NAMES];
  console.log(`\n| genre | ${kinds.join(' | ')} |\n|---|${kinds.map(() => '---:').join('|')}|`);
  for (const [genre, row] of Object.entries(rows)) {
    console.log(`| ${genre} | ${kinds.map((k) => (row[k] === undefined ? '' : pct(row[k]!, row[k]!.flagged))).join(' | ')} |`);
  }
}

main();
