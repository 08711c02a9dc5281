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
import { MEMO_STEM_A, MEMO_STEM_B, MEMO_STOP, MEMO_STRIDE, MEMO_TOKEN_A, MEMO_TOKEN_B, TokenMemo } from '../text/token-memo.js';
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

/** A new token's word hash [0] and its stem's [1], halves A and B, before they go to its memo entry. */
const scratchA = new Uint32Array(2);
const scratchB = new Uint32Array(2);
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

  const language = detectDocumentLanguage(table);
  const stopWords = stopWordSpansFor(language);
  const keepAll = stopWords.size === 0;
  const rabin = params.hash === 'rabin';
  // Every distinct token's stem, for rabin's words and for onTokens.
  const stems: string[] | null = rabin || onTokens !== undefined ? new Array<string>(distinct) : null;

  // Per distinct token: word hash, stop flag, stem and stem hash, from the thread's memo for the
  // language (token-memo.ts) when it has met the token, else worked out and added to it. Without a
  // StemCache, a memo for this call alone.
  const memo = stemCache?.tokenMemo(language) ?? new TokenMemo();
  let stem: ((word: string) => string) | null = null;
  let stopCount = 0;
  for (let id = 0; id < distinct; id++) {
    const at = id * 3;
    const start = spans[at]!;
    const end = spans[at + 1]!;
    const hash = spans[at + 2]!;
    let e = memo.find(normalized, start, end, hash);
    if (e < 0) {
      const token = normalized.slice(start, end);
      stem ??= stemmerFor(language, {});
      const s = stem(token);
      e = memo.add(normalized, start, end, hash, s, !keepAll && stopWords.hasSpan(normalized, start, end, hash));
      murmurWordInto(normalized, start, end, scratchA, scratchB, 0);
      if (s === token) {
        scratchA[1] = scratchA[0]!;
        scratchB[1] = scratchB[0]!;
      } else {
        murmurWordInto(s, 0, s.length, scratchA, scratchB, 1);
      }
      const r = e * MEMO_STRIDE;
      memo.records[r + MEMO_TOKEN_A] = scratchA[0]!;
      memo.records[r + MEMO_TOKEN_B] = scratchB[0]!;
      memo.records[r + MEMO_STEM_A] = scratchA[1]!;
      memo.records[r + MEMO_STEM_B] = scratchB[1]!;
    }
    const records = memo.records;
    const r = e * MEMO_STRIDE;
    tokenA[id] = records[r + MEMO_TOKEN_A]!;
    tokenB[id] = records[r + MEMO_TOKEN_B]!;
    stemA[id] = records[r + MEMO_STEM_A]!;
    stemB[id] = records[r + MEMO_STEM_B]!;
    const isStop = records[r + MEMO_STOP]!;
    stop[id] = isStop;
    stopCount += isStop;
    if (stems !== null) stems[id] = memo.stems[e]!;
  }
  const textHash = textHashOfIds(ids, count, tokenA, tokenB);

  // Kept words by position, paragraph by paragraph (paragraphs left empty get length 0, which
  // adds no feature). When every token is a stop word, all are kept (stemmed).
  const keptOnly = !(count > 0 && stopCount === distinct);
  const words: string[] = [];
  let position = 0;
  let from = 0;
  for (let p = 0; p < paragraphCount; p++) {
    const to = paragraphEnds[p]!;
    const before = position;
    for (let k = from; k < to; k++) {
      const id = ids[k]!;
      if (keptOnly && stop[id] === 1) continue;
      if (rabin) {
        words.push(stems![id]!);
      } else {
        wordA[position] = stemA[id]!;
        wordB[position] = stemB[id]!;
      }
      position++;
    }
    lengths[p] = position - before;
    from = to;
  }

  onTokens?.(normalized, table, { stems: stems!, stop });
  const features = rabin
    ? rabinFeatureHashes(lengths, paragraphCount, params.shingleSize, words, featureHi, featureLo)
    : murmurFeatureHashes(lengths, paragraphCount, params.shingleSize, wordA, wordB, featureHi, featureLo);
  const fingerprint = simhashFromHashes(featureHi, featureLo, features, params.weighting);
  const analysis: TextAnalysis = { fingerprint, textHash, language, tokenCount: count, featureCount: features };
  return sketchSize > 0 ? { ...analysis, sketch: shingleSketch(featureHi, featureLo, features, sketchSize) } : analysis;
}
