/**
 * Measures the committed `generated` model (src/cascade/generated-tree.json) through the stage
 * itself (generatedFlag, the config's minWords and minScore) on texts it was not trained on:
 *
 *   npm run eval:generated -- [--per-genre 120] [--hold-out man] [--seed 1]
 *
 * The genres are read and split as scripts/train-generated.ts does (same seed, same split): the 30%
 * of each trained genre, and the held-out genre whole. Per genre: the share of natural texts
 * flagged (target ≤ 1%), and of each generator's stand-ins (target ≥ 90%), made from the other half
 * of the genre's texts. Also a kind of text no generator makes and no genre holds (Python source
 * files of the Python installation, read as text): how many are left unflagged as unlike anything
 * trained on, and the flags' confidence (share of trees voting generated).
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultConfig } from '../src/config.js';
import { forestScore } from '../src/cascade/decision-tree.js';
import { generatedFeatures } from '../src/cascade/generated-features.js';
import { GENERATED_MODEL, MAX_OUTSIDE, generatedFlag, outsideRange, parseGeneratedModel, type GeneratedModel } from '../src/cascade/generated-flag.js';
import { realPageTexts, type RealText } from './generated-real-pages.js';
import { GENERATOR_NAMES, generateFrom, generatorSource } from '../src/cascade/text-generators.js';
import { GENRES, loadGenreTexts, splitGenres, type Genre, type GenreText } from './generated-corpus.js';
import { seededRandom } from '../test/helpers/seeded-random.js';

const { values: flags } = parseArgs({
  options: {
    'per-genre': { type: 'string', default: '120' },
    'hold-out': { type: 'string', default: 'man' },
    seed: { type: 'string', default: '1' },
    json: { type: 'boolean', default: false },
    model: { type: 'string' },
    'real-pages': { type: 'boolean', default: false },
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
}

/** Judges texts in English, or each in its own language (real pages); `flaggedIds` collects the ids of the flagged ones. */
function judge(texts: readonly (string | RealText)[], flaggedIds?: string[]): Tally {
  const tally: Tally = { n: 0, flagged: 0, unseen: 0, confidence: 0 };
  for (const item of texts) {
    const { text, language, id } = typeof item === 'string' ? { text: item, language: 'eng', id: '' } : item;
    if (!model.languages.includes(language)) continue;
    const flag = generatedFlag(text, language, options, model);
    const { values, words } = generatedFeatures(text, language);
    if (words < options.minWords) continue;
    tally.n++;
    if (flag !== null) {
      tally.flagged++;
      tally.confidence += flag.confidence;
      flaggedIds?.push(`${id} score ${flag.score.toFixed(2)} ${JSON.stringify(flag.features)}`);
    } else if (forestScore(model.trees, values) >= options.minScore && outsideRange(model.ranges, values) >= MAX_OUTSIDE) {
      tally.unseen++;
    }
  }
  return tally;
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
  const all = loadGenreTexts(Number(flags['per-genre']), random);
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
    const trainedIds = new Set(train.filter((t) => t.genre === 'blogs').map((t) => t.id));
    for (const [set, texts] of Object.entries(realPageTexts())) {
      if (set !== 'dragnet extracted') {
        real[set] = judge(texts, (realFlagged[set] = []));
        continue;
      }
      real[`${set}, text never trained on`] = judge(texts.filter((t) => !trainedIds.has(t.id)), (realFlagged[`${set}, text never trained on`] = []));
      real[`${set}, text trained on (blogs genre)`] = judge(texts.filter((t) => trainedIds.has(t.id)), (realFlagged[`${set}, text trained on (blogs genre)`] = []));
    }
  }
  if (flags.json) {
    console.log(JSON.stringify({ rows, pythonSource: unseenKind, real, realFlagged }));
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
