/**
 * The fingerprint pipeline's fast path after normalisation: tokens → language → stop words and
 * stems → shingles → feature hashes → simhash, plus the text hash, with each distinct token sliced,
 * looked up, stemmed and hashed once per document (token-table.ts) and no string or array made per
 * token occurrence or per shingle.
 *
 * The results equal those of the reference stages composed one by one — tokenizeParagraphs,
 * detectLanguage, removeStopWordsAndStemParagraphs, paragraphShingles, hash64, simhashFeatures,
 * textHash — bit for bit (test/analyze/golden-analyses.test.ts pins them on the dev pages).
 */
import { detectDocumentLanguage } from '../text/detect-language.js';
import { stopWordSpansFor } from '../text/language-resources.js';
import { stemmerFor } from '../text/remove-stop-words-and-stem.js';
import type { StemCache } from '../text/stem-cache.js';
import { tokenTable, type TokenTable } from '../text/token-table.js';
import type { FingerprintParams, TextAnalysis } from '../types.js';
import { murmurFeatureHashes, rabinFeatureHashes } from '../fingerprint/fingerprint-words.js';
import { murmurWordInto } from '../fingerprint/murmur-hash.js';
import { shingleSketch } from '../fingerprint/shingle-sketch.js';
import { simhashFromHashes } from '../fingerprint/simhash.js';
import { textHashOfIds } from '../fingerprint/text-hash.js';

/**
 * What the analysis made per distinct token, for onTokens: `stems[id]` (set for every token that is
 * not a stop word, and for all of them when every token is one) and `stop[id]` (1: a stop word of the
 * detected language). Valid only during the call.
 */
export interface TokenStems {
  readonly stems: readonly (string | undefined)[];
  readonly stop: Uint32Array;
}

/**
 * Analysis of text already normalised (normalizeText). Parameters are trusted (analyzeText
 * validates them). `stemCache`: stems kept across calls (see StemCache). `sketchSize` > 0 adds the
 * bottom-k sketch of the features (shingle-sketch.ts) for the second stage. `onTokens` gets the token
 * table (AnalyzeOptions.onTokens).
 */
export function analyzeNormalizedText(
  normalized: string, params: FingerprintParams, stemCache?: StemCache, sketchSize = 0,
  onTokens?: (normalized: string, table: TokenTable, stems: TokenStems) => void,
): TextAnalysis {
  const table = tokenTable(normalized);
  const { count, ids, distinct, spans, paragraphCount, paragraphEnds } = table;

  // One buffer for the per-call arrays (typed arrays are costly to allocate one by one): word
  // hashes of each distinct token and of its stem, stop-word flags, word hashes by position,
  // paragraph lengths after stop words, and the feature hashes (at most one per position).
  const buffer = new ArrayBuffer(4 * (5 * distinct + 4 * count + paragraphCount));
  let offset = 0;
  const view = (length: number): Uint32Array => {
    const out = new Uint32Array(buffer, offset, length);
    offset += 4 * length;
    return out;
  };
  const tokenA = view(distinct);
  const tokenB = view(distinct);
  const stemA = view(distinct);
  const stemB = view(distinct);
  const stop = view(distinct);
  const wordA = view(count);
  const wordB = view(count);
  const featureHi = view(count);
  const featureLo = view(count);
  const lengths = new Int32Array(buffer, offset, paragraphCount);

  // Each distinct token's word hash: the text hash is made of them.
  for (let id = 0; id < distinct; id++) murmurWordInto(normalized, spans[id * 3]!, spans[id * 3 + 1]!, tokenA, tokenB, id);
  const textHash = textHashOfIds(ids, count, tokenA, tokenB);
  const language = detectDocumentLanguage(table);

  // Stop words and stems, once per distinct token.
  const stopWords = stopWordSpansFor(language);
  const stem = stemmerFor(language, { stemCache });
  const keepAll = stopWords.size === 0;
  const rabin = params.hash === 'rabin';
  const stems: string[] | null = rabin ? new Array<string>(distinct) : null;
  // Every distinct token's stem, for onTokens (the same array when rabin makes one).
  const stemsOut: string[] | null = onTokens === undefined ? null : (stems ?? new Array<string>(distinct));
  const stemOf = (id: number): void => {
    const token = normalized.slice(spans[id * 3]!, spans[id * 3 + 1]!);
    const s = stem(token);
    if (stemsOut !== null) stemsOut[id] = s;
    else if (stems !== null) stems[id] = s;
    if (s === token) {
      stemA[id] = tokenA[id]!;
      stemB[id] = tokenB[id]!;
    } else {
      murmurWordInto(s, 0, s.length, stemA, stemB, id);
    }
  };
  let stopCount = 0;
  for (let id = 0; id < distinct; id++) {
    const at = id * 3;
    if (!keepAll && stopWords.hasSpan(normalized, spans[at]!, spans[at + 1]!, spans[at + 2]!)) {
      stop[id] = 1;
      stopCount++;
    } else {
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

  onTokens?.(normalized, table, { stems: stemsOut!, stop });
  const features = rabin
    ? rabinFeatureHashes(lengths, paragraphCount, params.shingleSize, words, featureHi, featureLo)
    : murmurFeatureHashes(lengths, paragraphCount, params.shingleSize, wordA, wordB, featureHi, featureLo);
  const fingerprint = simhashFromHashes(featureHi, featureLo, features, params.weighting);
  const analysis: TextAnalysis = { fingerprint, textHash, language, tokenCount: count, featureCount: features };
  return sketchSize > 0 ? { ...analysis, sketch: shingleSketch(featureHi, featureLo, features, sketchSize) } : analysis;
}
