/**
 * Trains the cascade's `generated` decision tree and writes it to src/cascade/generated-tree.json.
 *
 *   npm run train:generated -- [--dataset <dir>] [--seed 1] [--out src/cascade/generated-tree.json]
 *
 * Natural texts: the dev pages' hand-made texts (article-benchmark-dev, MIT), whole and in halves,
 * of the languages with at least 3 texts. Generated texts, each standing in for one natural text
 * (same length, same paragraph shape) and made from OTHER texts of its language: word Markov
 * chains of order 1 and 2, sentences shuffled together from several texts, word salad. The texts
 * are split 70/30 per language; the tree (ml-cart CART, Gini) learns on the 70% part (its
 * generators see only that part) and the held-out 30% gives precision and recall by generator.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DecisionTreeClassifier } from 'ml-cart';
import { forestScore, treeFromMlCart, type TreeNode } from '../src/cascade/decision-tree.js';
import { GENERATED_FEATURE_NAMES, generatedFeatures } from '../src/cascade/generated-features.js';
import { GENERATOR_NAMES, generateText } from '../src/cascade/text-generators.js';
import { defaultDatasetPath, loadDevTexts, splitByLanguage, wordCount, type DevText } from './cascade-dataset.js';
import { seededRandom } from '../test/helpers/seeded-random.js';

const here = new URL('.', import.meta.url).pathname;
const { values: flags } = parseArgs({
  options: {
    dataset: { type: 'string', default: defaultDatasetPath() },
    seed: { type: 'string', default: '1' },
    out: { type: 'string', default: resolve(here, '../src/cascade/generated-tree.json') },
    'max-depth': { type: 'string', default: '8' },
  },
});
const seed = Number(flags.seed);
const random = seededRandom(seed);
/** Texts shorter than this are neither trained on nor judged (config cascade.generated.minWords). */
const MIN_WORDS = 120;
const MIN_TEXTS_PER_LANGUAGE = 3;
const NATURAL_WEIGHT = 5;
/** Bagged trees. */
const TREES = 25;
const MIN_LEAF = 4;
/** Generated samples per generator and natural text. */
const GENERATED_PER_TEXT = 5;

interface Sample {
  readonly values: number[];
  readonly label: 0 | 1;
  readonly source: 'natural' | (typeof GENERATOR_NAMES)[number];
}

const paragraphsOf = (text: string) => text.split(/\n\s*\n|\n/).map((p) => p.trim()).filter((p) => p !== '');

/** The text, and its halves and thirds (by paragraphs) that are long enough. */
function naturalPieces(text: string): string[] {
  const pieces = [text];
  const paras = paragraphsOf(text);
  for (const parts of [2, 3]) {
    const size = Math.ceil(paras.length / parts);
    if (size === 0 || size >= paras.length) continue;
    for (let i = 0; i < paras.length; i += size) pieces.push(paras.slice(i, i + size).join('\n\n'));
  }
  return pieces.filter((p) => wordCount(p) >= MIN_WORDS);
}

/** Natural and generated samples standing in for `texts`, generators trained on `pool` minus each text. */
export function samplesFor(texts: readonly DevText[], pool: readonly DevText[]): Sample[] {
  const samples: Sample[] = [];
  for (const doc of texts) {
    const pieces = naturalPieces(doc.text);
    for (const piece of pieces) samples.push({ values: generatedFeatures(piece, doc.language).values, label: 0, source: 'natural' });
    if (pieces.length === 0) continue;
    const others = pool.filter((t) => t.language === doc.language && t.id !== doc.id).map((t) => t.text);
    const perParagraph = Math.max(1, Math.round(pieces[0]!.split(/(?<=[.!?])\s+/).length / Math.max(1, paragraphsOf(pieces[0]!).length)));
    for (const name of GENERATOR_NAMES) for (let k = 0; k < GENERATED_PER_TEXT; k++) {
      const piece = pieces[Math.floor(random() * pieces.length)]!;
      const text = generateText(name, others, wordCount(piece), random, perParagraph);
      samples.push({ values: generatedFeatures(text, doc.language).values, label: 1, source: name });
    }
  }
  return samples;
}

export interface GeneratorFigures {
  readonly source: string;
  readonly count: number;
  /** Share of this source's samples flagged as generated. */
  readonly flagged: number;
}

function heldOutFigures(trees: readonly TreeNode[], samples: readonly Sample[], minScore: number) {
  const flagged = samples.map((s) => forestScore(trees, s.values) >= minScore);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  samples.forEach((s, i) => {
    if (flagged[i] && s.label === 1) tp++;
    else if (flagged[i]) fp++;
    else if (s.label === 1) fn++;
  });
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
  const bySource: GeneratorFigures[] = ['natural', ...GENERATOR_NAMES].map((source) => {
    const idx = samples.flatMap((s, i) => (s.source === source ? [i] : []));
    return { source, count: idx.length, flagged: idx.filter((i) => flagged[i]).length / Math.max(1, idx.length) };
  });
  return { minScore, precision, recall, f1: (2 * precision * recall) / (precision + recall), bySource };
}

function main(): void {
  const all = loadDevTexts(flags.dataset, 'train-generated');
  const counts = new Map<string, number>();
  for (const t of all) counts.set(t.language, (counts.get(t.language) ?? 0) + 1);
  const languages = [...counts].filter(([, n]) => n >= MIN_TEXTS_PER_LANGUAGE).map(([l]) => l).sort();
  const texts = all.filter((t) => languages.includes(t.language));
  const { train, test } = splitByLanguage(texts, 0.7, random);
  const trainSamples = samplesFor(train, train);
  const testSamples = samplesFor(test, texts);

  // Natural samples count NATURAL_WEIGHT times: a false flag on a person's page costs more than a
  // missed generated one (target: at most 1% of natural texts flagged).
  const weighted = trainSamples.flatMap((s) => (s.label === 0 ? Array.from({ length: NATURAL_WEIGHT }, () => s) : [s]));
  // Bagging: TREES trees, each on a bootstrap draw of the samples; a text's score is the mean of
  // its leaves' generated shares (one tree's leaves are near pure, so its score is 0 or 1 and a
  // lone odd text flips it; the mean is steadier).
  const trees = Array.from({ length: TREES }, () => {
    const draw = Array.from({ length: weighted.length }, () => weighted[Math.floor(random() * weighted.length)]!);
    const classifier = new DecisionTreeClassifier({ gainFunction: 'gini', maxDepth: Number(flags['max-depth']), minNumSamples: MIN_LEAF });
    classifier.train(draw.map((s) => s.values), draw.map((s) => s.label));
    return treeFromMlCart((classifier.toJSON() as { root: Parameters<typeof treeFromMlCart>[0] }).root);
  });
  const heldOut = [0.5, 0.6, 0.7, 0.8].map((minScore) => heldOutFigures(trees, testSamples, minScore));

  const model = {
    version: 1,
    features: GENERATED_FEATURE_NAMES,
    languages,
    minWords: MIN_WORDS,
    trainedBy: `scripts/train-generated.ts --seed ${seed} --max-depth ${flags['max-depth']} (${TREES} bagged CART trees)`,
    data: `article-benchmark-dev (MIT): ${train.length} texts to train, ${test.length} held out; ${trainSamples.length} training samples`,
    heldOut,
    trees,
  };
  writeFileSync(flags.out, `${JSON.stringify(model)}\n`);
  console.log(`languages: ${languages.join(', ')}; train texts ${train.length} (${trainSamples.length} samples), held out ${test.length} (${testSamples.length} samples)`);
  for (const h of heldOut) {
    console.log(`held out, minScore ${h.minScore}: precision ${h.precision.toFixed(3)} recall ${h.recall.toFixed(3)} F1 ${h.f1.toFixed(3)}`);
    for (const g of h.bySource) console.log(`  ${g.source.padEnd(8)} n=${String(g.count).padStart(3)} flagged ${(100 * g.flagged).toFixed(1)}%`);
  }
  console.log(`wrote ${flags.out}`);
}

main();
