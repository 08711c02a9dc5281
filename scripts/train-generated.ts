/**
 * Trains the cascade's `generated` trees and writes them to src/cascade/generated-tree.json.
 *
 *   npm run train:generated -- [--per-genre 120] [--hold-out man] [--seed 1] [--out src/cascade/generated-tree.json]
 *
 * Natural texts: several genres read at run time (scripts/generated-corpus.ts: news and blog texts
 * of the two dev sets, Python and PostgreSQL reference documentation, the Debian handbook, man
 * pages; sources and licences listed there). One genre (`--hold-out`, man pages by default) is kept
 * entirely out of training: neither its texts nor text generated from them are seen; the other
 * genres' texts are split 70/30, and the trees learn on the 70% part.
 *
 * Generated texts, each standing in for one natural text (same length, same paragraph shape) and
 * made from OTHER texts of its genre (the other half of the genre's part, so no text feeds its own
 * stand-in): every generator of text-generators.ts (word Markov chains of order 1–3, word salad,
 * content-word salad, shuffled sentences, template fill, stitched sentences).
 *
 * The model keeps, beside the trees, the range of each feature over the training samples (0.5% and
 * 99.5% quantiles): a text with features outside it is unlike anything trained on, and is left
 * unflagged (generated-flag.ts). The held-out figures (in-genre 30%, and the held-out genre) are
 * printed and kept in the file; scripts/eval-generated.ts measures the committed model.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DecisionTreeClassifier } from 'ml-cart';
import { forestScore, treeFromMlCart, type TreeNode } from '../src/cascade/decision-tree.js';
import { GENERATED_FEATURE_NAMES, generatedFeatures } from '../src/cascade/generated-features.js';
import { GENERATOR_NAMES, generateFrom, generatorSource } from '../src/cascade/text-generators.js';
import { featureRanges, outsideRange } from '../src/cascade/generated-flag.js';
import { GENRES, loadGenreTexts, splitGenres, type Genre, type GenreText } from './generated-corpus.js';
import { seededRandom } from '../test/helpers/seeded-random.js';

const here = new URL('.', import.meta.url).pathname;
const { values: flags } = parseArgs({
  options: {
    'per-genre': { type: 'string', default: '120' },
    'hold-out': { type: 'string', default: 'man' },
    seed: { type: 'string', default: '1' },
    out: { type: 'string', default: resolve(here, '../src/cascade/generated-tree.json') },
    'max-depth': { type: 'string', default: '8' },
  },
});
const seed = Number(flags.seed);
const random = seededRandom(seed);
const holdOut = flags['hold-out'] as Genre;
if (!GENRES.includes(holdOut)) {
  process.stderr.write(`train-generated: Expected \`hold-out\` to be one of ${GENRES.join('|')}, got \`${String(holdOut)}\`\n`);
  process.exit(2);
}
/** Texts shorter than this are neither trained on nor judged (config cascade.generated.minWords). */
const MIN_WORDS = 120;
/** Natural samples count this many times: a false flag on a person's page costs more than a miss. */
const NATURAL_WEIGHT = 8;
const TREES = 25;
/**
 * Samples per tree (a draw with replacement from the weighted samples): ml-cart's split search
 * grows with the square of a node's samples, so each tree learns on a subsample (bagging).
 */
const DRAW = 4000;
const MIN_LEAF = 4;
/** Generated samples per generator and natural text. */
const GENERATED_PER_TEXT = 2;
/** Quantiles of the feature ranges kept with the model. */
const RANGE_QUANTILE = 0.005;

export interface Sample {
  readonly values: number[];
  readonly label: 0 | 1;
  readonly source: 'natural' | (typeof GENERATOR_NAMES)[number];
  readonly genre: Genre;
}

const wordCount = (text: string) => text.split(/\s+/).filter((t) => t !== '').length;
const paragraphsOf = (text: string) => text.split(/\n\s*\n|\n/).map((p) => p.trim()).filter((p) => p !== '');

/** The text from its start, and from two later paragraphs (the stage reads a text's first ~1,200 characters). */
function naturalPieces(text: string, random: () => number): string[] {
  const paras = paragraphsOf(text);
  const pieces = [text];
  for (let k = 0; k < 2 && paras.length > 3; k++) pieces.push(paras.slice(1 + Math.floor(random() * (paras.length / 2))).join('\n\n'));
  return pieces.filter((p) => wordCount(p) >= MIN_WORDS);
}

/** Natural samples of `texts` and generated stand-ins for them, each made from the other half of its genre. */
export function samplesFor(texts: readonly GenreText[], random: () => number): Sample[] {
  const samples: Sample[] = [];
  for (const genre of GENRES) {
    const mine = texts.filter((t) => t.genre === genre);
    if (mine.length < 4) continue;
    const half = Math.ceil(mine.length / 2);
    const parts = [mine.slice(0, half), mine.slice(half)];
    for (const [p, part] of parts.entries()) {
      const others = generatorSource(parts[1 - p]!.map((t) => t.text), mine[0]!.language);
      for (const doc of part) {
        for (const piece of naturalPieces(doc.text, random)) samples.push({ values: generatedFeatures(piece, doc.language).values, label: 0, source: 'natural', genre });
        const paras = Math.max(1, paragraphsOf(doc.text).length);
        const perParagraph = Math.max(1, Math.round(doc.text.split(/(?<=[.!?])\s+/).length / paras));
        const words = Math.min(400, wordCount(doc.text));
        for (const name of GENERATOR_NAMES) for (let k = 0; k < GENERATED_PER_TEXT; k++) {
          const text = generateFrom(name, others, words, random, perParagraph);
          samples.push({ values: generatedFeatures(text, doc.language).values, label: 1, source: name, genre });
        }
      }
    }
  }
  return samples;
}

export interface SourceFigures {
  readonly source: string;
  readonly count: number;
  /** Share of this source's samples flagged as generated. */
  readonly flagged: number;
}

export interface ModelRanges {
  readonly low: readonly number[];
  readonly high: readonly number[];
}

/** Share flagged per source (natural, each generator) at `minScore`, texts outside the ranges left unflagged. */
export function figuresBySource(trees: readonly TreeNode[], ranges: ModelRanges, samples: readonly Sample[], minScore: number): SourceFigures[] {
  const flagged = samples.map((s) => forestScore(trees, s.values) >= minScore && outsideRange(ranges, s.values) === 0);
  return ['natural', ...GENERATOR_NAMES].map((source) => {
    const idx = samples.flatMap((s, i) => (s.source === source ? [i] : []));
    return { source, count: idx.length, flagged: idx.filter((i) => flagged[i]).length / Math.max(1, idx.length) };
  });
}

function main(): void {
  const all = loadGenreTexts(Number(flags['per-genre']), random);
  const { train, test, held: heldGenre } = splitGenres(all, holdOut, random);
  const started = process.cpuUsage();
  const cpu = () => `${((process.cpuUsage(started).user) / 1e6).toFixed(1)} CPU s`;
  const trainSamples = samplesFor(train, random);
  const testSamples = samplesFor(test, random);
  const heldSamples = samplesFor(heldGenre, random);
  process.stderr.write(`samples: ${trainSamples.length} train, ${testSamples.length} in-genre test, ${heldSamples.length} held-out genre (${cpu()})\n`);

  const weighted = trainSamples.flatMap((s) => (s.label === 0 ? Array.from({ length: NATURAL_WEIGHT }, () => s) : [s]));
  // Bagging: each tree on a bootstrap draw; a text's score is the mean of its leaves' generated shares.
  const trees = Array.from({ length: TREES }, () => {
    const draw = Array.from({ length: Math.min(DRAW, weighted.length) }, () => weighted[Math.floor(random() * weighted.length)]!);
    const classifier = new DecisionTreeClassifier({ gainFunction: 'gini', maxDepth: Number(flags['max-depth']), minNumSamples: MIN_LEAF });
    classifier.train(draw.map((s) => s.values), draw.map((s) => s.label));
    return treeFromMlCart((classifier.toJSON() as { root: Parameters<typeof treeFromMlCart>[0] }).root);
  });
  process.stderr.write(`trees trained (${cpu()})\n`);
  const ranges = featureRanges(trainSamples.map((s) => s.values), RANGE_QUANTILE);

  const report = (name: string, samples: readonly Sample[]) => [0.6, 0.7, 0.8].map((minScore) => ({
    set: name, minScore,
    byGenre: Object.fromEntries(GENRES.flatMap((g) => {
      const mine = samples.filter((s) => s.genre === g);
      return mine.length === 0 ? [] : [[g, figuresBySource(trees, ranges, mine, minScore)]];
    })),
  }));
  const heldOut = [...report('in-genre 30%', testSamples), ...report(`held-out genre ${holdOut}`, heldSamples)];
  const counts = Object.fromEntries(GENRES.map((g) => [g, all.filter((t) => t.genre === g).length]));
  const model = {
    version: 2,
    features: GENERATED_FEATURE_NAMES,
    languages: ['eng'],
    minWords: MIN_WORDS,
    trainedBy: `scripts/train-generated.ts --seed ${seed} --per-genre ${flags['per-genre']} --hold-out ${holdOut} --max-depth ${flags['max-depth']} (${TREES} bagged CART trees)`,
    data: `natural texts by genre ${JSON.stringify(counts)} (scripts/generated-corpus.ts: article-benchmark-dev MIT; dragnet-train AGPL-3.0, read at run time; Debian python3-doc PSF-2.0, postgresql-doc-15 PostgreSQL licence, debian-handbook GPL-2+/CC-BY-SA-3.0, manpages/manpages-dev various free licences); 70% of each genre but ${holdOut} trained on (${train.length} texts, ${trainSamples.length} samples), ${holdOut} held out entirely`,
    ranges,
    heldOut,
    trees,
  };
  writeFileSync(flags.out, `${JSON.stringify(model)}\n`);
  console.log(model.data);
  for (const h of heldOut) {
    console.log(`${h.set}, minScore ${h.minScore}:`);
    for (const [genre, figures] of Object.entries(h.byGenre)) {
      console.log(`  ${genre.padEnd(9)} ${figures.map((f) => `${f.source} ${(100 * f.flagged).toFixed(1)}% (${f.count})`).join('  ')}`);
    }
  }
  console.log(`wrote ${flags.out}`);
}

main();
