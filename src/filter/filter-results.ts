/**
 * Collapses near-duplicate results of one result list under the best-ranked of them, as strictly
 * as the query's class asks. Results are taken in rank order; each is compared with the results
 * kept so far, in rank order, and listed as a duplicate of the first whose annotation similarity
 * reaches the class's threshold; otherwise it is kept. A duplicate is therefore always within the
 * threshold of the result it is listed under (no chains through collapsed results).
 *
 * Similarity is the Jaccard coefficient of the annotation word sets (annotation-words.ts). A pair
 * just under the threshold t — at least t × (1 − criticalMargin) — is compared again with synonyms
 * (jaccard.ts's synonymJaccard) when a synonym dictionary is given. The margin is relative because
 * replacing a share r of the words scales a pair's Jaccard by about (1 − r) / (1 + r), whatever it
 * was; an absolute margin would also send every unrelated pair (Jaccard near 0) to the synonym pass
 * under a low threshold.
 */
import { detectLanguage } from '../text/detect-language.js';
import type { SynonymDictionary } from '../synonyms/synonym-dictionary.js';
import { annotationText, annotationWordSets, type Annotation } from './annotation-words.js';
import { classifyQuery } from './classify-query.js';
import { jaccard, synonymJaccard } from './jaccard.js';
import { PrefixIndex, prefixOf, rarityRanks } from './prefix-filter.js';
import type { QueryClass, StrictnessLevel } from './query-class.js';

/** One search result; fields other than these are carried through unchanged. */
export interface SearchResult extends Annotation {
  readonly url: string;
  readonly [field: string]: unknown;
}

/** A query and its results in rank order. */
export interface ResultList {
  readonly query: string;
  readonly results: readonly SearchResult[];
}

/** A result collapsed under a kept one. */
export interface DuplicateResult {
  readonly url: string;
  /** Jaccard of the two annotations (with synonyms when `synonyms` is true). */
  readonly similarity: number;
  /** Whether the synonym pass made it a duplicate (its plain Jaccard was under the threshold). */
  readonly synonyms: boolean;
}

export type KeptResult = SearchResult & { readonly duplicates: readonly DuplicateResult[] };

export interface FilteredList {
  readonly query: string;
  readonly class: QueryClass;
  readonly level: StrictnessLevel;
  readonly threshold: number;
  /** The classifier's rules that matched (empty when the class was given). */
  readonly rules: readonly string[];
  /** Language the annotations were stemmed for (ISO 639-3, 'und' when unknown). */
  readonly language: string;
  readonly results: readonly KeptResult[];
  /** Results past `settings.maxResults`, passed through unfiltered (kept, compared with nothing); 0 mostly. */
  readonly unfiltered: number;
}

/** The `filter` section of the configuration. */
export interface FilterSettings {
  readonly thresholds: Readonly<Record<StrictnessLevel, number>>;
  readonly classLevels: Readonly<Record<QueryClass, StrictnessLevel>>;
  /** Relative: a pair with plain Jaccard in [threshold × (1 − margin), threshold) gets the synonym pass. */
  readonly criticalMargin: number;
  readonly synonyms: boolean;
  readonly synonymFile: string;
  readonly language: string;
  /**
   * Results of one list compared, at most (the first ones in rank order); the rest are passed
   * through unfiltered and counted in `unfiltered`. Bounds one line's work whatever its length.
   */
  readonly maxResults: number;
}

export interface FilterOptions {
  /** Thresholds, levels, margin and language (config `filter`). */
  readonly settings: FilterSettings;
  /** The class to use instead of the detected one. @default the classifier's */
  readonly queryClass?: QueryClass | undefined;
  /** Dictionary for the synonym pass; without one (or with settings.synonyms false) only plain Jaccard. */
  readonly synonyms?: SynonymDictionary | undefined;
}

/** Characters of the query and annotations examined to detect the list's language. */
const LANGUAGE_SAMPLE_CHARS = 1024;

/**
 * The list's language: one for the whole list, so that every annotation is stemmed alike (a
 * snippet alone is often too short for the detector, and two copies stemmed for two languages
 * would not match).
 */
export function listLanguage(list: ResultList, setting: string): string {
  if (setting !== 'auto') return setting;
  let sample = list.query;
  for (const result of list.results) {
    if (sample.length >= LANGUAGE_SAMPLE_CHARS) break;
    sample += `\n${annotationText(result)}`;
  }
  return detectLanguage(sample, { maxChars: LANGUAGE_SAMPLE_CHARS });
}

/** Synonym classes per word id of the list, looked up on first use. */
function classesByWord(dictionary: SynonymDictionary, language: string, stems: readonly string[]): (id: number) => readonly number[] {
  const cache = new Array<readonly number[] | undefined>(stems.length);
  return (id) => (cache[id] ??= dictionary.classesOf(language, stems[id]!));
}

/** Filters one result list (see the module comment). */
export function filterResults(list: ResultList, options: FilterOptions): FilteredList {
  const { settings } = options;
  const classification = options.queryClass === undefined ? classifyQuery(list.query) : undefined;
  const cls = options.queryClass ?? classification!.class;
  const level = settings.classLevels[cls];
  const threshold = settings.thresholds[level];
  const language = listLanguage(list, settings.language);
  const { sets, stems } = annotationWordSets(list.results, language);
  const dictionary = settings.synonyms ? options.synonyms : undefined;
  const classesOf = dictionary === undefined ? undefined : classesByWord(dictionary, language, stems);
  const critical = threshold * (1 - settings.criticalMargin);
  // A pair can be a duplicate only when its plain Jaccard reaches this (the synonym pass is tried
  // from `critical` up), so only pairs sharing one of their prefix words are compared (prefix-filter.ts).
  const minSimilarity = classesOf === undefined ? threshold : Math.min(threshold, critical);
  const compared = Math.min(list.results.length, settings.maxResults);
  const ranks = rarityRanks(sets.slice(0, compared), stems.length);
  // With a critical margin of 1 every pair gets the synonym pass, even one sharing no word: all compared.
  const index = minSimilarity > 0 ? new PrefixIndex(stems.length, compared) : null;
  const kept: number[] = [];
  const duplicates: DuplicateResult[][] = [];
  for (let i = 0; i < compared; i++) {
    const prefix = index === null ? null : prefixOf(sets[i]!, ranks, minSimilarity);
    const candidates = index === null ? kept : index.candidates(prefix!);
    let found = false;
    for (const k of candidates) {
      let similarity = jaccard(sets[i]!, sets[k]!);
      let synonyms = false;
      if (similarity < threshold && classesOf !== undefined && similarity >= critical) {
        similarity = synonymJaccard(sets[i]!, sets[k]!, classesOf).similarity;
        synonyms = true;
      }
      if (similarity >= threshold) {
        duplicates[k]!.push({ url: list.results[i]!.url, similarity, synonyms });
        found = true;
        break;
      }
    }
    if (!found) {
      kept.push(i);
      duplicates[i] = [];
      index?.add(i, prefix!);
    }
  }
  // Past the cap, results are passed through as they are: kept, compared with nothing.
  for (let i = compared; i < list.results.length; i++) {
    kept.push(i);
    duplicates[i] = [];
  }
  return {
    query: list.query,
    class: cls,
    level,
    threshold,
    rules: classification?.rules ?? [],
    language,
    results: kept.map((k) => ({ ...list.results[k]!, duplicates: duplicates[k]! })),
    unfiltered: list.results.length - compared,
  };
}
