/** One whole document (a text, or an HTML page's main text) in, its analysis out, refusing one without words. */
import { NoFeaturesError } from '../errors.js';
import type { FingerprintParams, TextAnalysis } from '../types.js';
import { analyzeText, type AnalyzeOptions } from './analyze-text.js';

/**
 * The analysis of `content` (HTML when `html`: its main text is analysed). Rejects with
 * NoFeaturesError, naming the document as `name`, when it has no words to fingerprint. The HTML
 * half (cheerio) is loaded only for HTML, so that a command given text does not pay for it.
 */
export async function analyzeDocument(content: string, params: FingerprintParams, html: boolean, name: string, options: AnalyzeOptions = {}): Promise<TextAnalysis> {
  const analysis = html ? (await import('./analyze-html.js')).analyzeHtml(content, params, undefined, options).analysis : analyzeText(content, params, options);
  if (analysis.fingerprint === null) {
    throw new NoFeaturesError(`${name} has no words to fingerprint${html ? ' (no main text found in the HTML)' : ''}`);
  }
  return analysis;
}
