/** One whole document (a text, or an HTML page's main text) in, its analysis out, refusing one without words. */
import { NoFeaturesError } from '../errors.js';
import type { FingerprintParams, TextAnalysis } from '../types.js';
import { analyzeHtml, analyzeText } from './analyze-text.js';

/**
 * The analysis of `content` (HTML when `html`: its main text is analysed). Throws NoFeaturesError,
 * naming the document as `name`, when it has no words to fingerprint.
 */
export function analyzeDocument(content: string, params: FingerprintParams, html: boolean, name: string): TextAnalysis {
  const analysis = html ? analyzeHtml(content, params).analysis : analyzeText(content, params);
  if (analysis.fingerprint === null) {
    throw new NoFeaturesError(`${name} has no words to fingerprint${html ? ' (no main text found in the HTML)' : ''}`);
  }
  return analysis;
}
