/**
 * Candidate pairs of a result list by shared rare words (prefix filtering, Chaudhuri et al. 2006;
 * Bayardo et al. 2007 "All-Pairs"): the pairs whose Jaccard may reach a minimum `c`, without
 * comparing every result with every kept one.
 *
 * Words are put in one order for the list, rarest first. If J(x, y) ≥ c then |x ∩ y| ≥ c·|x| and
 * ≥ c·|y|, so x and y share a word among the first |x| − ⌈c·|x|⌉ + 1 words of x and among the
 * first |y| − ⌈c·|y|⌉ + 1 of y (their prefixes): an index of each kept result's prefix, probed with
 * the prefix of the next result, finds every pair that can reach c, and no pair that cannot share
 * a word. The candidates are then compared exactly, so the outcome is the one of comparing all
 * pairs. Rare words first keeps the postings short: the query's own words, in nearly every result,
 * come last and mostly fall outside the prefixes.
 */

/** Slack for the floating-point product c·n (a Jaccard computed as a ratio may equal c by rounding). */
const EPSILON = 1e-9;

/**
 * Each word id's place in the list's order: rarer (in fewer of `sets`) first, ties by id.
 * `words` is the number of distinct word ids (ids are 0..words−1).
 */
export function rarityRanks(sets: readonly Int32Array[], words: number): Int32Array {
  const counts = new Int32Array(words);
  for (const set of sets) for (let k = 0; k < set.length; k++) counts[set[k]!]!++;
  const order = Int32Array.from({ length: words }, (_, id) => id).sort((x, y) => counts[x]! - counts[y]! || x - y);
  const ranks = new Int32Array(words);
  for (let r = 0; r < words; r++) ranks[order[r]!] = r;
  return ranks;
}

/** How many of a set's rarest words must be indexed and probed for Jaccard ≥ `minSimilarity` (0 < c ≤ 1). */
export function prefixLength(size: number, minSimilarity: number): number {
  if (size === 0) return 0;
  const overlap = Math.max(1, Math.ceil(minSimilarity * size - EPSILON));
  return Math.min(size, size - overlap + 1);
}

/** The ranks of a set's rarest words, as many as prefixLength asks, ascending. */
export function prefixOf(set: Int32Array, ranks: Int32Array, minSimilarity: number): Int32Array {
  const all = new Int32Array(set.length);
  for (let k = 0; k < set.length; k++) all[k] = ranks[set[k]!]!;
  return all.sort().subarray(0, prefixLength(set.length, minSimilarity));
}

/**
 * An index of the prefixes of added items (item numbers given in ascending order); `candidates`
 * gives the added items sharing a word with a prefix, ascending, each once.
 */
export class PrefixIndex {
  /** Per word rank, the items whose prefix holds it (ascending, as items are added in order). */
  readonly #postings: (number[] | undefined)[];
  /** Per item, the last probe that met it (so that an item is listed once per probe). */
  readonly #seen: Int32Array;
  #probe = 0;

  /** `words`: distinct word ranks; `items`: the largest item number + 1. */
  constructor(words: number, items: number) {
    this.#postings = new Array<number[] | undefined>(words);
    this.#seen = new Int32Array(items);
  }

  add(item: number, prefix: Int32Array): void {
    for (let k = 0; k < prefix.length; k++) (this.#postings[prefix[k]!] ??= []).push(item);
  }

  candidates(prefix: Int32Array): Int32Array {
    const probe = ++this.#probe;
    const found: number[] = [];
    for (let k = 0; k < prefix.length; k++) {
      const posting = this.#postings[prefix[k]!];
      if (posting === undefined) continue;
      for (const item of posting) {
        if (this.#seen[item] === probe) continue;
        this.#seen[item] = probe;
        found.push(item);
      }
    }
    return Int32Array.from(found).sort();
  }
}
