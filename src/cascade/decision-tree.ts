/**
 * A trained binary decision tree as plain data (the committed generated-tree.json), and its
 * evaluation. The tree is trained with ml-cart (CART, Gini) by scripts/train-generated.ts and
 * converted here to a compact form; evaluation follows ml-cart's rule (left when the value is
 * below the split value), which the tests check against ml-cart's own predictions.
 */
import { CascadeModelError } from '../errors.js';

export type TreeNode =
  | { readonly feature: number; readonly threshold: number; readonly left: TreeNode; readonly right: TreeNode }
  | { readonly positive: number; readonly samples: number };

/** The result of one evaluation: the leaf's share of the positive class and the tests taken. */
export interface TreeVerdict {
  readonly score: number;
  readonly path: readonly string[];
}

interface MlCartNode {
  splitColumn?: number;
  splitValue?: number;
  left?: MlCartNode;
  right?: MlCartNode;
  distribution?: number[][] | { data?: number[][] };
  numberSamples?: number;
}

/** Converts ml-cart's JSON tree (`classifier.toJSON().root`) for classes 0/1 into a TreeNode. */
export function treeFromMlCart(node: MlCartNode): TreeNode {
  if (node.left !== undefined && node.right !== undefined && node.splitColumn !== undefined && node.splitValue !== undefined) {
    return { feature: node.splitColumn, threshold: node.splitValue, left: treeFromMlCart(node.left), right: treeFromMlCart(node.right) };
  }
  const dist = Array.isArray(node.distribution) ? node.distribution : node.distribution?.data;
  const row = dist?.[0];
  if (row === undefined) throw new CascadeModelError('Expected an ml-cart leaf with a distribution, got none');
  return { positive: row[1] ?? 0, samples: node.numberSamples ?? 0 };
}

/** Evaluates the tree on a feature vector; `names` label the path's tests. */
export function evaluateTree(tree: TreeNode, values: readonly number[], names: readonly string[]): TreeVerdict {
  const path: string[] = [];
  let node = tree;
  while ('feature' in node) {
    const value = values[node.feature]!;
    const name = names[node.feature] ?? `f${node.feature}`;
    const threshold = Number(node.threshold.toPrecision(4));
    if (value < node.threshold) {
      path.push(`${name} < ${threshold}`);
      node = node.left;
    } else {
      path.push(`${name} >= ${threshold}`);
      node = node.right;
    }
  }
  return { score: node.positive, path };
}

/** Checks that parsed JSON is a TreeNode over `featureCount` features. */
export function assertTree(value: unknown, featureCount: number, where = 'tree'): asserts value is TreeNode {
  const node = value as Record<string, unknown> | null;
  if (typeof node !== 'object' || node === null) throw new CascadeModelError(`Expected a tree node at ${where}, got ${String(value)}`);
  if ('feature' in node) {
    if (!Number.isInteger(node.feature) || (node.feature as number) < 0 || (node.feature as number) >= featureCount) {
      throw new CascadeModelError(`Expected a feature index 0–${featureCount - 1} at ${where}, got ${String(node.feature)}`);
    }
    if (typeof node.threshold !== 'number') throw new CascadeModelError(`Expected a numeric threshold at ${where}`);
    assertTree(node.left, featureCount, `${where}.left`);
    assertTree(node.right, featureCount, `${where}.right`);
  } else if (typeof node.positive !== 'number') {
    throw new CascadeModelError(`Expected a leaf with a numeric \`positive\` share at ${where}`);
  }
}

/** The leaf's positive share for a feature vector (evaluateTree's score, without its path). */
function treeScore(tree: TreeNode, values: readonly number[]): number {
  let node = tree;
  while ('feature' in node) node = values[node.feature]! < node.threshold ? node.left : node.right;
  return node.positive;
}

/** Bagged trees' score: the mean of their leaves' positive shares (0 without trees). */
export function forestScore(trees: readonly TreeNode[], values: readonly number[]): number {
  let sum = 0;
  for (const tree of trees) sum += treeScore(tree, values);
  return trees.length === 0 ? 0 : sum / trees.length;
}

/**
 * Evaluates bagged trees: the score is the mean of their leaves' positive shares; `votes` how many
 * trees voted generated (leaf share ≥ 0.5); the path is the first tree's that voted generated, else
 * the first tree's. Only that tree's path is written out.
 */
export function evaluateForest(trees: readonly TreeNode[], values: readonly number[], names: readonly string[]): TreeVerdict & { readonly votes: number } {
  if (trees.length === 0) return { score: 0, path: [], votes: 0 };
  let sum = 0;
  let voted = -1;
  let votes = 0;
  trees.forEach((tree, i) => {
    const score = treeScore(tree, values);
    sum += score;
    if (score >= 0.5) votes++;
    if (voted < 0 && score >= 0.5) voted = i;
  });
  return { score: sum / trees.length, path: evaluateTree(trees[voted < 0 ? 0 : voted]!, values, names).path, votes };
}
