/**
 * The `synonymised` stage: a page whose grammar sketch (cascade-record.ts) is close to a stored
 * page's is compared with it through the synonym dictionary (src/synonyms/); when nearly all its
 * content stems are the source's own or synonyms of them, and enough are synonyms, it is flagged as
 * a spun copy of that page, with the evidence.
 */
import type { SynonymDictionary } from '../synonyms/synonym-dictionary.js';
import type { SynonymisedFlag } from '../types.js';
import type { CascadeOptions } from './cascade-options.js';
import { SKETCH_SIZE, termHash, type CascadeRecord } from './cascade-record.js';
import type { CascadeStore, StoredCascadePage } from './cascade-store.js';
import { sketchJaccard } from './shingle-sketch.js';
import { countAtMost } from '../fingerprint/sketch-similarity.js';

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
 * Compares the page's content stems with a source's, through synonym classes. `minExplained`: the
 * share of the page's stems that must be the source's own or synonyms of them; once that cannot be
 * reached the comparison stops and returns null (most grammar-close pages are no spun copies, and
 * the page's own stems tell so before the source's synonyms are looked up).
 */
export function compareWithSynonyms(page: CascadeRecord, source: CascadeRecord, synonyms: SynonymLookup, minExplained = 0): SynonymComparison | null {
  if (minExplained > 0 && surelyBelow(page, source, synonyms, minExplained)) return null;
  // Each source stem's position (its first, were one repeated).
  const own = new Map<string, number>();
  const sourceStems = source.stems;
  for (let i = 0; i < sourceStems.length; i++) if (!own.has(sourceStems[i]!)) own.set(sourceStems[i]!, i);
  const stems = page.stems;
  const n = Math.max(1, stems.length);
  // Whether `unexplained` stems already keep the page under minExplained, whatever the rest are.
  const hopeless = (unexplained: number) => (stems.length - unexplained) / n < minExplained;
  let equal = 0;
  let unexplained = 0;
  // Page side first: a stem that is not the source's and in no class can never be explained.
  const open: (readonly number[])[] = [];
  const openStems: string[] = [];
  for (const s of stems) {
    if (own.has(s)) {
      equal++;
      continue;
    }
    const ids = synonyms.classesOf(page.language, s);
    if (ids.length === 0) {
      if (hopeless(++unexplained)) return null;
      continue;
    }
    open.push(ids);
    openStems.push(s);
  }
  let substituted = 0;
  const examples: [string, string][] = [];
  for (let k = 0; k < open.length; k++) {
    const from = synonymInSource(open[k]!, source.language, own, sourceStems, synonyms);
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
 * A quick test before compareWithSynonyms builds the source's stems' map: true when page stems that
 * are surely not explained — no term hash of the source's and no synonym class — already keep the
 * page under `minExplained`. A stem whose hash the source holds counts as explained here (a hash may
 * collide), so true implies that compareWithSynonyms would find the page hopeless too; false
 * decides nothing. Relies on a record's invariant: its `terms` are the term hashes of its `stems`.
 * The source's terms are kept with its decoded record (made once, not a map per comparison), and on
 * the bench docs every compared candidate is rejected within ~the page's first fifth of stems.
 */
function surelyBelow(page: CascadeRecord, source: CascadeRecord, synonyms: SynonymLookup, minExplained: number): boolean {
  const terms = source.terms;
  const stems = page.stems;
  const n = Math.max(1, stems.length);
  let unexplained = 0;
  for (const s of stems) {
    if (holds(terms, termHash(s)) || synonyms.classesOf(page.language, s).length > 0) continue;
    // The same test as compareWithSynonyms's `hopeless`.
    if ((stems.length - ++unexplained) / n < minExplained) return true;
  }
  return false;
}

/**
 * The source's stem standing for a page stem of classes `ids` (ascending): of the first class the
 * source has a stem of, that stem (the source's first, if several). Each class's few stems are
 * looked up in the source's, so that a comparison given up early never reads the classes of all
 * the source's stems.
 */
function synonymInSource(ids: readonly number[], language: string, own: ReadonlyMap<string, number>, sourceStems: readonly string[], synonyms: SynonymLookup): string | undefined {
  for (const id of ids) {
    let first = -1;
    for (const s of synonyms.stemsOf(language, id)) {
      const at = own.get(s);
      if (at !== undefined && (first === -1 || at < first)) first = at;
    }
    if (first >= 0) return sourceStems[first];
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
  const minShared = Math.max(1, Math.floor((options.minTagSimilarity * SKETCH_SIZE) / 2));
  let best: { page: StoredCascadePage; tag: number; cmp: SynonymComparison } | null = null;
  for (const page of store.grammarCandidates(record.tagSketch, minShared, MAX_CANDIDATES)) {
    const source = page.record;
    if (source.tagSketch === null || source.language !== record.language) continue;
    const tag = sketchJaccard(record.tagSketch, source.tagSketch, SKETCH_SIZE);
    if (tag < options.minTagSimilarity) continue;
    if (record.stems.length === 0) return null;
    const cmp = compareWithSynonyms(record, source, synonyms, options.minExplained);
    if (cmp === null || cmp.explained < options.minExplained || cmp.substituted < options.minSubstituted || cmp.substituted === 0) continue;
    if (best === null || cmp.explained > best.cmp.explained) best = { page, tag, cmp };
  }
  if (best === null) return null;
  return {
    kind: 'synonymised',
    sourceId: best.page.id,
    sourceUrl: best.page.url,
    tagSimilarity: best.tag,
    wordSimilarity: sketchJaccard(record.wordSketch, best.page.record.wordSketch, SKETCH_SIZE),
    substitutedShare: best.cmp.substituted,
    explainedShare: best.cmp.explained,
    examples: best.cmp.examples,
  };
}
