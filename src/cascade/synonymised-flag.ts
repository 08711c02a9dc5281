/**
 * The `synonymised` stage: a page whose grammar sketch (cascade-record.ts) is close to a stored
 * page's is compared with it through the synonym dictionary (src/synonyms/); when nearly all its
 * content stems are the source's own or synonyms of them, and enough are synonyms, it is flagged as
 * a spun copy of that page, with the evidence.
 */
import type { SynonymDictionary } from '../synonyms/synonym-dictionary.js';
import type { SynonymisedFlag } from '../types.js';
import type { CascadeOptions } from './cascade-options.js';
import { SKETCH_SIZE, type CascadeRecord } from './cascade-record.js';
import type { CascadeStore, StoredCascadePage } from './cascade-store.js';
import { sketchJaccard } from './shingle-sketch.js';

/** What the stage needs of a synonym dictionary. */
export type SynonymLookup = Pick<SynonymDictionary, 'classesOf'>;

/** Stored pages compared per page, at most. */
const MAX_CANDIDATES = 5;
const MAX_EXAMPLES = 5;

interface SynonymComparison {
  readonly explained: number;
  readonly substituted: number;
  readonly examples: [string, string][];
}

/** Compares the page's content stems with a source's, through synonym classes. */
export function compareWithSynonyms(page: CascadeRecord, source: CascadeRecord, synonyms: SynonymLookup): SynonymComparison {
  const own = new Set(source.stems);
  const classes = new Map<number, string>();
  for (const s of source.stems) for (const id of synonyms.classesOf(source.language, s)) if (!classes.has(id)) classes.set(id, s);
  let equal = 0;
  let substituted = 0;
  const examples: [string, string][] = [];
  for (const s of page.stems) {
    if (own.has(s)) {
      equal++;
      continue;
    }
    for (const id of synonyms.classesOf(page.language, s)) {
      const from = classes.get(id);
      if (from === undefined) continue;
      substituted++;
      if (examples.length < MAX_EXAMPLES) examples.push([from, s]);
      break;
    }
  }
  const n = Math.max(1, page.stems.length);
  return { explained: (equal + substituted) / n, substituted: substituted / n, examples };
}

/** The `synonymised` flag of a page against the store, or null. */
export function synonymisedFlag(
  record: CascadeRecord,
  store: CascadeStore,
  synonyms: SynonymLookup,
  options: CascadeOptions['synonymised'],
): SynonymisedFlag | null {
  if (record.tagSketch === null || record.stems.length === 0) return null;
  // A loose pre-filter on shared sketch values; the Jaccard estimate below decides.
  const minShared = Math.max(1, Math.floor((options.minTagSimilarity * SKETCH_SIZE) / 2));
  let best: { page: StoredCascadePage; tag: number; cmp: SynonymComparison } | null = null;
  for (const page of store.grammarCandidates(record.tagSketch, minShared, MAX_CANDIDATES)) {
    const source = page.record;
    if (source.tagSketch === null || source.language !== record.language) continue;
    const tag = sketchJaccard(record.tagSketch, source.tagSketch, SKETCH_SIZE);
    if (tag < options.minTagSimilarity) continue;
    const cmp = compareWithSynonyms(record, source, synonyms);
    if (cmp.explained < options.minExplained || cmp.substituted < options.minSubstituted || cmp.substituted === 0) continue;
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
