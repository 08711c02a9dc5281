/**
 * Trains the cascade's `generated` trees and writes them to src/cascade/generated-tree.json.
 *
 *   npm run train:generated -- [--per-genre blogs=360,...] [--hold-out man] [--seed 1] [--out src/cascade/generated-tree.json]
 *     [--natural-weight 28] [--trees 40] [--subspace 0.5] [--natural-pieces 5] [--max-depth 8] [--draw 4000] [--dump FILE]
 *
 * Natural texts: several genres read at run time (scripts/generated-corpus.ts: news and blog texts
 * of the two dev sets, the news and blog pages as neardup extracts them (DEFAULT_GENRE_TEXTS of each), Python and PostgreSQL reference documentation, the Debian handbook, man
 * pages; sources and licences listed there). One genre (`--hold-out`, man pages by default) is kept
 * entirely out of training: neither its texts nor text generated from them are seen; the other
 * genres' texts are split 70/30, and the trees learn on the 70% part.
 *
 * Generated texts, each standing in for one natural text (same length, same paragraph shape) and
 * made from OTHER texts of its genre (the other half of the genre's part, so no text feeds its own
 * stand-in; one from the whole half, one from 6–15 of its texts, one from 2–5): every generator of
 * text-generators.ts (word Markov chains of order 1–3, word salad, content-word salad, shuffled
 * sentences, template fill, stitched sentences).
 *
 * Each tree learns on a bootstrap draw (natural samples weighted `--natural-weight`, every genre
 * weighing the same: sampleWeights) and on half the features (random subspaces). The model
 * keeps, beside the trees, the range of each feature over the training samples (0.5% and 99.5%
 * quantiles): a text with features outside it is unlike anything trained on, and is left
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
import { featureRanges, outsideRange } from '../src/cascade/generated-feature-ranges.js';
import { GENRES, genreTextCounts, loadGenreTexts, splitGenres, type Genre, type GenreText } from './generated-corpus.js';
import { seededRandom } from '../test/helpers/seeded-random.js';

const here = new URL('.', import.meta.url).pathname;
const { values: flags } = parseArgs({
  options: {
    /** Texts per genre: a number for all, or `genre=n,...` over DEFAULT_GENRE_TEXTS. */
    'per-genre': { type: 'string', default: '' },
    'hold-out': { type: 'string', default: 'man' },
    seed: { type: 'string', default: '1' },
    out: { type: 'string', default: resolve(here, '../src/cascade/generated-tree.json') },
    'max-depth': { type: 'string', default: '8' },
    'natural-weight': { type: 'string', default: '28' },
    trees: { type: 'string', default: '40' },
    draw: { type: 'string', default: '4000' },
    subspace: { type: 'string', default: '0.5' },
    'natural-pieces': { type: 'string', default: '5' },
    /** `genre`: every genre weighs the same in the draws (its natural samples together, and its generated ones); `none`: every sample alike. */
    balance: { type: 'string', default: 'genre' },
    /** Also write every sample's features (train, in-genre test, held-out genre) to this JSON file, for study. */
    dump: { type: 'string' },
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
/**
 * Natural samples count this many times (`--natural-weight`): a false flag on a person's page costs
 * more than a miss. 28 (was 8): with 14, 5–8% of dragnet-train's extracted pages were flagged.
 */
const NATURAL_WEIGHT = Number(flags['natural-weight']);
const BALANCE = flags.balance as 'genre' | 'none';
if (BALANCE !== 'genre' && BALANCE !== 'none') {
  process.stderr.write(`train-generated: Expected \`balance\` to be genre|none, got \`${String(BALANCE)}\`\n`);
  process.exit(2);
}
const TREES = Number(flags.trees);
/**
 * Samples per tree (a draw with replacement from the weighted samples): ml-cart's split search
 * grows with the square of a node's samples, so each tree learns on a subsample (bagging).
 */
const DRAW = Number(flags.draw);
const MIN_LEAF = 4;
/** Sizes (least, most texts) of the smaller pools a natural text's stand-ins are also made from, beside the whole other half. */
const POOL_SIZES: readonly (readonly [number, number])[] = [[6, 15], [2, 5]];
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

/** The text from its start, and from `later` later paragraphs (the stage reads a text's first ~2,400 characters). */
function naturalPieces(text: string, random: () => number, later = Number(flags['natural-pieces']) - 1): string[] {
  const paras = paragraphsOf(text);
  const pieces = [text];
  for (let k = 0; k < later && paras.length > 3; k++) pieces.push(paras.slice(1 + Math.floor(random() * (paras.length / 2))).join('\n\n'));
  return pieces.filter((p) => wordCount(p) >= MIN_WORDS);
}

/** `n` of `items` (all when fewer), drawn without replacement. */
function sample<T>(items: readonly T[], n: number, random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, n);
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
      const otherTexts = parts[1 - p]!.map((t) => t.text);
      const others = generatorSource(otherTexts, mine[0]!.language);
      for (const doc of part) {
        for (const piece of naturalPieces(doc.text, random)) samples.push({ values: generatedFeatures(piece, doc.language).values, label: 0, source: 'natural', genre });
        const paras = Math.max(1, paragraphsOf(doc.text).length);
        const perParagraph = Math.max(1, Math.round(doc.text.split(/(?<=[.!?])\s+/).length / paras));
        const words = Math.min(400, wordCount(doc.text));
        // Stand-ins made from the whole other half, from a dozen of its texts and from a few: a
        // generator fed few texts repeats their topic words (more like a person's text), one fed
        // many does not; the trees must know both.
        const pools = [others, ...POOL_SIZES.map(([lo, hi]) => generatorSource(sample(otherTexts, lo + Math.floor(random() * (hi - lo + 1)), random), doc.language))];
        for (const name of GENERATOR_NAMES) for (const pool of pools) {
          const text = generateFrom(name, pool, words, random, perParagraph);
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

/**
 * Each training sample's weight in the trees' draws: natural samples together weigh `naturalWeight`
 * times as much per sample as generated ones; with `balance` 'genre' that mass is shared equally
 * among the genres (a genre's natural samples together weigh as much as another's, and likewise
 * its generated ones), so that the genres with most texts (dragnet-train's blogs and their pages)
 * do not crowd the documentation genres out of the draws.
 */
export function sampleWeights(samples: readonly Sample[], naturalWeight: number, balance: 'genre' | 'none'): number[] {
  if (balance === 'none') return samples.map((s) => (s.label === 0 ? naturalWeight : 1));
  const count = new Map<string, number>();
  for (const s of samples) count.set(`${s.genre}/${s.label}`, (count.get(`${s.genre}/${s.label}`) ?? 0) + 1);
  const genres = new Set(samples.map((s) => s.genre)).size;
  const natural = samples.filter((s) => s.label === 0).length;
  // By label: 0 natural, 1 generated.
  const mass = [(naturalWeight * natural) / genres, (samples.length - natural) / genres];
  return samples.map((s) => mass[s.label]! / count.get(`${s.genre}/${s.label}`)!);
}

/** A draw with replacement of `n` of `items` by their `weights`. */
function weightedDraw<T>(items: readonly T[], weights: readonly number[], n: number, random: () => number): T[] {
  const cumulative: number[] = [];
  let total = 0;
  for (const w of weights) cumulative.push((total += w));
  return Array.from({ length: n }, () => {
    const x = random() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! > x) hi = mid;
      else lo = mid + 1;
    }
    return items[lo]!;
  });
}

/** `share` of the column indices 0..n−1 (at least one), drawn without replacement, ascending. */
function featureSubset(n: number, share: number, random: () => number): number[] {
  const all = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [all[i], all[j]] = [all[j]!, all[i]!];
  }
  return all.slice(0, Math.max(1, Math.round(share * n))).sort((a, b) => a - b);
}

/** A tree trained on a subset of the columns, its splits renumbered to the full feature vector. */
function withColumns(node: TreeNode, columns: readonly number[]): TreeNode {
  if (!('feature' in node)) return node;
  return { feature: columns[node.feature]!, threshold: node.threshold, left: withColumns(node.left, columns), right: withColumns(node.right, columns) };
}

function main(): void {
  const all = loadGenreTexts(genreTextCounts(flags['per-genre']), random);
  const { train, test, held: heldGenre } = splitGenres(all, holdOut, random);
  const started = process.cpuUsage();
  const cpu = () => `${((process.cpuUsage(started).user) / 1e6).toFixed(1)} CPU s`;
  const trainSamples = samplesFor(train, random);
  const testSamples = samplesFor(test, random);
  const heldSamples = samplesFor(heldGenre, random);
  if (flags.dump !== undefined) writeFileSync(flags.dump, JSON.stringify({ features: GENERATED_FEATURE_NAMES, train: trainSamples, test: testSamples, held: heldSamples }));
  process.stderr.write(`samples: ${trainSamples.length} train, ${testSamples.length} in-genre test, ${heldSamples.length} held-out genre (${cpu()})\n`);

  const weights = sampleWeights(trainSamples, NATURAL_WEIGHT, BALANCE);
  // Bagging: each tree on a bootstrap draw; a text's score is the mean of its leaves' generated shares.
  // Random subspaces: each tree sees a random share of the features, so that no one feature (whose
  // tail real pages can reach) decides every tree's first split; the forest's mean weighs the others.
  const subspace = Number(flags.subspace);
  const trees = Array.from({ length: TREES }, () => {
    const draw = weightedDraw(trainSamples, weights, DRAW, random);
    const columns = featureSubset(GENERATED_FEATURE_NAMES.length, subspace, random);
    const classifier = new DecisionTreeClassifier({ gainFunction: 'gini', maxDepth: Number(flags['max-depth']), minNumSamples: MIN_LEAF });
    classifier.train(draw.map((s) => columns.map((c) => s.values[c]!)), draw.map((s) => s.label));
    return withColumns(treeFromMlCart((classifier.toJSON() as { root: Parameters<typeof treeFromMlCart>[0] }).root), columns);
  });
  process.stderr.write(`trees trained (${cpu()})\n`);
  const ranges = featureRanges(trainSamples.map((s) => s.values), RANGE_QUANTILE);

  const report = (name: string, samples: readonly Sample[]) => [0.6, 0.7, 0.8, 0.9].map((minScore) => ({
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
    trainedBy: `scripts/train-generated.ts --seed ${seed} --per-genre ${flags['per-genre'] === '' ? '(default)' : flags['per-genre']} --hold-out ${holdOut} --max-depth ${flags['max-depth']} --natural-weight ${NATURAL_WEIGHT} --balance ${BALANCE} --draw ${DRAW} --subspace ${subspace} --natural-pieces ${flags['natural-pieces']} (${TREES} bagged CART trees)`,
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
