/**
 * What the cascade keeps of a page to compare later pages with it (CascadeRecord), made once per
 * page: its content stems, a sketch of its word shingles, a sketch of its grammatical shingles
 * (the `synonymised` fingerprint), and per paragraph its word-shingle hashes and term hashes (the
 * `compiled` stage's profiles). Plain data: it can cross threads and go into a store.
 */
import { stopWordSpansFor, stopWordsFor } from '../text/language-resources.js';
import { normalizeText } from '../text/normalize-text.js';
import { stemmerFor } from '../text/remove-stop-words-and-stem.js';
import { tokenTable, type TokenTable } from '../text/token-table.js';
import { posTags } from './pos-tags.js';
import { bottomK, fnv1a, mix32, shingleHashes, shingleHashesOf, sortedDistinct } from './shingle-sketch.js';

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
  /** Distinct content stems, ascending (synonym comparison). */
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
}

export const WORD_SHINGLE = 3;
export const TAG_SHINGLE = 8;
export const SKETCH_SIZE = 256;


/** Per distinct token (by token-table id): hash, `shape` tag hash, term hash (0: stop word). */
interface TokenInfos {
  readonly hash: Uint32Array;
  readonly shape: Uint32Array;
  readonly term: Uint32Array;
  /** Distinct content stems of the page. */
  readonly stems: Set<string>;
}

/**
 * The `shape` grammar: function words (the language's stop words) as themselves, numbers as `#`,
 * every other word as `_`. Synonym substitution replaces content words, so it keeps this sequence;
 * unrelated texts share few runs of 8 (measured in NOTES-cascade.md).
 */
const NUMBER_SHAPE = mix32(fnv1a('#'));
const WORD_SHAPE = mix32(fnv1a('_'));

/** FNV-1a of text[start, end), finalised (no slice made). */
function spanHash32(text: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h);
}

function tokenInfos(table: TokenTable, language: string): TokenInfos {
  const { text, distinct, spans } = table;
  const stop = stopWordSpansFor(language);
  const stem = stemmerFor(language, {});
  const hash = new Uint32Array(distinct);
  const shape = new Uint32Array(distinct);
  const term = new Uint32Array(distinct);
  const stems = new Set<string>();
  for (let id = 0; id < distinct; id++) {
    const start = spans[id * 3]!;
    const end = spans[id * 3 + 1]!;
    hash[id] = spanHash32(text, start, end);
    if (stop.size > 0 && stop.hasSpan(text, start, end, spans[id * 3 + 2]!)) {
      shape[id] = hash[id]!;
      continue;
    }
    const s = stem(text.slice(start, end));
    stems.add(s);
    const code = text.charCodeAt(start);
    shape[id] = code >= 0x30 && code <= 0x39 ? NUMBER_SHAPE : WORD_SHAPE;
    term[id] = mix32(fnv1a(s)) || 1;
  }
  return { hash, shape, term, stems };
}

/**
 * Word 3-shingle hashes of a paragraph, without those made of stop words only (stock phrases such
 * as "one of the" match every page and prove nothing).
 */
function paragraphShingles(ids: Int32Array, from: number, to: number, infos: TokenInfos): Uint32Array {
  const hashes = new Uint32Array(to - from);
  for (let k = from; k < to; k++) hashes[k - from] = infos.hash[ids[k]!]!;
  const all = shingleHashesOf(hashes, WORD_SHINGLE);
  if (to - from < WORD_SHINGLE) return all;
  let kept = 0;
  for (let i = 0; i < all.length; i++) {
    const a = infos.term[ids[from + i]!]! | infos.term[ids[from + i + 1]!]! | infos.term[ids[from + i + 2]!]!;
    if (a !== 0) all[kept++] = all[i]!;
  }
  return all.subarray(0, kept);
}

function grammarSketch(text: string, shapes: Uint32Array, language: string, tagger: GrammarTagger): Uint32Array | null {
  if (tagger === 'pos') {
    const tags = posTags(text, language)?.tags ?? null;
    return tags === null || tags.length === 0 ? null : bottomK(shingleHashes(tags, TAG_SHINGLE), SKETCH_SIZE);
  }
  return stopWordsFor(language).size === 0 || shapes.length === 0 ? null : bottomK(shingleHashesOf(shapes, TAG_SHINGLE), SKETCH_SIZE);
}

/** The record of a raw text in `language` (ISO 639-3, as the analysis detected it). */
export function cascadeRecord(text: string, language: string, options: CascadeRecordOptions = {}): CascadeRecord {
  const table = tokenTable(normalizeText(text));
  const { ids, count, paragraphCount, paragraphEnds } = table;
  const infos = tokenInfos(table, language);
  const shapes = new Uint32Array(count);
  for (let k = 0; k < count; k++) shapes[k] = infos.shape[ids[k]!]!;
  const profiles: ParagraphProfile[] = [];
  const allShingles: number[] = [];
  const allTerms: number[] = [];
  let from = 0;
  for (let p = 0; p < paragraphCount; p++) {
    const to = paragraphEnds[p]!;
    const shingles = paragraphShingles(ids, from, to, infos);
    const terms: number[] = [];
    for (let k = from; k < to; k++) {
      const t = infos.term[ids[k]!]!;
      if (t !== 0) terms.push(t);
    }
    for (const h of shingles) allShingles.push(h);
    for (const h of terms) allTerms.push(h);
    profiles.push({ words: to - from, shingles: sortedDistinct(shingles), terms: sortedDistinct(terms) });
    from = to;
  }
  const shingles = sortedDistinct(allShingles);
  return {
    language,
    words: count,
    stems: [...infos.stems].sort(),
    wordSketch: shingles.slice(0, SKETCH_SIZE),
    shingles,
    terms: sortedDistinct(allTerms),
    tagSketch: grammarSketch(text, shapes, language, options.tagger ?? 'shape'),
    paragraphs: profiles,
  };
}

/** Number of values two ascending arrays share. */
export function sharedCount(a: Uint32Array, b: Uint32Array): number {
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      shared++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) {
      i++;
    } else {
      j++;
    }
  }
  return shared;
}
