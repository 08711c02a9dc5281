/**
 * The `generated` stage's features of a text: the method's (gzip compression ratio, variance over
 * sentences of the share of pronominal adverbs, share of pronominal nouns, the largest number of
 * words in a sentence) and others that separate programs' text from people's: sentence-length
 * spread, function-word rates, a length-independent type/token ratio, repeated trigrams and
 * bigrams (repeated-ngram-share.ts), commas, topic focus (a person's text keeps coming back to a few words and names; text
 * chained or shuffled from many texts does not), and the coherence of its sentences
 * (generated-coherence.ts: neighbouring sentences sharing stems, later sentences coming back to
 * stems said before, varied sentence openings).
 * The features are computed on the normalised text (normalizeText: look-alike letters folded, NFKC,
 * lower case), so a spoofed copy has its original's features; names, which need the case, on the
 * text as written, told apart by their look-alike skeletons (repeatedNameShare).
 */
import { deflateRawSync } from 'node:zlib';
import { foldHomoglyphs } from '../text/fold-homoglyphs.js';
import { FUNCTION_WORD, PRONOMINAL_ADVERB, PRONOUN as PRONOUN_WORD, wordClassLookupFor } from './function-words.js';
import type { WordLookup } from './sentences.js';
import { repeatedNameShare, sentenceWords, type SentenceWords } from './sentences.js';
import { coherence, contentStemIds, sentenceStartVariety, sentenceStemSets } from './generated-coherence.js';
import { repeatedNgramShare } from './repeated-ngram-share.js';

/** Feature names, in the order of the vectors generatedFeatures returns (the tree's columns). */
export const GENERATED_FEATURE_NAMES = [
  'gzipRatio',
  'pronominalAdverbVariance',
  'pronounShare',
  'maxSentenceWords',
  'meanSentenceWords',
  'sentenceLengthCv',
  'functionWordShare',
  'functionPairShare',
  'functionEndShare',
  'movingTypeTokenRatio',
  'repeatedTrigramShare',
  'adjacentOverlap',
  'cohesionRatio',
  'topContentShare',
  'properNounRepeatShare',
  'adjacentLinkedShare',
  'givenContentShare',
  'repeatedBigramShare',
  'sentenceStartVariety',
  'commaShare',
] as const;

export type GeneratedFeatureName = (typeof GENERATED_FEATURE_NAMES)[number];

/**
 * Characters of a text the features look at, at most: a longer text is cut at the last sentence end
 * before this (about 200 English words). Bounds the stage's cost per page (each feature's pass, and
 * deflate's, which costs about 13 µs a kilobyte beside a fixed 8 µs a call); the trees were trained
 * on features of texts cut the same way. 2,400 rather than 1,200 (before): the coherence features
 * need a dozen sentences or more to tell a person's sentences from a program's.
 */
export const FEATURE_WINDOW = 2400;

/** The text's first FEATURE_WINDOW characters, cut after a sentence end when one is in its second half. */
export function featureWindow(text: string): string {
  if (text.length <= FEATURE_WINDOW) return text;
  // The last `. ` `.\n` `? ` `! ` inside the first FEATURE_WINDOW characters, scanning back from
  // their end (one short pass, not a search of the whole head per mark).
  for (let end = FEATURE_WINDOW - 2; end >= FEATURE_WINDOW / 2; end--) {
    const mark = text.charCodeAt(end);
    if (mark !== DOT && mark !== QUESTION && mark !== BANG) continue;
    const next = text.charCodeAt(end + 1);
    if (next === SPACE || (mark === DOT && next === NEWLINE)) return text.slice(0, end + 1);
  }
  return text.slice(0, FEATURE_WINDOW);
}

const DOT = 0x2e;
const QUESTION = 0x3f;
const BANG = 0x21;
const SPACE = 0x20;
const NEWLINE = 0x0a;

/** Words per window of the moving type/token ratio. */
const TTR_WINDOW = 50;

function mean(values: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]!;
  return values.length === 0 ? 0 : sum / values.length;
}

function variance(values: ArrayLike<number>): number {
  const m = mean(values);
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += (values[i]! - m) * (values[i]! - m);
  return values.length === 0 ? 0 : sum / values.length;
}

/** Mean over windows of TTR_WINDOW words of distinct/total (the whole text when shorter). `counts`: zeros, one per distinct word (scratch). */
function movingTypeTokenRatio(ids: Int32Array, counts: Int32Array): number {
  const n = ids.length;
  if (n === 0) return 0;
  const window = Math.min(n, TTR_WINDOW);
  let types = 0;
  for (let i = 0; i < window; i++) if (counts[ids[i]!]!++ === 0) types++;
  if (n <= TTR_WINDOW) return types / n;
  let sum = types;
  for (let i = TTR_WINDOW; i < n; i++) {
    if (--counts[ids[i - TTR_WINDOW]!]! === 0) types--;
    if (counts[ids[i]!]!++ === 0) types++;
    sum += types;
  }
  return sum / (n - TTR_WINDOW + 1) / TTR_WINDOW;
}

// Word classes (bits) of a distinct word: function-words.ts's, and LONG.
const FUNCTION = FUNCTION_WORD;
const PRONOUN = PRONOUN_WORD;
const ADVERB = PRONOMINAL_ADVERB;
const LONG = 8; // three code units or more

/** Each distinct word's class bits, looked up once per distinct word by its span. */
function wordClasses(scan: SentenceWords, lookup: WordLookup): Uint8Array {
  return scan.valuesIn(lookup, LONG, 3);
}

/** Sentence-level statistics: lengths, pronominal adverbs, sentences ending in a function word. */
function sentenceStats(scan: SentenceWords, classes: Uint8Array) {
  const { ids, sentenceEnds, sentenceCount } = scan;
  const perSentence = new Float64Array(2 * sentenceCount);
  const lengths = perSentence.subarray(0, sentenceCount);
  const adverbShares = perSentence.subarray(sentenceCount);
  let functionEnds = 0;
  let from = 0;
  for (let s = 0; s < sentenceCount; s++) {
    const to = sentenceEnds[s]!;
    lengths[s] = to - from;
    let adv = 0;
    for (let k = from; k < to; k++) if ((classes[ids[k]!]! & ADVERB) !== 0) adv++;
    adverbShares[s] = adv / (to - from);
    if ((classes[ids[to - 1]!]! & FUNCTION) !== 0) functionEnds++;
    from = to;
  }
  return { lengths, adverbShares, functionEnds };
}

/** Word-level rates: pronouns, function words, function-word pairs. */
function wordStats(ids: Int32Array, count: number, classes: Uint8Array) {
  let pron = 0;
  let func = 0;
  let pairs = 0;
  for (let i = 0; i < count; i++) {
    const c = classes[ids[i]!]!;
    if ((c & PRONOUN) !== 0) pron++;
    if ((c & FUNCTION) !== 0) {
      func++;
      if (i > 0 && (classes[ids[i - 1]!]! & FUNCTION) !== 0) pairs++;
    }
  }
  const n = Math.max(1, count);
  return { pronounShare: pron / n, functionWordShare: func / n, functionPairShare: pairs / Math.max(1, count - 1) };
}

/** Share of content-word occurrences taken by the text's ten most frequent content words. `counts`: zeros, one per distinct word (scratch). */
function topContentShare(ids: Int32Array, count: number, classes: Uint8Array, counts: Int32Array): number {
  let total = 0;
  for (let i = 0; i < count; i++) {
    const c = classes[ids[i]!]!;
    if ((c & FUNCTION) !== 0 || (c & LONG) === 0) continue;
    counts[ids[i]!]!++;
    total++;
  }
  if (total === 0) return 0;
  // The ten largest counts, descending (a selection: no sort of every word's count).
  const top = new Int32Array(TOP_WORDS);
  for (let id = 0; id < counts.length; id++) {
    const c = counts[id]!;
    if (c <= top[TOP_WORDS - 1]!) continue;
    let j = TOP_WORDS - 1;
    while (j > 0 && top[j - 1]! < c) {
      top[j] = top[j - 1]!;
      j--;
    }
    top[j] = c;
  }
  let sum = 0;
  for (const c of top) sum += c;
  return sum / total;
}

const TOP_WORDS = 10;

/** Commas in a text (ASCII and full-width, which NFKC folds; the ideographic one of CJK). */
function commaCount(text: string): number {
  let commas = 0;
  for (let i = 0; i < text.length; i++) {
    const u = text.charCodeAt(i);
    if (u === 0x2c || u === 0x3001) commas++;
  }
  return commas;
}
/** Bytes gzip adds around a deflate stream: a 10-byte header, CRC-32 and length. */
const GZIP_FRAME = 18;
/**
 * normalizeText's output for a window of the text, less its second fold (for look-alikes that NFKC
 * makes: fullwidth and mathematical letters) and its repair of lone surrogates (which the scanner
 * takes for separators anyway): a text with letters of several scripts is folded once, not twice.
 */
function normalizeWindow(window: string): string {
  return foldHomoglyphs(window).normalize('NFKC').toLowerCase();
}

/** gzip's length over the text's UTF-8 length: its raw deflate stream plus gzip's 18-byte frame (no file name), without computing the CRC. */
function gzipRatio(sample: string): number {
  // An output chunk of 2 KiB (not zlib's 16 KiB) mostly holds the stream in one chunk, and comes from Buffer's pool (under 4 KiB).
  return (deflateRawSync(sample, { level: 6, chunkSize: 2048 }).length + GZIP_FRAME) / Buffer.byteLength(sample);
}

export interface GeneratedFeaturesOptions {
  /**
   * normalizeText(raw), when the caller has it (the analysis made it); else the window is normalised
   * here. The two differ only where look-alike letters fold differently: into the whole text's
   * dominant script against the window's, and look-alikes that NFKC makes (normalizeWindow).
   */
  readonly normalized?: string | undefined;
  /** wordClassLookupFor(language), when the caller keeps it; else it is built for this call. */
  readonly wordClasses?: WordLookup | undefined;
}

/**
 * The features of a raw text in a language (ISO 639-3), in GENERATED_FEATURE_NAMES order, and the
 * word count of the part they were computed on (featureWindow). A text without words gives zeros.
 */
export function generatedFeatures(raw: string, language: string, options: GeneratedFeaturesOptions = {}): { values: number[]; words: number } {
  const { normalized } = options;
  const window = featureWindow(raw);
  const text = normalized === undefined ? normalizeWindow(window) : featureWindow(normalized);
  // Names need the case: counted on the window as written, in the words' pass when its letters are
  // where the normalised text's are (the same length; NFKC changes it for `…` and ligatures).
  const scan = sentenceWords(text, { lowered: true, cased: window.length === text.length ? window : undefined });
  const { ids, count, sentenceCount } = scan;
  if (count === 0) return { values: GENERATED_FEATURE_NAMES.map(() => 0), words: 0 };
  const classes = wordClasses(scan, options.wordClasses ?? wordClassLookupFor(language));
  const { lengths, adverbShares, functionEnds } = sentenceStats(scan, classes);
  const meanLength = mean(lengths);
  const { pronounShare, functionWordShare, functionPairShare } = wordStats(ids, count, classes);
  const stemIds = contentStemIds(scan.words, (id) => (classes[id]! & FUNCTION) === 0);
  let stems = 0;
  for (const stem of stemIds) if (stem >= stems) stems = stem + 1;
  const { adjacent, ratio, linked, given } = coherence(sentenceStemSets(ids, count, scan.sentenceEnds, sentenceCount, stemIds), stems);
  const words = ids.subarray(0, count);
  // One count per distinct word, for the type/token ratio and then (zeroed again) the top words.
  const counts = new Int32Array(scan.distinct);
  let maxLength = 0;
  for (let s = 0; s < sentenceCount; s++) if (lengths[s]! > maxLength) maxLength = lengths[s]!;
  const values = [
    gzipRatio(text),
    variance(adverbShares),
    pronounShare,
    maxLength,
    meanLength,
    Math.sqrt(variance(lengths)) / meanLength,
    functionWordShare,
    functionPairShare,
    functionEnds / sentenceCount,
    movingTypeTokenRatio(words, counts),
    repeatedNgramShare(ids, count, 3),
    adjacent,
    ratio,
    topContentShare(ids, count, classes, counts.fill(0)),
    Number.isNaN(scan.nameShare) ? repeatedNameShare(window) : scan.nameShare,
    linked,
    given,
    repeatedNgramShare(ids, count, 2),
    sentenceStartVariety(ids, scan.sentenceEnds, sentenceCount, scan.distinct),
    commaCount(text) / count,
  ];
  return { values, words: count };
}
