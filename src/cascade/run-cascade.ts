/**
 * The cascade of offline filters, per page: `homoglyph` and `generated` judge the page alone;
 * `synonymised` and `compiled` compare it with the stored pages of a CascadeStore (read here, never
 * written: the caller adds the returned record once the index has stored the page). Each stage runs
 * unless turned off in the `cascade` config section.
 */
import type { StemCache } from '../text/stem-cache.js';
import type { CascadeFlag, TextAnalysis } from '../types.js';
import type { CascadeOptions } from './cascade-options.js';
import { cascadeRecord, type CascadeRecord } from './cascade-record.js';
import type { CascadeStore } from './cascade-store.js';
import { compiledFlag } from './compiled-flag.js';
import { generatedFlag } from './generated-flag.js';
import { homoglyphFlag } from './homoglyph-words.js';
import { synonymisedFlag, type SynonymLookup } from './synonymised-flag.js';

export interface CascadeContext {
  /** The page's main text as extracted (before normalisation: look-alike letters still there). */
  readonly text: string;
  readonly options: CascadeOptions;
  /** Stored pages' records; without it `synonymised` and `compiled` do not run. */
  readonly store?: CascadeStore | undefined;
  /** Synonym classes (loadSynonymDictionary()); without it `synonymised` does not run. */
  readonly synonyms?: SynonymLookup | undefined;
  /**
   * normalizeText(text), when the caller has it (the analysis made it): the record then does not
   * normalise the text again.
   */
  readonly normalized?: string | undefined;
  /** The analysis's stem cache (one per thread), shared so that stems are not computed again. */
  readonly stemCache?: StemCache | undefined;
}

export interface CascadeResult {
  /** Flags in stage order (homoglyph, generated, synonymised, compiled). */
  readonly flags: readonly CascadeFlag[];
  /** The page's record for the store, or null when neither comparing stage is on. */
  readonly record: CascadeRecord | null;
}

/** Runs the cascade on one analysed page. */
export function runCascade(analysis: TextAnalysis, context: CascadeContext): CascadeResult {
  const { text, options, store, synonyms, normalized, stemCache } = context;
  const flags: CascadeFlag[] = [];
  const push = (flag: CascadeFlag | null): void => {
    if (flag !== null) flags.push(flag);
  };
  if (options.homoglyph.enabled) push(homoglyphFlag(text, options.homoglyph));
  if (options.generated.enabled) push(generatedFlag(text, analysis.language, options.generated));
  const comparing = options.synonymised.enabled || options.compiled.enabled;
  const record = comparing && analysis.tokenCount > 0 ? cascadeRecord(text, analysis.language, { tagger: options.synonymised.tagger, stemCache }, normalized) : null;
  if (record !== null && store !== undefined) {
    if (options.synonymised.enabled && synonyms !== undefined) push(synonymisedFlag(record, store, synonyms, options.synonymised));
    if (options.compiled.enabled) push(compiledFlag(record, store, options.compiled));
  }
  return { flags, record };
}
