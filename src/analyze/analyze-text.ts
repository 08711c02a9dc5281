/**
 * Text in, analysis out: normalise → tokens → language → stop words and stems → shingles →
 * feature hashes → simhash, with the text hash (analyze-normalized-text.ts does the work after
 * normalisation). Pure; safe in any thread. Composes src/text/ and src/fingerprint/.
 */
import type { Config } from '../config.js';
import { ValidationError, describeValue } from '../errors.js';
import { extractHtml } from '../extract/extract-page.js';
import { assertFingerprintParams } from '../fingerprint/fingerprint-params.js';
import { normalizeText } from '../text/normalize-text.js';
import { NORMALIZER_VERSION } from '../text/normalizer-version.js';
import type { StemCache } from '../text/stem-cache.js';
import type { ExtractedPage, FingerprintParams, TextAnalysis } from '../types.js';
import { analyzeNormalizedText } from './analyze-normalized-text.js';

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
  return analyzeNormalizedText(normalizeText(text), params, options.stemCache);
}

/** HTML in: the page's main text (src/extract/) and its analysis. */
export function analyzeHtml(html: string, params: FingerprintParams, url?: string, options: AnalyzeOptions = {}): { page: ExtractedPage; analysis: TextAnalysis } {
  const page = extractHtml(html, url);
  return { page, analysis: analyzeText(page.text, params, options) };
}
