/**
 * Text in, analysis out: normalise → tokens → language → stop words and stems → shingles →
 * feature hashes → simhash, with the text hash (analyze-normalized-text.ts does the work after
 * normalisation). Pure; safe in any thread. Composes src/text/ and src/fingerprint/.
 */
import type { Config } from '../config.js';
import { ValidationError, describeValue } from '../errors.js';
import { assertFingerprintParams } from '../fingerprint/fingerprint-params.js';
import { MAX_SKETCH_SIZE } from '../fingerprint/shingle-sketch.js';
import { normalizeText } from '../text/normalize-text.js';
import { NORMALIZER_VERSION } from '../text/normalizer-version.js';
import type { StemCache } from '../text/stem-cache.js';
import type { TokenTable } from '../text/token-table.js';
import type { FingerprintParams, TextAnalysis } from '../types.js';
import { analyzeNormalizedText, type TokenStems } from './analyze-normalized-text.js';

/** Stems kept across analyses: one per thread of a long run (see AnalyzeOptions.stemCache). */
export { StemCache } from '../text/stem-cache.js';

/** Options of {@link analyzeText} that do not change fingerprint values. */
export interface AnalyzeOptions {
  /**
   * Stems kept across calls; give one per thread to a long run (it serves the languages stemmed
   * through snowball-stemmers' code, the costliest per word). Without it each call memoises its own
   * document's stems.
   */
  readonly stemCache?: StemCache | undefined;
  /**
   * Values of the feature-set sketch to add to the analysis (the second stage's); 0 for none. The
   * page-level functions (analyzePage, …) take it from `config.verify` when this is not given.
   * @default 0
   */
  readonly sketchSize?: number | undefined;
  /**
   * Called once with the normalised text and its token table, so that a later stage on the same
   * page (the cascade's record, src/cascade/) reuses them instead of normalising and tokenising again.
   */
  readonly onTokens?: ((normalized: string, table: TokenTable, stems: TokenStems) => void) | undefined;
}

/** The fingerprint parameters of a config section, with this build's normaliser version. */
export function fingerprintParamsFrom(settings: Config['fingerprint']): FingerprintParams {
  return {
    distance: settings.distance,
    shingleSize: settings.shingleSize,
    hash: settings.hash,
    weighting: settings.weighting,
    normalizerVersion: NORMALIZER_VERSION,
  };
}

/** The shared check of fingerprint parameters, and this build's normaliser version. */
function assertAnalysisParams(params: FingerprintParams): void {
  assertFingerprintParams(params);
  const { normalizerVersion } = params;
  if (normalizerVersion !== NORMALIZER_VERSION) {
    throw new ValidationError(
      `Expected \`normalizerVersion\` to be ${NORMALIZER_VERSION} (this build's normaliser), got ${describeValue(normalizerVersion)}`,
    );
  }
}

/**
 * Text in, fingerprint out: normalise (NFKC, look-alike letters, lower case) → tokens by paragraph
 * → language → stop words and stems → shingles (within paragraphs) → feature hashes → simhash.
 * Pure; safe in any thread.
 */
export function analyzeText(text: string, params: FingerprintParams, options: AnalyzeOptions = {}): TextAnalysis {
  if (typeof text !== 'string') throw new ValidationError(`Expected \`text\` to be a string, got ${describeValue(text)}`);
  assertAnalysisParams(params);
  // The stages composed one by one (tokenizeParagraphs, detectLanguage, removeStopWordsAndStemParagraphs,
  // fingerprintParagraphs, textHash) give the same values; this path does each distinct token's work once.
  const sketchSize = options.sketchSize ?? 0;
  if (!Number.isInteger(sketchSize) || sketchSize < 0 || sketchSize > MAX_SKETCH_SIZE) {
    throw new ValidationError(`Expected \`sketchSize\` to be an integer 0–${MAX_SKETCH_SIZE}, got ${describeValue(sketchSize)}`);
  }
  return analyzeNormalizedText(normalizeText(text), params, options.stemCache, sketchSize, options.onTokens);
}
