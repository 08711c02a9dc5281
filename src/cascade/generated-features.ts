/**
 * The `generated` stage's features of a text: the method's (gzip compression ratio, variance over
 * sentences of the share of pronominal adverbs, share of pronominal nouns, the largest number of
 * words in a sentence) and others that separate programs' text from people's: sentence-length
 * spread, function-word rates, a length-independent type/token ratio, repeated trigrams, and the
 * cohesion of neighbouring sentences (people's neighbouring sentences share more words than
 * distant ones; shuffled or chained sentences do not), and topic focus (a person's text keeps
 * coming back to a few words and names; text chained or shuffled from many texts does not).
 * Look-alike letters are folded first, so a spoofed copy has its original's features.
 */
import { gzipSync } from 'node:zlib';
import { foldHomoglyphs } from '../text/fold-homoglyphs.js';
import { stopWordsFor } from '../text/language-resources.js';
import { pronominalAdverbsFor, pronounsFor } from './function-words.js';
import { sentenceWords } from './sentences.js';

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
] as const;

export type GeneratedFeatureName = (typeof GENERATED_FEATURE_NAMES)[number];

/**
 * Characters of a text the features look at, at most: a longer text is cut at the last sentence end
 * before this (about 500 English words). Bounds the stage's cost per page; the trees were trained
 * on features of texts cut the same way.
 */
export const FEATURE_WINDOW = 3000;

/** The text's first FEATURE_WINDOW characters, cut after a sentence end when one is in its second half. */
export function featureWindow(text: string): string {
  if (text.length <= FEATURE_WINDOW) return text;
  const head = text.slice(0, FEATURE_WINDOW);
  const end = Math.max(head.lastIndexOf('. '), head.lastIndexOf('.\n'), head.lastIndexOf('? '), head.lastIndexOf('! '));
  return end >= FEATURE_WINDOW / 2 ? head.slice(0, end + 1) : head;
}

/** Words per window of the moving type/token ratio. */
const TTR_WINDOW = 50;
/** Sentences this far apart or more are the "distant" baseline of the cohesion ratio. */
const DISTANT = 3;

function mean(values: readonly number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  return values.length === 0 ? 0 : sum / values.length;
}

function variance(values: readonly number[]): number {
  const m = mean(values);
  let sum = 0;
  for (const v of values) sum += (v - m) * (v - m);
  return values.length === 0 ? 0 : sum / values.length;
}

/** Each word's id (distinct words numbered in order of first occurrence) and the number of ids. */
function wordIds(words: readonly string[]): { ids: Int32Array; distinct: number } {
  const map = new Map<string, number>();
  const ids = new Int32Array(words.length);
  for (let i = 0; i < words.length; i++) {
    let id = map.get(words[i]!);
    if (id === undefined) {
      id = map.size;
      map.set(words[i]!, id);
    }
    ids[i] = id;
  }
  return { ids, distinct: map.size };
}

/** Mean over windows of TTR_WINDOW words of distinct/total (the whole text when shorter). */
function movingTypeTokenRatio(ids: Int32Array, distinct: number): number {
  const n = ids.length;
  if (n === 0) return 0;
  const counts = new Int32Array(distinct);
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

/** Share of trigram occurrences whose trigram occurs more than once. */
function repeatedTrigramShare(ids: Int32Array, distinct: number): number {
  const n = ids.length;
  if (n < 3) return 0;
  // Keys in base `distinct` are exact while distinct³ < 2^53, i.e. below 2^17 distinct words.
  const base = distinct;
  const counts = new Map<number, number>();
  const exact = distinct < 1 << 17;
  const keyOf = (i: number): number => (exact ? (ids[i]! * base + ids[i + 1]!) * base + ids[i + 2]! : mix3(ids[i]!, ids[i + 1]!, ids[i + 2]!));
  for (let i = 0; i + 3 <= n; i++) {
    const key = keyOf(i);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  let repeated = 0;
  for (const c of counts.values()) if (c > 1) repeated += c;
  return repeated / (n - 2);
}

/** A 52-bit key of three ids (for texts with more than 2^17 distinct words; collisions negligible). */
function mix3(a: number, b: number, c: number): number {
  const hi = Math.imul(a ^ Math.imul(b, 0x9e3779b1), 0x85ebca6b) >>> 0;
  const lo = Math.imul(c ^ Math.imul(b, 0xc2b2ae35), 0x27d4eb2f) >>> 0;
  return (hi & 0xfffff) * 2 ** 32 + lo;
}

/** Dice overlap of two sets. */
function dice(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return (2 * shared) / (a.size + b.size);
}

/** Mean overlap of neighbouring sentences, and its ratio to that of distant ones. */
function cohesion(contentSets: readonly ReadonlySet<string>[]): { adjacent: number; ratio: number } {
  const adjacent: number[] = [];
  const distant: number[] = [];
  for (let i = 0; i + 1 < contentSets.length; i++) adjacent.push(dice(contentSets[i]!, contentSets[i + 1]!));
  // Distant pairs at a fixed stride, so the cost stays linear in the number of sentences.
  for (let i = 0; i + DISTANT < contentSets.length; i++) {
    distant.push(dice(contentSets[i]!, contentSets[i + DISTANT]!));
    const far = Math.floor((i + contentSets.length) / 2);
    if (far - i >= DISTANT && far < contentSets.length) distant.push(dice(contentSets[i]!, contentSets[far]!));
  }
  const a = mean(adjacent);
  // Smoothed, so that texts with almost no shared words give a ratio near 1, not 0/0.
  return { adjacent: a, ratio: (a + 0.01) / (mean(distant) + 0.01) };
}

/** Sentence-level statistics: lengths, pronominal adverbs, function words. */
function sentenceStats(sentences: readonly string[][], language: string) {
  const stop = stopWordsFor(language);
  const adverbs = pronominalAdverbsFor(language);
  const lengths: number[] = [];
  const adverbShares: number[] = [];
  const contentSets: Set<string>[] = [];
  let functionEnds = 0;
  for (const words of sentences) {
    lengths.push(words.length);
    let adv = 0;
    const content = new Set<string>();
    for (const w of words) {
      if (adverbs.has(w)) adv++;
      if (!stop.has(w)) content.add(w);
    }
    adverbShares.push(adv / words.length);
    contentSets.push(content);
    if (stop.has(words[words.length - 1]!)) functionEnds++;
  }
  return { lengths, adverbShares, contentSets, functionEnds };
}

/** Word-level rates: pronouns, function words, function-word pairs. */
function wordStats(words: readonly string[], language: string) {
  const stop = stopWordsFor(language);
  const pronouns = pronounsFor(language);
  let pron = 0;
  let func = 0;
  let pairs = 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (pronouns.has(w)) pron++;
    if (stop.has(w)) {
      func++;
      if (i > 0 && stop.has(words[i - 1]!)) pairs++;
    }
  }
  const n = Math.max(1, words.length);
  return { pronounShare: pron / n, functionWordShare: func / n, functionPairShare: pairs / Math.max(1, words.length - 1) };
}

/** Share of content-word occurrences taken by the text's ten most frequent content words. */
function topContentShare(words: readonly string[], language: string): number {
  const stop = stopWordsFor(language);
  const counts = new Map<string, number>();
  let total = 0;
  for (const w of words) {
    if (stop.has(w) || w.length < 3) continue;
    counts.set(w, (counts.get(w) ?? 0) + 1);
    total++;
  }
  const top = [...counts.values()].sort((a, b) => b - a).slice(0, 10);
  return total === 0 ? 0 : top.reduce((a, b) => a + b, 0) / total;
}

const NAME_INSIDE_SENTENCE = /(?<=\p{L}[,;:]?\s+)\p{Lu}[\p{L}\p{M}'’]+/gu;

/** Share of capitalised words inside sentences (names, mostly) whose form occurs more than once. */
function properNounRepeatShare(text: string): number {
  const counts = new Map<string, number>();
  let total = 0;
  for (const m of text.matchAll(NAME_INSIDE_SENTENCE)) {
    counts.set(m[0], (counts.get(m[0]) ?? 0) + 1);
    total++;
  }
  let repeated = 0;
  for (const c of counts.values()) if (c > 1) repeated += c;
  return total === 0 ? 0 : repeated / total;
}

/**
 * The features of a raw text in a language (ISO 639-3), in GENERATED_FEATURE_NAMES order, and the
 * word count of the part they were computed on (featureWindow). A text without words gives zeros.
 */
export function generatedFeatures(raw: string, language: string): { values: number[]; words: number } {
  const text = foldHomoglyphs(featureWindow(raw));
  const sentences = sentenceWords(text);
  const words = sentences.flat();
  if (words.length === 0) return { values: GENERATED_FEATURE_NAMES.map(() => 0), words: 0 };
  const bytes = Buffer.byteLength(text);
  const gzipRatio = gzipSync(text, { level: 6 }).length / bytes;
  const { lengths, adverbShares, contentSets, functionEnds } = sentenceStats(sentences, language);
  const meanLength = mean(lengths);
  const { pronounShare, functionWordShare, functionPairShare } = wordStats(words, language);
  const { adjacent, ratio } = cohesion(contentSets);
  const { ids, distinct } = wordIds(words);
  const values = [
    gzipRatio,
    variance(adverbShares),
    pronounShare,
    lengths.reduce((m, v) => (v > m ? v : m), 0),
    meanLength,
    Math.sqrt(variance(lengths)) / meanLength,
    functionWordShare,
    functionPairShare,
    functionEnds / sentences.length,
    movingTypeTokenRatio(ids, distinct),
    repeatedTrigramShare(ids, distinct),
    adjacent,
    ratio,
    topContentShare(words, language),
    properNounRepeatShare(text),
  ];
  return { values, words: words.length };
}
