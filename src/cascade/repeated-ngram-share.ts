/**
 * How much a text repeats its word n-grams: the share of n-gram occurrences whose n-gram occurs more
 * than once. The `generated` stage's repeated-bigram and repeated-trigram features (a small model
 * loops over word pairs and triples; a person seldom does). Their values are columns of the trained
 * trees (generated-tree.json), so the count must stay exact: n-grams are told apart by their word ids,
 * never by a hash alone.
 */

/** The word multipliers of the slot hash, one per position in the n-gram. */
const WORD_MIX = Int32Array.of(0x9e3779b1 | 0, 0x85ebca6b | 0, 0xc2b2ae35 | 0);

/** Longest n-gram counted (one multiplier per word). */
export const MAX_NGRAM = WORD_MIX.length;

/**
 * Share of the n-gram occurrences of ids[0..count) (word ids) whose n-gram occurs more than once;
 * 0 when there is no n-gram. `n`: 1 to MAX_NGRAM.
 */
export function repeatedNgramShare(ids: Int32Array, count: number, n: number): number {
  const ngrams = count - n + 1;
  if (ngrams < 1) return 0;
  // Open addressing over n-gram positions: slot → first position + 1 (0: empty), at most half full.
  const size = 1 << (32 - Math.clz32(2 * ngrams));
  const mask = size - 1;
  const table = new Int32Array(2 * size);
  const slots = table.subarray(0, size);
  const counts = table.subarray(size);
  for (let i = 0; i < ngrams; i++) {
    let mix = 0;
    for (let w = 0; w < n; w++) mix ^= Math.imul(ids[i + w]!, WORD_MIX[w]!);
    let slot = (Math.imul(mix, 0x27d4eb2f) >>> 15) & mask;
    for (;;) {
      const at = slots[slot]! - 1;
      if (at < 0) {
        slots[slot] = i + 1;
        counts[slot] = 1;
        break;
      }
      let same = 0;
      while (same < n && ids[at + same] === ids[i + same]) same++;
      if (same === n) {
        counts[slot]!++;
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
  let repeated = 0;
  for (let k = 0; k < size; k++) if (counts[k]! > 1) repeated += counts[k]!;
  return repeated / ngrams;
}
