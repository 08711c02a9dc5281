/**
 * Words in, simhash out: shingles of `shingleSize` words are hashed without building their strings,
 * then folded into the simhash. The value equals `simhashFeatures(shingles(words, n), hash, weighting)`
 * (the tests check this); this is the fast way to get it.
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

/** Hashes of the features of `words` (see `shingles`), as uint32 halves. */
export function hashFeatures(words: readonly string[], shingleSize: number, hash: HashName): { hi: Uint32Array; lo: Uint32Array } {
  assertHashName(hash);
  if (!Number.isInteger(shingleSize) || shingleSize < 1) throw new RangeError(`Expected \`shingleSize\` to be a positive integer, got ${String(shingleSize)}`);
  const m = words.length;
  const size = m < shingleSize ? 1 : shingleSize;
  const count = m === 0 ? 0 : m - size + 1;
  const hi = new Uint32Array(count);
  const lo = new Uint32Array(count);
  if (count === 0) return { hi, lo };
  if (hash === 'murmur') {
    const wordA = new Uint32Array(m);
    const wordB = new Uint32Array(m);
    for (let i = 0; i < m; i++) murmurWordInto(words[i]!, 0, words[i]!.length, wordA, wordB, i);
    for (let k = 0; k < count; k++) murmurFeatureInto(wordA, wordB, k, size, hi, lo, k);
    return { hi, lo };
  }
  const { taHi, taLo, tbHi, tbLo } = RABIN_TABLES;
  for (let k = 0; k < count; k++) {
    let h = 0;
    let l = 0;
    for (let j = k; j < k + size; j++) {
      const word = words[j]!;
      // A space before every word but the first; index -1 stands for it.
      for (let i = j === k ? 0 : -1; i < word.length; i++) {
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
    hi[k] = h;
    lo[k] = l;
  }
  return { hi, lo };
}

/** Simhash of the shingles of `words`. */
export function fingerprintWords(words: readonly string[], options: FeatureOptions): WordsFingerprint {
  const { hi, lo } = hashFeatures(words, options.shingleSize, options.hash);
  return { fingerprint: simhashFromHashes(hi, lo, hi.length, options.weighting), featureCount: hi.length };
}
