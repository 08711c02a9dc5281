/**
 * The fingerprint pipeline's fast path after normalisation: tokens → language → stop words and
 * stems → shingles → feature hashes → simhash, plus the text hash, with each distinct token sliced,
 * looked up, stemmed and hashed once per document (token-table.ts) and no string or array made per
 * token occurrence or per shingle.
 *
 * The results equal those of the reference stages composed one by one — tokenizeParagraphs,
 * detectLanguage, removeStopWordsAndStemParagraphs, paragraphShingles, hash64, simhashFeatures,
 * textHash — bit for bit (test/fingerprint/golden-analyses.test.ts pins them on the dev pages).
 */
import { detectLanguage } from '../text/detect-language.js';
import { stopWordSpansFor } from '../text/language-resources.js';
import { stemmerFor } from '../text/remove-stop-words-and-stem.js';
import type { StemCache } from '../text/stem-cache.js';
import { tokenTable } from '../text/token-table.js';
import type { FingerprintParams, TextAnalysis } from '../types.js';
import { murmurFeatureHashes, rabinFeatureHashes } from './fingerprint-words.js';
import { murmurWordInto } from './murmur-hash.js';
import { simhashFromHashes } from './simhash.js';
import { textHashOfIds } from './text-hash.js';

/**
 * Analysis of text already normalised (normalizeText). Parameters are trusted (analyzeText
 * validates them). `stemCache`: stems kept across calls (see StemCache).
 */
export function analyzeNormalizedText(normalized: string, params: FingerprintParams, stemCache?: StemCache): TextAnalysis {
  const table = tokenTable(normalized);
  const { count, ids, distinct, starts, ends, hashes, paragraphCount, paragraphEnds } = table;

  // Each distinct token's word hash: the text hash is made of them.
  const tokenA = new Uint32Array(distinct);
  const tokenB = new Uint32Array(distinct);
  for (let id = 0; id < distinct; id++) murmurWordInto(normalized, starts[id]!, ends[id]!, tokenA, tokenB, id);
  const textHash = textHashOfIds(ids, count, tokenA, tokenB);
  const language = count === 0 ? 'und' : detectLanguage(normalized);

  // Stop words and stems, once per distinct token.
  const stopWords = stopWordSpansFor(language);
  const stem = stemmerFor(language, { stemCache });
  const keepAll = stopWords.size === 0;
  const rabin = params.hash === 'rabin';
  const tokens = new Array<string>(distinct);
  const stems: string[] | null = rabin ? new Array<string>(distinct) : null;
  const stemA = new Uint32Array(distinct);
  const stemB = new Uint32Array(distinct);
  const stop = new Uint8Array(distinct);
  const stemOf = (id: number): void => {
    const token = tokens[id] ?? normalized.slice(starts[id]!, ends[id]!);
    const s = stem(token);
    if (stems !== null) stems[id] = s;
    if (s === token) {
      stemA[id] = tokenA[id]!;
      stemB[id] = tokenB[id]!;
    } else {
      murmurWordInto(s, 0, s.length, stemA, stemB, id);
    }
  };
  let stopCount = 0;
  for (let id = 0; id < distinct; id++) {
    if (!keepAll && stopWords.hasSpan(normalized, starts[id]!, ends[id]!, hashes[id]!)) {
      stop[id] = 1;
      stopCount++;
    } else {
      tokens[id] = normalized.slice(starts[id]!, ends[id]!);
      stemOf(id);
    }
  }

  // Kept words by position, paragraph by paragraph (paragraphs left empty get length 0, which
  // adds no feature). When every token is a stop word, all are kept (stemmed).
  let keptOnly = true;
  if (count > 0 && stopCount === distinct) {
    keptOnly = false;
    for (let id = 0; id < distinct; id++) stemOf(id);
  }
  const lengths = new Int32Array(paragraphCount);
  const wordA = rabin ? stemA : new Uint32Array(count);
  const wordB = rabin ? stemB : new Uint32Array(count);
  const words: string[] = [];
  let position = 0;
  let from = 0;
  for (let p = 0; p < paragraphCount; p++) {
    const to = paragraphEnds[p]!;
    const before = position;
    for (let k = from; k < to; k++) {
      const id = ids[k]!;
      if (keptOnly && stop[id] === 1) continue;
      if (stems !== null) {
        words.push(stems[id]!);
      } else {
        wordA[position] = stemA[id]!;
        wordB[position] = stemB[id]!;
      }
      position++;
    }
    lengths[p] = position - before;
    from = to;
  }

  const { hi, lo } = rabin
    ? rabinFeatureHashes(lengths, paragraphCount, params.shingleSize, words)
    : murmurFeatureHashes(lengths, paragraphCount, params.shingleSize, wordA, wordB);
  const fingerprint = simhashFromHashes(hi, lo, hi.length, params.weighting);
  return { fingerprint, textHash, language, tokenCount: count, featureCount: hi.length };
}
