/**
 * The `generated` stage: the committed decision trees (generated-tree.json, made by
 * scripts/train-generated.ts: 40 CART trees bagged, a text's score the mean of its leaves' shares of
 * generated training texts) over the text's features (generated-features.ts). Only texts in a
 * language the trees were trained on, and with at least `minWords` words, are judged; and only texts
 * like those trained on: a text with MAX_OUTSIDE or more features outside the training samples'
 * ranges (the model's `ranges`) is a kind the trees never saw, and is left unflagged rather than
 * guessed.
 */
import { CascadeModelError } from '../errors.js';
import type { GeneratedFlag } from '../types.js';
import type { CascadeOptions } from './cascade-options.js';
import { assertTree, evaluateForest, forestScore, type TreeNode } from './decision-tree.js';
import { wordClassLookupFor } from './function-words.js';
import { GENERATED_FEATURE_NAMES, generatedFeatures } from './generated-features.js';
import type { WordLookup } from './sentences.js';
import { MAX_OUTSIDE, outsideRange, type FeatureRanges } from './generated-feature-ranges.js';
import treeJson from './generated-tree.json' with { type: 'json' };
import { evidenceFigure } from './evidence-figure.js';

// The ranges live in their own file; re-exported here, where callers have always found them.
export { MAX_OUTSIDE, featureRanges, outsideRange, type FeatureRanges } from './generated-feature-ranges.js';

export interface GeneratedModel {
  /** The training samples' feature ranges, or null (every text is judged). */
  readonly ranges: FeatureRanges | null;
  readonly features: readonly string[];
  /** ISO 639-3 codes of the languages the tree was trained on. */
  readonly languages: readonly string[];
  readonly trees: readonly TreeNode[];
  /** Each language's word classes for the features (wordClassLookupFor), built with the model. */
  readonly wordClasses: ReadonlyMap<string, WordLookup>;
}

/** Checks a parsed model file against this build's features. */
export function parseGeneratedModel(json: unknown): GeneratedModel {
  const model = json as { features?: unknown; languages?: unknown; trees?: unknown; ranges?: unknown };
  const features = model.features;
  if (!Array.isArray(features) || features.join() !== GENERATED_FEATURE_NAMES.join()) {
    throw new CascadeModelError(
      `Expected the generated-text tree to use the features ${GENERATED_FEATURE_NAMES.join(', ')}, got ${String(features)} (run npm run train:generated)`,
    );
  }
  if (!Array.isArray(model.languages) || !model.languages.every((l) => typeof l === 'string')) {
    throw new CascadeModelError('Expected the generated-text tree to list its languages');
  }
  const trees = model.trees;
  if (!Array.isArray(trees) || trees.length === 0) throw new CascadeModelError('Expected the generated-text model to hold at least one tree');
  trees.forEach((tree, i) => assertTree(tree, features.length, `trees[${i}]`));
  const languages = model.languages as string[];
  const wordClasses = new Map(languages.map((l) => [l, wordClassLookupFor(l)]));
  const ranges = model.ranges as FeatureRanges | undefined;
  if (ranges !== undefined && (!Array.isArray(ranges.low) || !Array.isArray(ranges.high) || ranges.low.length !== features.length || ranges.high.length !== features.length)) {
    throw new CascadeModelError(`Expected the generated-text model's ranges to hold ${features.length} low and high values`);
  }
  return { features: GENERATED_FEATURE_NAMES, languages, trees: trees as TreeNode[], wordClasses, ranges: ranges ?? null };
}

/** The committed model, checked once at load; immutable afterwards. */
export const GENERATED_MODEL: GeneratedModel = parseGeneratedModel(treeJson);

/**
 * The `generated` flag of a raw text in `language` (ISO 639-3), or null. `normalized`:
 * normalizeText(text), when the caller has it (the analysis made it), so that it is not made again.
 */
export function generatedFlag(
  text: string,
  language: string,
  options: CascadeOptions['generated'],
  model: GeneratedModel = GENERATED_MODEL,
  normalized?: string,
): GeneratedFlag | null {
  if (!model.languages.includes(language)) return null;
  const { values, words } = generatedFeatures(text, language, { normalized, wordClasses: model.wordClasses.get(language) });
  if (words < options.minWords) return null;
  // The score first: most pages are not flagged, and only a flagged one needs the path written out.
  const score = forestScore(model.trees, values);
  if (score < options.minScore || score === 0) return null;
  if (outsideRange(model.ranges, values) >= MAX_OUTSIDE) return null;
  const { path, votes } = evaluateForest(model.trees, values, model.features);
  const features: Record<string, number> = {};
  model.features.forEach((name, i) => {
    features[name] = evidenceFigure(values[i]!);
  });
  return { kind: 'generated', score: evidenceFigure(score), confidence: evidenceFigure(votes / model.trees.length), path, features };
}
