/**
 * HTML in: the page's main text (src/extract/, cheerio) and its analysis. Apart from
 * analyze-text.ts so that analysing plain text never loads cheerio (a short command's start-up).
 */
import { extractHtml } from '../extract/extract-page.js';
import type { ExtractedPage, FingerprintParams, TextAnalysis } from '../types.js';
import { analyzeText, type AnalyzeOptions } from './analyze-text.js';

/** HTML in: the page's main text (src/extract/) and its analysis. */
export function analyzeHtml(html: string, params: FingerprintParams, url?: string, options: AnalyzeOptions = {}): { page: ExtractedPage; analysis: TextAnalysis } {
  const page = extractHtml(html, url);
  return { page, analysis: analyzeText(page.text, params, options) };
}
