/**
 * What the cascade keeps of a page to compare later pages with it (CascadeRecord), made once per
 * page: its content stems, a sketch of its word shingles, a sketch of its grammatical shingles
 * (the `synonymised` fingerprint), and per paragraph its word-shingle hashes and term hashes (the
 * `compiled` stage's profiles). Plain data: it can cross threads and go into a store.
 */
import { stopWordsFor } from '../text/language-resources.js';
import { normalizeText } from '../text/normalize-text.js';
import type { StemCache } from '../text/stem-cache.js';
import type { TokenStems } from '../analyze/analyze-normalized-text.js';
import { tokenTable, type TokenTable } from '../text/token-table.js';
import { posTags } from './pos-tags.js';
import { fmix32 } from '../fingerprint/murmur-hash.js';
import { bottomK, bottomKInto, fnv1a, runsScratchLength, shingleHashes, shingleHashesOfInto, sortRunsAndUnion, sortedDistinctInPlace } from './shingle-sketch.js';
import { termOfHash, tokenInfos, tokenInfosWords, type TokenInfos } from './token-infos.js';

/** How a page's grammar is written down for the `synonymised` fingerprint. */
export type GrammarTagger = 'shape' | 'pos';

export interface ParagraphProfile {
  /** Tokens in the paragraph. */
  readonly words: number;
  /** Distinct sampled hashes (isSampledShingle) of its word 3-shingles (normalised tokens; stop-word-only ones left out), ascending. */
  readonly shingles: Uint32Array;
  /** Distinct 16-bit terms of its content stems (termHash; stop words left out), ascending. */
  readonly terms: Uint32Array;
}

export interface CascadeRecord {
  readonly language: string;
  /** Tokens of the page. */
  readonly words: number;
  /**
   * Distinct content stems, in order of first occurrence (the page being judged: its synonym
   * comparison); empty for a stored record, which keeps only their terms.
   */
  readonly stems: readonly string[];
  /** Bottom-k sketch of the sampled word 3-shingles (their SKETCH_SIZE smallest). */
  readonly wordSketch: Uint32Array;
  /** Distinct sampled word 3-shingle hashes of the whole page, ascending (the paragraphs' union). */
  readonly shingles: Uint32Array;
  /** Distinct 16-bit content terms of the whole page, ascending (the paragraphs' union; termHash of the stems). */
  readonly terms: Uint32Array;
  /** Bottom-k sketch (TAG_SKETCH_SIZE) of the grammar-tag 8-shingles, or null when the language has no tagger. */
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
/**
 * Values of the grammar sketch: a spun copy's grammar stays close to its source's (Jaccard ≥ ~0.3 at
 * half its words replaced), and 64 values tell that from an unrelated page's (~0.05) as 256 did in
 * eval:cascade, at a quarter of the bytes a stored page keeps.
 */
export const TAG_SKETCH_SIZE = 64;
/**
 * One word shingle in SHINGLE_SAMPLE is kept (its low bits 0), on every page alike, so that shares
 * measured on the kept ones estimate the shares of all (a paragraph of 50 words keeps ~6): the
 * `compiled` stage and the store's postings work on them, and a stored page keeps an eighth of the
 * bytes.
 */
export const SHINGLE_SAMPLE = 8;
const SHINGLE_SAMPLE_MASK = SHINGLE_SAMPLE - 1;

/** Whether a word-shingle hash is one a record keeps. */
export function isSampledShingle(hash: number): boolean {
  return (hash & SHINGLE_SAMPLE_MASK) === 0;
}

/** A content stem's 16-bit term (never 0: 0 marks a stop word in tokenInfos). */
export function termHash(stem: string): number {
  return termOfHash(fmix32(fnv1a(stem)) || 1);
}

/**
 * The sampled word 3-shingle hashes of tokens [from, to), without those made of stop words only
 * (stock phrases such as "one of the" match every page and prove nothing), written into `out` from
 * `at`; returns how many.
 */
function paragraphShingles(ids: Int32Array, from: number, to: number, infos: TokenInfos, out: Uint32Array, at: number): number {
  const { hash, term } = infos;
  if (to - from < WORD_SHINGLE) {
    // One run of all the paragraph's tokens (as shingleHashesOf makes it).
    let h = 0x9e3779b9;
    for (let k = from; k < to; k++) h = Math.imul(h ^ hash[ids[k]!]!, 0x01000193) + 0x7f4a7c15;
    out[at] = fmix32(h);
    return isSampledShingle(out[at]!) ? 1 : 0;
  }
  let kept = 0;
  for (let k = from; k + WORD_SHINGLE <= to; k++) {
    const a = ids[k]!;
    const b = ids[k + 1]!;
    const c = ids[k + 2]!;
    if ((term[a]! | term[b]! | term[c]!) === 0) continue;
    const h = shingle3(hash[a]!, hash[b]!, hash[c]!);
    if (isSampledShingle(h)) out[at + kept++] = h;
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

/**
 * The grammar sketch (bottom-k of the tag 8-shingles), or null when the language has no tagger.
 * `shape`: per distinct token its `shape` tag; `scratch`: count + sortScratchLength(count) words,
 * where the sketch is made (the result is a view of it for the `shape` grammar).
 */
function grammarSketch(table: TokenTable, text: string, language: string, tagger: GrammarTagger, shape: Uint32Array, scratch: Uint32Array): Uint32Array | null {
  if (tagger === 'pos') {
    const tags = posTags(text, language)?.tags ?? null;
    return tags === null || tags.length === 0 ? null : bottomK(shingleHashes(tags, TAG_SHINGLE), TAG_SKETCH_SIZE);
  }
  const { ids, count } = table;
  if (stopWordsFor(language).size === 0 || count === 0) return null;
  const hashes = scratch.subarray(0, count);
  const rest = scratch.subarray(count);
  const tags = rest.subarray(0, count);
  for (let k = 0; k < count; k++) tags[k] = shape[ids[k]!]!;
  const n = shingleHashesOfInto(tags, TAG_SHINGLE, hashes);
  // The tags are no longer needed: their area takes the sketch.
  return rest.subarray(0, bottomKInto(hashes.subarray(0, n), TAG_SKETCH_SIZE, rest));
}

/**
 * Scratch space of the record (fully rewritten by every call before it is read, never read across
 * calls; JavaScript runs one call at a time per thread, and nothing the record calls makes a
 * record): allocating and zeroing tens of kilobytes per page was a tenth of the record's cost.
 * Bounded: a larger page gets a buffer of its own for that call.
 */
const SHARED_SCRATCH_WORDS = 1 << 16;
const sharedScratch = new Uint32Array(SHARED_SCRATCH_WORDS);

function scratchOf(words: number): Uint32Array {
  return words <= SHARED_SCRATCH_WORDS ? sharedScratch.subarray(0, words) : new Uint32Array(words);
}

/**
 * The record of a raw text in `language` (ISO 639-3, as the analysis detected it). `normalized`:
 * normalizeText(text) when the caller has it already (the analysis made it), so it is not made twice.
 */
export function cascadeRecord(text: string, language: string, options: CascadeRecordOptions = {}, normalized?: string): CascadeRecord {
  return cascadeRecordOfTable(tokenTable(normalized ?? normalizeText(text)), text, language, options);
}

/**
 * What cascadeRecordOfTable has ready in the layout the codec writes, so that encoding copies it
 * instead of walking the profiles and encoding the stems: the paragraph section — per paragraph
 * (words, shingle count, term count), then all paragraphs' shingles, then all their terms — and the
 * stems' UTF-8 joined by '\n' (null when not made).
 */
export interface PackedRecord {
  readonly triples: Uint32Array;
  readonly shingles: Uint32Array;
  readonly terms: Uint32Array;
  readonly stemUtf8: Uint8Array | null;
}

const PACKED = Symbol('packed record');

/** The packed parts of a record made by cascadeRecordOfTable (undefined for others, e.g. decoded ones). */
export function packedRecordOf(record: CascadeRecord): PackedRecord | undefined {
  return (record as { readonly [PACKED]?: PackedRecord })[PACKED];
}

/**
 * The record from the token table of the normalised text (the analysis's own, AnalyzeOptions.onTokens),
 * so that a page is not tokenised twice. `text`: the raw text (the `pos` tagger reads it).
 */
export function cascadeRecordOfTable(table: TokenTable, text: string, language: string, options: CascadeRecordOptions = {}): CascadeRecord {
  const { ids, count, distinct, paragraphCount, paragraphEnds } = table;
  // One scratch buffer for the per-call arrays (typed arrays are costly to allocate one by one):
  // token hashes (3 · distinct), the stems' table and UTF-8, the paragraphs' shingles and terms side
  // by side (each paragraph has at most as many of either as tokens), the page's shingles,
  // the sorts' scratch (also the grammar sketch's), and per paragraph the ends of its shingles and terms.
  const scratch = scratchOf(tokenInfosWords(table) + 3 * count + runsScratchLength(count, paragraphCount) + 2 * paragraphCount);
  let used = 0;
  const area = (length: number): Uint32Array => scratch.subarray(used, (used += length));
  const infos = tokenInfos(table, language, options.stemCache, options.tokenStems, area(tokenInfosWords(table)));
  const shingleBuffer = area(count);
  const termBuffer = area(count);
  const pageShingles = area(count);
  const sortArea = area(runsScratchLength(count, paragraphCount));
  const shingleEnds = area(paragraphCount);
  const termEnds = area(paragraphCount);
  const { shingleCount, termCount, pageShingleCount } = paragraphSets(ids, paragraphEnds.subarray(0, paragraphCount), infos, {
    shingleBuffer, termBuffer, shingleEnds, termEnds, pageShingles, sortScratch: sortArea,
  });
  const tagSketch = grammarSketch(table, text, language, options.tagger ?? 'shape', infos.shape, sortArea);
  // Every array of the record: views of one exact copy.
  const utf8 = infos.stemUtf8;
  const utf8Words = utf8 === null ? 0 : Math.ceil(utf8.length / 4);
  const out = new Uint32Array(3 * paragraphCount + shingleCount + termCount + pageShingleCount + (tagSketch?.length ?? 0) + utf8Words);
  let at = 3 * paragraphCount;
  const place = (values: Uint32Array): Uint32Array => {
    out.set(values, at);
    return out.subarray(at, (at += values.length));
  };
  const triples = out.subarray(0, 3 * paragraphCount);
  for (let p = 0; p < paragraphCount; p++) {
    triples[3 * p] = paragraphEnds[p]! - (p === 0 ? 0 : paragraphEnds[p - 1]!);
    triples[3 * p + 1] = shingleEnds[p]! - (p === 0 ? 0 : shingleEnds[p - 1]!);
    triples[3 * p + 2] = termEnds[p]! - (p === 0 ? 0 : termEnds[p - 1]!);
  }
  const paragraphShingles = place(shingleBuffer.subarray(0, shingleCount));
  const paragraphTerms = place(termBuffer.subarray(0, termCount));
  const shingles = place(pageShingles.subarray(0, pageShingleCount));
  const tag = tagSketch === null ? null : place(tagSketch);
  let stemUtf8: Uint8Array | null = null;
  if (utf8 !== null) {
    stemUtf8 = new Uint8Array(out.buffer, out.byteOffset + 4 * at, utf8.length);
    stemUtf8.set(utf8);
  }
  const packed: PackedRecord = { triples, shingles: paragraphShingles, terms: paragraphTerms, stemUtf8 };
  return recordOf(language, count, infos.stems, shingles, tag, packed);
}

interface ParagraphBuffers {
  /** The paragraphs' shingles, one paragraph after another (distinct and ascending once done). */
  readonly shingleBuffer: Uint32Array;
  /** The paragraphs' terms, likewise. */
  readonly termBuffer: Uint32Array;
  /** Per paragraph, the end of its shingles and of its terms in the buffers. */
  readonly shingleEnds: Uint32Array;
  readonly termEnds: Uint32Array;
  /** The page's distinct shingles, ascending (the paragraphs' union). */
  readonly pageShingles: Uint32Array;
  readonly sortScratch: Uint32Array;
}

/**
 * Each paragraph's distinct shingles and terms, ascending, into the buffers, and the page's shingles;
 * returns their totals. The paragraphs' raw shingles and terms are written one after another, then
 * sorted all at once (sortRunsAndUnion).
 */
function paragraphSets(ids: Int32Array, paragraphEnds: Int32Array, infos: TokenInfos, buffers: ParagraphBuffers): { shingleCount: number; termCount: number; pageShingleCount: number } {
  const { shingleBuffer, termBuffer, shingleEnds, termEnds, sortScratch } = buffers;
  const term = infos.term;
  const paragraphCount = paragraphEnds.length;
  let shingles = 0;
  let terms = 0;
  let from = 0;
  for (let p = 0; p < paragraphCount; p++) {
    const to = paragraphEnds[p]!;
    shingles += paragraphShingles(ids, from, to, infos, shingleBuffer, shingles);
    shingleEnds[p] = shingles;
    for (let k = from; k < to; k++) {
      const t = term[ids[k]!]!;
      if (t !== 0) termBuffer[terms++] = t;
    }
    termEnds[p] = terms;
    from = to;
  }
  const pageShingleCount = sortRunsAndUnion(shingleBuffer, shingleEnds, paragraphCount, buffers.pageShingles, sortScratch);
  sortRunsAndUnion(termBuffer, termEnds, paragraphCount, null, sortScratch);
  const last = paragraphCount - 1;
  return { shingleCount: last < 0 ? 0 : shingleEnds[last]!, termCount: last < 0 ? 0 : termEnds[last]!, pageShingleCount };
}

/**
 * The record object. Its page terms and paragraph profiles are made when first read: the wired path
 * encodes the record at once, and the codec takes the packed paragraphs and leaves the terms out.
 */
function recordOf(language: string, words: number, stems: string[], shingles: Uint32Array, tagSketch: Uint32Array | null, packed: PackedRecord): CascadeRecord {
  let terms: Uint32Array | null = null;
  let profiles: ParagraphProfile[] | null = null;
  const record: CascadeRecord = {
    language,
    words,
    stems,
    wordSketch: shingles.subarray(0, SKETCH_SIZE),
    shingles,
    // The distinct stems' term hashes: the paragraphs' union, as decodeCascadeRecord makes it.
    get terms() {
      terms ??= sortedDistinctInPlace(Uint32Array.from(stems, termHash));
      return terms;
    },
    tagSketch,
    get paragraphs() {
      profiles ??= profilesOf(packed);
      return profiles;
    },
  };
  // Not enumerable: a copy made by spreading ({ ...record, paragraphs }) does not take it along.
  return Object.defineProperty(record, PACKED, { value: packed });
}

/** The paragraph profiles of a packed section (views of its arrays). */
function profilesOf(packed: PackedRecord): ParagraphProfile[] {
  const { triples, shingles, terms } = packed;
  const profiles: ParagraphProfile[] = [];
  let shingleAt = 0;
  let termAt = 0;
  for (let t = 0; t < triples.length; t += 3) {
    profiles.push({
      words: triples[t]!,
      shingles: shingles.subarray(shingleAt, (shingleAt += triples[t + 1]!)),
      terms: terms.subarray(termAt, (termAt += triples[t + 2]!)),
    });
  }
  return profiles;
}
