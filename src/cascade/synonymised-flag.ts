/**
 * The `synonymised` stage: a page whose grammar sketch (cascade-record.ts) is close to a stored
 * page's is compared with it through the synonym dictionary (src/synonyms/); when nearly all its
 * content stems are the source's own or synonyms of them, and enough are synonyms, it is flagged as
 * a spun copy of that page, with the evidence.
 */
import type { SynonymDictionary } from '../synonyms/synonym-dictionary.js';
import type { SynonymisedFlag } from '../types.js';
import type { CascadeOptions } from './cascade-options.js';
import { SKETCH_SIZE, TAG_SKETCH_SIZE, termHash, type CascadeRecord } from './cascade-record.js';
import type { CascadeStore, StoredCascadePage } from './cascade-store.js';
import { sketchJaccard } from './shingle-sketch.js';
import { countAtMost } from '../fingerprint/sketch-similarity.js';
import { evidenceFigure } from './evidence-figure.js';

/** What the stage needs of a synonym dictionary. */
export type SynonymLookup = Pick<SynonymDictionary, 'classesOf' | 'stemsOf'>;

/** Stored pages compared per page, at most. */
const MAX_CANDIDATES = 5;
const MAX_EXAMPLES = 5;

interface SynonymComparison {
  readonly explained: number;
  readonly substituted: number;
  readonly examples: [string, string][];
}

/**
 * What the comparisons of one page need of its stems, computed once for all its candidates: each
 * stem's term, and its synonym classes (looked up on first need).
 */
export class PageStems {
  readonly record: CascadeRecord;
  readonly terms: Uint32Array;
  readonly #classes: (readonly number[] | undefined)[];
  readonly #synonyms: SynonymLookup;

  constructor(record: CascadeRecord, synonyms: SynonymLookup) {
    this.record = record;
    this.#synonyms = synonyms;
    this.terms = Uint32Array.from(record.stems, termHash);
    this.#classes = new Array<readonly number[] | undefined>(record.stems.length);
  }

  /** The classes of stem k. */
  classesOf(k: number): readonly number[] {
    return (this.#classes[k] ??= this.#synonyms.classesOf(this.record.language, this.record.stems[k]!));
  }
}

/**
 * Compares the page's content stems with a source's terms (a stored record keeps its stems' 16-bit
 * terms, not the stems), through synonym classes: a page stem is the source's own when the source
 * holds its term, substituted when it holds the term of a stem of one of its classes. `minExplained`:
 * the share of the page's stems that must be explained so; once that cannot be reached the
 * comparison stops and returns null (most grammar-close pages are no spun copies, and the page's
 * own stems tell so before the classes' stems are looked up). `page`: a record, or its PageStems
 * when it is compared with several sources.
 */
export function compareWithSynonyms(page: CascadeRecord | PageStems, source: CascadeRecord, synonyms: SynonymLookup, minExplained = 0): SynonymComparison | null {
  const stemsOfPage = page instanceof PageStems ? page : new PageStems(page, synonyms);
  const { record, terms: pageTerms } = stemsOfPage;
  const terms = source.terms;
  const stems = record.stems;
  const n = Math.max(1, stems.length);
  // Whether `unexplained` stems already keep the page under minExplained, whatever the rest are.
  const hopeless = (unexplained: number) => (stems.length - unexplained) / n < minExplained;
  let equal = 0;
  let unexplained = 0;
  // Page side first: a stem that is not the source's and in no class can never be explained.
  const open: (readonly number[])[] = [];
  const openStems: string[] = [];
  for (let k = 0; k < stems.length; k++) {
    if (holds(terms, pageTerms[k]!)) {
      equal++;
      continue;
    }
    const ids = stemsOfPage.classesOf(k);
    if (ids.length === 0) {
      if (hopeless(++unexplained)) return null;
      continue;
    }
    open.push(ids);
    openStems.push(stems[k]!);
  }
  let substituted = 0;
  const examples: [string, string][] = [];
  for (let k = 0; k < open.length; k++) {
    const from = synonymInSource(open[k]!, source.language, terms, synonyms);
    if (from === undefined) {
      if (hopeless(++unexplained)) return null;
      continue;
    }
    substituted++;
    if (examples.length < MAX_EXAMPLES) examples.push([from, openStems[k]!]);
  }
  return { explained: (equal + substituted) / n, substituted: substituted / n, examples };
}

/** Whether `sorted` (ascending) holds `value`. */
function holds(sorted: Uint32Array, value: number): boolean {
  const atMost = countAtMost(sorted, value);
  return atMost > 0 && sorted[atMost - 1] === value;
}

/**
 * The terms of each synonym class's stems (termHash), by dictionary and language: a class is met on
 * page after page, and hashing its stems again for every candidate was most of the comparison.
 */
const classTermsCache = new WeakMap<SynonymLookup, Map<string, Map<number, Uint32Array>>>();

function classTerms(synonyms: SynonymLookup, language: string, classId: number): Uint32Array {
  let byLanguage = classTermsCache.get(synonyms);
  if (byLanguage === undefined) classTermsCache.set(synonyms, (byLanguage = new Map()));
  let byClass = byLanguage.get(language);
  if (byClass === undefined) byLanguage.set(language, (byClass = new Map()));
  let terms = byClass.get(classId);
  if (terms === undefined) byClass.set(classId, (terms = Uint32Array.from(synonyms.stemsOf(language, classId), termHash)));
  return terms;
}

/**
 * The source's stem standing for a page stem of classes `ids` (ascending): of the first class with a
 * stem whose term the source holds, that stem (the class's first such).
 */
function synonymInSource(ids: readonly number[], language: string, sourceTerms: Uint32Array, synonyms: SynonymLookup): string | undefined {
  for (const id of ids) {
    const terms = classTerms(synonyms, language, id);
    for (let i = 0; i < terms.length; i++) if (holds(sourceTerms, terms[i]!)) return synonyms.stemsOf(language, id)[i];
  }
  return undefined;
}

/** The `synonymised` flag of a page against the store, or null. */
export function synonymisedFlag(
  record: CascadeRecord,
  store: CascadeStore,
  synonyms: SynonymLookup,
  options: CascadeOptions['synonymised'],
): SynonymisedFlag | null {
  // The page's stems are read (decoded, on the committing thread) only once a candidate is close.
  if (record.tagSketch === null) return null;
  // A loose pre-filter on shared sketch values; the Jaccard estimate below decides.
  const minShared = Math.max(1, Math.floor((options.minTagSimilarity * TAG_SKETCH_SIZE) / 2));
  let best: { page: StoredCascadePage; tag: number; cmp: SynonymComparison } | null = null;
  let stems: PageStems | undefined;
  for (const page of store.grammarCandidates(record.tagSketch, minShared, MAX_CANDIDATES)) {
    const source = page.record;
    if (source.tagSketch === null || source.language !== record.language) continue;
    const tag = sketchJaccard(record.tagSketch, source.tagSketch, TAG_SKETCH_SIZE);
    if (tag < options.minTagSimilarity) continue;
    if (record.stems.length === 0) return null;
    const cmp = compareWithSynonyms((stems ??= new PageStems(record, synonyms)), source, synonyms, options.minExplained);
    if (cmp === null || cmp.explained < options.minExplained || cmp.substituted < options.minSubstituted || cmp.substituted === 0) continue;
    if (best === null || cmp.explained > best.cmp.explained) best = { page, tag, cmp };
  }
  if (best === null) return null;
  return {
    kind: 'synonymised',
    sourceId: best.page.id,
    sourceUrl: best.page.url,
    tagSimilarity: evidenceFigure(best.tag),
    wordSimilarity: evidenceFigure(sketchJaccard(record.wordSketch, best.page.record.wordSketch, SKETCH_SIZE)),
    substitutedShare: evidenceFigure(best.cmp.substituted),
    explainedShare: evidenceFigure(best.cmp.explained),
    examples: best.cmp.examples,
  };
}
