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
import { forEachFeature } from '../text/shingles.js';

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
  const lengths = paragraphs.map((p) => p.length);
  let total = 0;
  forEachFeature(lengths, shingleSize, () => { total++; });
  const starts = new Uint32Array(total);
  const counts = new Uint8Array(total);
  let f = 0;
  forEachFeature(lengths, shingleSize, (start, count) => {
    starts[f] = start;
    counts[f] = count;
    f++;
  });
  const hi = new Uint32Array(total);
  const lo = new Uint32Array(total);
  if (total === 0) return { hi, lo };
  if (hash === 'murmur') {
    const m = words.length;
    const wordA = new Uint32Array(m);
    const wordB = new Uint32Array(m);
    for (let i = 0; i < m; i++) murmurWordInto(words[i]!, 0, words[i]!.length, wordA, wordB, i);
    for (let k = 0; k < total; k++) murmurFeatureInto(wordA, wordB, starts[k]!, counts[k]!, hi, lo, k);
    return { hi, lo };
  }
  const { taHi, taLo, tbHi, tbLo } = RABIN_TABLES;
  for (let k = 0; k < total; k++) {
    let h = 0;
    let l = 0;
    const first = starts[k]!;
    const end = first + counts[k]!;
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
    hi[k] = h;
    lo[k] = l;
  }
  return { hi, lo };
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
