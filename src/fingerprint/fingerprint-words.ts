/**
 * Words in, simhash out: shingles of `shingleSize` words (within paragraphs, see shingles.ts) are
 * hashed without building their strings, then folded into the simhash. The value equals
 * `simhashFeatures(paragraphShingles(paragraphs, n), hash, weighting)` (the tests check this); this
 * is the fast way to get it.
 *
 * - `murmur`: each word is hashed once; a shingle's hash combines its n word hashes (murmur-hash.ts).
 * - `rabin`: each shingle is fed code unit by code unit from its words (a space between words)
 *   through the table-driven reduction; no string is allocated.
 */
import type { FeatureWeighting, Fingerprint, HashName } from '../types.js';
import { murmurFeatureInto, murmurWordInto } from './murmur-hash.js';
import { RABIN_TABLES } from './rabin-hash.js';
import { simhashFromHashes } from './simhash.js';
import { assertHashName } from './hash64.js';

export interface FeatureOptions {
  /** Words per shingle. @default 3 */
  readonly shingleSize: number;
  /** Feature hash. */
  readonly hash: HashName;
  /** Simhash weighting of a feature. @default 'unit' */
  readonly weighting: FeatureWeighting;
}

export interface WordsFingerprint {
  /** Null when there are no words. */
  readonly fingerprint: Fingerprint | null;
  /** Features hashed: shingles, repeats included (the words themselves when fewer than shingleSize). */
  readonly featureCount: number;
}

/** Hashes of the features of a text given as paragraphs of words (see `paragraphShingles`), as uint32 halves. */
export function hashFeatures(
  paragraphs: readonly (readonly string[])[], shingleSize: number, hash: HashName,
): { hi: Uint32Array; lo: Uint32Array } {
  assertHashName(hash);
  const words = paragraphs.length === 1 ? paragraphs[0]! : paragraphs.flat();
  const lengths = Int32Array.from(paragraphs, (p) => p.length);
  const { features } = featureTotal(lengths, lengths.length, shingleSize);
  const hi = new Uint32Array(features);
  const lo = new Uint32Array(features);
  if (hash === 'rabin') {
    rabinFeatureHashes(lengths, lengths.length, shingleSize, words, hi, lo);
    return { hi, lo };
  }
  const m = words.length;
  const wordA = new Uint32Array(m);
  const wordB = new Uint32Array(m);
  for (let i = 0; i < m; i++) murmurWordInto(words[i]!, 0, words[i]!.length, wordA, wordB, i);
  murmurFeatureHashes(lengths, lengths.length, shingleSize, wordA, wordB, hi, lo);
  return { hi, lo };
}

/**
 * Number of features of paragraphs of lengths[0..paragraphCount) words (see forEachFeature in
 * shingles.ts, which these loops follow): shingles within paragraphs, a short paragraph one
 * feature, all words one feature each when the text has fewer than `size` words.
 */
function featureTotal(lengths: Int32Array, paragraphCount: number, size: number): { words: number; features: number } {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`Expected \`shingleSize\` to be a positive integer, got ${String(size)}`);
  let words = 0;
  let features = 0;
  for (let p = 0; p < paragraphCount; p++) {
    const length = lengths[p]!;
    words += length;
    features += length >= size ? length - size + 1 : length > 0 ? 1 : 0;
  }
  return { words, features: words < size ? words : features };
}

/**
 * `murmur` hashes of the features of paragraphs of lengths[0..paragraphCount) words, given each
 * word's hash pair by position (wordA[i], wordB[i], as murmurWordInto gives them), written to
 * hi/lo[0..n) (room for one per word is enough); returns n, the number of features.
 */
export function murmurFeatureHashes(
  lengths: Int32Array, paragraphCount: number, size: number, wordA: Uint32Array, wordB: Uint32Array,
  hi: Uint32Array, lo: Uint32Array,
): number {
  const { words, features } = featureTotal(lengths, paragraphCount, size);
  if (words < size) {
    for (let i = 0; i < words; i++) murmurFeatureInto(wordA, wordB, i, 1, hi, lo, i);
    return features;
  }
  let f = 0;
  let offset = 0;
  for (let p = 0; p < paragraphCount; p++) {
    const length = lengths[p]!;
    if (length >= size) {
      for (let k = 0; k + size <= length; k++) murmurFeatureInto(wordA, wordB, offset + k, size, hi, lo, f++);
    } else if (length > 0) {
      murmurFeatureInto(wordA, wordB, offset, length, hi, lo, f++);
    }
    offset += length;
  }
  return features;
}

/**
 * `rabin` hashes of the features of paragraphs of lengths[0..paragraphCount) words, given the
 * words in order, written to hi/lo[0..n); returns n, the number of features.
 */
export function rabinFeatureHashes(
  lengths: Int32Array, paragraphCount: number, size: number, words: readonly string[], hi: Uint32Array, lo: Uint32Array,
): number {
  const total = featureTotal(lengths, paragraphCount, size);
  if (total.words < size) {
    for (let i = 0; i < total.words; i++) rabinFeatureInto(words, i, 1, hi, lo, i);
    return total.features;
  }
  let f = 0;
  let offset = 0;
  for (let p = 0; p < paragraphCount; p++) {
    const length = lengths[p]!;
    if (length >= size) {
      for (let k = 0; k + size <= length; k++) rabinFeatureInto(words, offset + k, size, hi, lo, f++);
    } else if (length > 0) {
      rabinFeatureInto(words, offset, length, hi, lo, f++);
    }
    offset += length;
  }
  return total.features;
}

/** Rabin fingerprint of words first..first+count-1 joined by single spaces, fed unit by unit (no string built). */
function rabinFeatureInto(words: readonly string[], first: number, count: number, outHi: Uint32Array, outLo: Uint32Array, k: number): void {
  const { taHi, taLo, tbHi, tbLo } = RABIN_TABLES;
  let h = 0;
  let l = 0;
  const end = first + count;
  for (let j = first; j < end; j++) {
    const word = words[j]!;
    // A space before every word but the first; index -1 stands for it.
    for (let i = j === first ? 0 : -1; i < word.length; i++) {
      const unit = i < 0 ? 0x20 : word.charCodeAt(i);
      const top = h >>> 16;
      h = ((h << 16) | (l >>> 16)) >>> 0;
      l = ((l << 16) | unit) >>> 0;
      const a = top >>> 8;
      const b = top & 0xff;
      h = (h ^ taHi[a]! ^ tbHi[b]!) >>> 0;
      l = (l ^ taLo[a]! ^ tbLo[b]!) >>> 0;
    }
  }
  outHi[k] = h;
  outLo[k] = l;
}

/** Simhash of the features of a text given as paragraphs of words. */
export function fingerprintParagraphs(paragraphs: readonly (readonly string[])[], options: FeatureOptions): WordsFingerprint {
  const { hi, lo } = hashFeatures(paragraphs, options.shingleSize, options.hash);
  return { fingerprint: simhashFromHashes(hi, lo, hi.length, options.weighting), featureCount: hi.length };
}

/** Simhash of the shingles of one paragraph of words. */
export function fingerprintWords(words: readonly string[], options: FeatureOptions): WordsFingerprint {
  return fingerprintParagraphs([words], options);
}
