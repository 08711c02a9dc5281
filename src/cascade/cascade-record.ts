/**
 * What the cascade keeps of a page to compare later pages with it (CascadeRecord), made once per
 * page: its content stems, a sketch of its word shingles, a sketch of its grammatical shingles
 * (the `synonymised` fingerprint), and per paragraph its word-shingle hashes and term hashes (the
 * `compiled` stage's profiles). Plain data: it can cross threads and go into a store.
 */
import { stopWordsFor } from '../text/language-resources.js';
import { normalizeText } from '../text/normalize-text.js';
import { stemmerFor } from '../text/remove-stop-words-and-stem.js';
import { tokenizeParagraphs } from '../text/tokenize.js';
import { posTags } from './pos-tags.js';
import { bottomK, fnv1a, mix32, shingleHashes, shingleHashesOf } from './shingle-sketch.js';

/** How a page's grammar is written down for the `synonymised` fingerprint. */
export type GrammarTagger = 'shape' | 'pos';

export interface ParagraphProfile {
  /** Tokens in the paragraph. */
  readonly words: number;
  /** Distinct hashes of its word 3-shingles (normalised tokens), ascending. */
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

function sortedDistinct(values: Iterable<number>): Uint32Array {
  return Uint32Array.from(new Set(values)).sort();
}

/** Per distinct token: its hash, its `shape` tag's hash, and its term hash (0 for a stop word). */
interface TokenInfo {
  readonly hash: number;
  readonly shape: number;
  readonly term: number;
  readonly stem: string | null;
}

/**
 * The `shape` grammar: function words (the language's stop words) as themselves, numbers as `#`,
 * every other word as `_`. Synonym substitution replaces content words, so it keeps this sequence;
 * unrelated texts share few runs of 8 (measured in NOTES-cascade.md).
 */
const NUMBER_SHAPE = mix32(fnv1a('#'));
const WORD_SHAPE = mix32(fnv1a('_'));

function tokenInfos(paragraphs: readonly (readonly string[])[], language: string): Map<string, TokenInfo> {
  const stop = stopWordsFor(language);
  const stem = stemmerFor(language, {});
  const infos = new Map<string, TokenInfo>();
  for (const tokens of paragraphs) {
    for (const t of tokens) {
      if (infos.has(t)) continue;
      const hash = mix32(fnv1a(t));
      if (stop.has(t)) {
        infos.set(t, { hash, shape: hash, term: 0, stem: null });
      } else {
        const s = stem(t);
        infos.set(t, { hash, shape: /^\p{N}/u.test(t) ? NUMBER_SHAPE : WORD_SHAPE, term: mix32(fnv1a(s)) || 1, stem: s });
      }
    }
  }
  return infos;
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
  const paragraphs = tokenizeParagraphs(normalizeText(text));
  const infos = tokenInfos(paragraphs, language);
  const stems = new Set<string>();
  const profiles: ParagraphProfile[] = [];
  let words = 0;
  for (const tokens of paragraphs) words += tokens.length;
  const shapes = new Uint32Array(words);
  const allShingles: number[] = [];
  const allTerms: number[] = [];
  let at = 0;
  for (const tokens of paragraphs) {
    const hashes = new Uint32Array(tokens.length);
    const terms: number[] = [];
    tokens.forEach((t, i) => {
      const info = infos.get(t)!;
      hashes[i] = info.hash;
      shapes[at++] = info.shape;
      if (info.stem === null) return;
      stems.add(info.stem);
      terms.push(info.term);
    });
    const shingles = shingleHashesOf(hashes, WORD_SHINGLE);
    for (const h of shingles) allShingles.push(h);
    for (const h of terms) allTerms.push(h);
    profiles.push({ words: tokens.length, shingles: sortedDistinct(shingles), terms: sortedDistinct(terms) });
  }
  return {
    language,
    words,
    stems: [...stems].sort(),
    wordSketch: bottomK(Uint32Array.from(allShingles), SKETCH_SIZE),
    shingles: sortedDistinct(allShingles),
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
