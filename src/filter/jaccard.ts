/**
 * Jaccard coefficient of two word sets, each a sorted Int32Array of distinct word ids, and the
 * same with synonyms: a word of one set and a word of the other that share a synonym class count
 * as one word.
 */

/** |A ∩ B| of two ascending id arrays. */
export function intersectionSize(a: Int32Array, b: Int32Array): number {
  let i = 0;
  let j = 0;
  let common = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      common++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return common;
}

/** |A ∩ B| / |A ∪ B|; 0 when both are empty (two empty annotations are not evidence of a copy). */
export function jaccard(a: Int32Array, b: Int32Array): number {
  const common = intersectionSize(a, b);
  const union = a.length + b.length - common;
  return union === 0 ? 0 : common / union;
}

/** Synonym class ids of a word id (ascending), or an empty list. */
export type ClassesOfWord = (wordId: number) => readonly number[];

function shareClass(x: readonly number[], y: readonly number[]): boolean {
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    if (x[i] === y[j]) return true;
    if (x[i]! < y[j]!) i++;
    else j++;
  }
  return false;
}

/**
 * Jaccard with synonyms. Words of A not in B are paired, greedily in id order, with words of B not
 * in A that share a synonym class (each word paired once: a word is one element of the union, so
 * "big" cannot stand for both "large" and "great"); a pair then counts as one common word:
 * (|A ∩ B| + pairs) / (|A ∪ B| − pairs). Also returns the number of pairs.
 */
export function synonymJaccard(a: Int32Array, b: Int32Array, classesOf: ClassesOfWord): { similarity: number; pairs: number } {
  const common = intersectionSize(a, b);
  const onlyB: number[] = [];
  for (let i = 0, j = 0; j < b.length; j++) {
    while (i < a.length && a[i]! < b[j]!) i++;
    if (i >= a.length || a[i] !== b[j]) if (classesOf(b[j]!).length > 0) onlyB.push(b[j]!);
  }
  let pairs = 0;
  if (onlyB.length > 0) {
    const used = new Uint8Array(onlyB.length);
    for (let i = 0, j = 0; i < a.length; i++) {
      while (j < b.length && b[j]! < a[i]!) j++;
      if (j < b.length && b[j] === a[i]) continue;
      const mine = classesOf(a[i]!);
      if (mine.length === 0) continue;
      for (let k = 0; k < onlyB.length; k++) {
        if (used[k] === 0 && shareClass(mine, classesOf(onlyB[k]!))) {
          used[k] = 1;
          pairs++;
          break;
        }
      }
    }
  }
  const union = a.length + b.length - common - pairs;
  return { similarity: union === 0 ? 0 : (common + pairs) / union, pairs };
}
