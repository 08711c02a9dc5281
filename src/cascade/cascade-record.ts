/**
 * What the cascade keeps of a page to compare later pages with it (CascadeRecord), made once per
 * page: its content stems, a sketch of its word shingles, a sketch of its grammatical shingles
 * (the `synonymised` fingerprint), and per paragraph its word-shingle hashes and term hashes (the
 * `compiled` stage's profiles). Plain data: it can cross threads and go into a store.
 */
import { stopWordSpansFor, stopWordsFor } from '../text/language-resources.js';
import { normalizeText } from '../text/normalize-text.js';
import { stemmerFor } from '../text/remove-stop-words-and-stem.js';
import type { StemCache } from '../text/stem-cache.js';
import type { TokenStems } from '../analyze/analyze-normalized-text.js';
import { tokenTable, type TokenTable } from '../text/token-table.js';
import { posTags } from './pos-tags.js';
import { fmix32 } from '../fingerprint/murmur-hash.js';
import { bottomK, fnv1a, shingleHashes, shingleHashesOf, sortedDistinctInPlace } from './shingle-sketch.js';

/** How a page's grammar is written down for the `synonymised` fingerprint. */
export type GrammarTagger = 'shape' | 'pos';

export interface ParagraphProfile {
  /** Tokens in the paragraph. */
  readonly words: number;
  /** Distinct hashes of its word 3-shingles (normalised tokens; stop-word-only ones left out), ascending. */
  readonly shingles: Uint32Array;
  /** Distinct hashes of its content stems (stop words left out), ascending. */
  readonly terms: Uint32Array;
}

export interface CascadeRecord {
  readonly language: string;
  /** Tokens of the page. */
  readonly words: number;
  /** Distinct content stems, in order of first occurrence (synonym comparison). */
  readonly stems: readonly string[];
  /** Bottom-k sketch of the word 3-shingles. */
  readonly wordSketch: Uint32Array;
  /** Distinct word 3-shingle hashes of the whole page, ascending (the paragraphs' union). */
  readonly shingles: Uint32Array;
  /** Distinct content-term hashes of the whole page, ascending (the paragraphs' union). */
  readonly terms: Uint32Array;
  /** Bottom-k sketch of the grammar-tag 8-shingles, or null when the language has no tagger. */
  readonly tagSketch: Uint32Array | null;
  readonly paragraphs: readonly ParagraphProfile[];
}

export interface CascadeRecordOptions {
  /** @default 'shape' */
  readonly tagger?: GrammarTagger;
  /** Stems kept across pages (the analysis's, one per thread); without it each page stems its own. */
  readonly stemCache?: StemCache | undefined;
  /** The analysis's stems and stop-word flags of the table's tokens (AnalyzeOptions.onTokens): not stemmed again. */
  readonly tokenStems?: TokenStems | undefined;
}

export const WORD_SHINGLE = 3;
export const TAG_SHINGLE = 8;
export const SKETCH_SIZE = 256;


/** Per distinct token (by token-table id): hash, `shape` tag hash, term hash (0: stop word). */
interface TokenInfos {
  readonly hash: Uint32Array;
  readonly shape: Uint32Array;
  readonly term: Uint32Array;
  /** Distinct content stems of the page, in order of first occurrence. */
  readonly stems: string[];
}

/**
 * The `shape` grammar: function words (the language's stop words) as themselves, numbers as `#`,
 * every other word as `_`. Synonym substitution replaces content words, so it keeps this sequence;
 * unrelated texts share few runs of 8 (measured in NOTES-cascade.md).
 */
const NUMBER_SHAPE = fmix32(fnv1a('#'));
const WORD_SHAPE = fmix32(fnv1a('_'));

/** A content stem's term hash (never 0: 0 marks a stop word in tokenInfos). */
export function termHash(stem: string): number {
  return fmix32(fnv1a(stem)) || 1;
}

/** FNV-1a of text[start, end), finalised (no slice made). */
function spanHash32(text: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix32(h);
}

/**
 * Per distinct token: its hashes, and its stem (one slice and one stem per distinct content token, or
 * the analysis's stems and stop-word flags when given).
 */
function tokenInfos(table: TokenTable, language: string, stemCache: StemCache | undefined, given: TokenStems | undefined): TokenInfos {
  const { text, distinct, spans } = table;
  const stop = stopWordSpansFor(language);
  const stem = stemmerFor(language, { stemCache });
  const isStop = given === undefined
    ? (id: number) => stop.size > 0 && stop.hasSpan(text, spans[id * 3]!, spans[id * 3 + 1]!, spans[id * 3 + 2]!)
    : (id: number) => given.stop[id] === 1;
  const stemOf = given === undefined ? (id: number) => stem(text.slice(spans[id * 3]!, spans[id * 3 + 1]!)) : (id: number) => given.stems[id]!;
  const buffer = new Uint32Array(3 * distinct);
  const hash = buffer.subarray(0, distinct);
  const shape = buffer.subarray(distinct, 2 * distinct);
  const term = buffer.subarray(2 * distinct);
  const stems = new Set<string>();
  for (let id = 0; id < distinct; id++) {
    const start = spans[id * 3]!;
    const end = spans[id * 3 + 1]!;
    hash[id] = spanHash32(text, start, end);
    if (isStop(id)) {
      shape[id] = hash[id]!;
      continue;
    }
    const s = stemOf(id);
    const code = text.charCodeAt(start);
    shape[id] = code >= 0x30 && code <= 0x39 ? NUMBER_SHAPE : WORD_SHAPE;
    const t = termHash(s);
    term[id] = t;
    stems.add(s);
  }
  return { hash, shape, term, stems: [...stems] };
}

/**
 * Word 3-shingle hashes of tokens [from, to), without those made of stop words only (stock phrases
 * such as "one of the" match every page and prove nothing), written into `out` from `at`; returns
 * how many.
 */
function paragraphShingles(ids: Int32Array, from: number, to: number, infos: TokenInfos, out: Uint32Array, at: number): number {
  const { hash, term } = infos;
  if (to - from < WORD_SHINGLE) {
    // One run of all the paragraph's tokens (as shingleHashesOf makes it).
    const run = new Uint32Array(to - from);
    for (let k = from; k < to; k++) run[k - from] = hash[ids[k]!]!;
    out[at] = shingleHashesOf(run, WORD_SHINGLE)[0]!;
    return 1;
  }
  let kept = 0;
  for (let k = from; k + WORD_SHINGLE <= to; k++) {
    const a = ids[k]!;
    const b = ids[k + 1]!;
    const c = ids[k + 2]!;
    if ((term[a]! | term[b]! | term[c]!) === 0) continue;
    out[at + kept++] = shingle3(hash[a]!, hash[b]!, hash[c]!);
  }
  return kept;
}

/** shingleHashesOf's hash of one run of three item hashes. */
function shingle3(a: number, b: number, c: number): number {
  let h = 0x9e3779b9;
  h = Math.imul(h ^ a, 0x01000193) + 0x7f4a7c15;
  h = Math.imul(h ^ b, 0x01000193) + 0x7f4a7c15;
  h = Math.imul(h ^ c, 0x01000193) + 0x7f4a7c15;
  return fmix32(h);
}

function grammarSketch(text: string, shapes: () => Uint32Array, language: string, tagger: GrammarTagger): Uint32Array | null {
  if (tagger === 'pos') {
    const tags = posTags(text, language)?.tags ?? null;
    return tags === null || tags.length === 0 ? null : bottomK(shingleHashes(tags, TAG_SHINGLE), SKETCH_SIZE);
  }
  if (stopWordsFor(language).size === 0) return null;
  const all = shapes();
  return all.length === 0 ? null : bottomK(shingleHashesOf(all, TAG_SHINGLE), SKETCH_SIZE);
}

/**
 * The record of a raw text in `language` (ISO 639-3, as the analysis detected it). `normalized`:
 * normalizeText(text) when the caller has it already (the analysis made it), so it is not made twice.
 */
export function cascadeRecord(text: string, language: string, options: CascadeRecordOptions = {}, normalized?: string): CascadeRecord {
  return cascadeRecordOfTable(tokenTable(normalized ?? normalizeText(text)), text, language, options);
}

/**
 * The record from the token table of the normalised text (the analysis's own, AnalyzeOptions.onTokens),
 * so that a page is not tokenised twice. `text`: the raw text (the `pos` tagger reads it).
 */
export function cascadeRecordOfTable(table: TokenTable, text: string, language: string, options: CascadeRecordOptions = {}): CascadeRecord {
  const { ids, count, paragraphCount, paragraphEnds } = table;
  const infos = tokenInfos(table, language, options.stemCache, options.tokenStems);
  // Shingles and terms of every paragraph, side by side in two buffers (each paragraph has at most
  // as many of either as tokens, and at least one token).
  const shingleBuffer = new Uint32Array(count);
  const termBuffer = new Uint32Array(count);
  // Per paragraph: [start, end) of its distinct shingles and of its distinct terms, which lie one
  // after another at the front of the buffers.
  const bounds = new Int32Array(4 * paragraphCount);
  let shingleCount = 0;
  let termCount = 0;
  let from = 0;
  for (let p = 0; p < paragraphCount; p++) {
    const to = paragraphEnds[p]!;
    const written = paragraphShingles(ids, from, to, infos, shingleBuffer, shingleCount);
    bounds[4 * p] = shingleCount;
    shingleCount += sortedDistinctInPlace(shingleBuffer.subarray(shingleCount, shingleCount + written)).length;
    bounds[4 * p + 1] = shingleCount;
    let terms = termCount;
    for (let k = from; k < to; k++) {
      const t = infos.term[ids[k]!]!;
      if (t !== 0) termBuffer[terms++] = t;
    }
    bounds[4 * p + 2] = termCount;
    termCount += sortedDistinctInPlace(termBuffer.subarray(termCount, terms)).length;
    bounds[4 * p + 3] = termCount;
    from = to;
  }
  // The paragraphs' arrays are views of one copy of each buffer (the buffers are sorted again below
  // for the page's union).
  const paragraphShingleValues = shingleBuffer.slice(0, shingleCount);
  const paragraphTermValues = termBuffer.slice(0, termCount);
  const profiles: ParagraphProfile[] = [];
  for (let p = 0; p < paragraphCount; p++) {
    profiles.push({
      words: paragraphEnds[p]! - (p === 0 ? 0 : paragraphEnds[p - 1]!),
      shingles: paragraphShingleValues.subarray(bounds[4 * p]!, bounds[4 * p + 1]!),
      terms: paragraphTermValues.subarray(bounds[4 * p + 2]!, bounds[4 * p + 3]!),
    });
  }
  const shingles = sortedDistinctInPlace(shingleBuffer.subarray(0, shingleCount)).slice();
  const shapes = (): Uint32Array => {
    const out = new Uint32Array(count);
    for (let k = 0; k < count; k++) out[k] = infos.shape[ids[k]!]!;
    return out;
  };
  return {
    language,
    words: count,
    stems: infos.stems,
    wordSketch: shingles.slice(0, SKETCH_SIZE),
    shingles,
    terms: sortedDistinctInPlace(termBuffer.subarray(0, termCount)).slice(),
    tagSketch: grammarSketch(text, shapes, language, options.tagger ?? 'shape'),
    paragraphs: profiles,
  };
}
