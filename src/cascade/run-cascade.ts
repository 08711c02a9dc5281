/**
 * The cascade of offline filters, per page: `homoglyph` and `generated` judge the page alone;
 * `synonymised` and `compiled` compare it with the stored pages of a CascadeStore (read here, never
 * written: the caller adds the returned record once the index has stored the page). Each stage runs
 * unless turned off in the `cascade` config section.
 */
import type { StemCache } from '../text/stem-cache.js';
import type { CascadeFlag, TextAnalysis } from '../types.js';
import type { CascadeOptions } from './cascade-options.js';
import { cascadeRecord, cascadeRecordOfTable, type CascadeRecord } from './cascade-record.js';
import type { TokenTable } from '../text/token-table.js';
import type { TokenStems } from '../analyze/analyze-normalized-text.js';
import type { CascadeStore } from './cascade-store.js';
import { compiledFlag, type CompiledJudgement } from './compiled-flag.js';
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

/** Whether the stages comparing with stored pages (`synonymised`, `compiled`) are on. */
export function comparingStagesOn(options: CascadeOptions): boolean {
  return options.synonymised.enabled || options.compiled.enabled;
}

/** Whether any stage is on. */
export function cascadeOn(options: CascadeOptions): boolean {
  return options.homoglyph.enabled || options.generated.enabled || comparingStagesOn(options);
}

/**
 * The page's own half of the cascade (pure; runs where the page is analysed, a worker thread in
 * batch dedup): the `homoglyph` and `generated` flags, and the record the comparing stages need
 * (null when neither is on). `table`: the analysis's token table of the normalised text, when the
 * caller captured it (AnalyzeOptions.onTokens); else it is made from `normalized` or the text.
 */
export function localCascade(
  analysis: TextAnalysis,
  context: Omit<CascadeContext, 'store' | 'synonyms'> & { readonly table?: TokenTable | undefined; readonly tokenStems?: TokenStems | undefined },
): CascadeResult {
  const { text, options, normalized, stemCache, table, tokenStems } = context;
  const flags: CascadeFlag[] = [];
  if (options.homoglyph.enabled) pushFlag(flags, homoglyphFlag(text, options.homoglyph));
  // The table (or `normalized`) is the normalised form of this same text: generated reads it instead of normalising again.
  if (options.generated.enabled) pushFlag(flags, generatedFlag(text, analysis.language, options.generated, undefined, table?.text ?? normalized));
  if (!comparingStagesOn(options) || analysis.tokenCount === 0) return { flags, record: null };
  const recordOptions = { tagger: options.synonymised.tagger, stemCache, tokenStems };
  const record = table === undefined
    ? cascadeRecord(text, analysis.language, recordOptions, normalized)
    : cascadeRecordOfTable(table, text, analysis.language, recordOptions);
  return { flags, record };
}

/**
 * The comparing half (needs the stored pages): `synonymised` and `compiled` flags of a page's record.
 * `judgement`: filled in by the `compiled` stage (compiled-flag.ts).
 */
export function compareCascade(record: CascadeRecord, store: CascadeStore, synonyms: SynonymLookup | undefined, options: CascadeOptions, judgement?: CompiledJudgement): CascadeFlag[] {
  const flags: CascadeFlag[] = [];
  if (options.synonymised.enabled && synonyms !== undefined) pushFlag(flags, synonymisedFlag(record, store, synonyms, options.synonymised));
  if (options.compiled.enabled) pushFlag(flags, compiledFlag(record, store, options.compiled, { judgement }));
  return flags;
}

function pushFlag(flags: CascadeFlag[], flag: CascadeFlag | null): void {
  if (flag !== null) flags.push(flag);
}

/** Runs the cascade on one analysed page: both halves. */
export function runCascade(analysis: TextAnalysis, context: CascadeContext): CascadeResult {
  const { store, synonyms, options } = context;
  const local = localCascade(analysis, context);
  if (local.record === null || store === undefined) return local;
  return { flags: [...local.flags, ...compareCascade(local.record, store, synonyms, options)], record: local.record };
}
