/**
 * Real pages for measuring the `generated` stage's false flags (scripts/eval-generated.ts
 * `--real-pages`), read at run time and never trained on:
 * - `dev texts`: article-benchmark-dev's hand-made main texts (MIT), all 88;
 * - `dev extracted`: the same pages' HTML through neardup's own extraction, as a crawl sees them;
 * - `dragnet extracted`: dragnet-train's 966 pages (AGPL-3.0, read at run time only) through the
 *   same extraction.
 * Each text is judged in the language detected on it, as the pipeline does.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { extractParsedPage, parsePage } from '../src/analyze/analyze-page.js';
import { detectLanguage } from '../src/text/detect-language.js';
import { normalizeText } from '../src/text/normalize-text.js';

export interface RealText {
  readonly id: string;
  readonly text: string;
  readonly language: string;
}

const datasets = resolve(new URL('.', import.meta.url).pathname, '../../shared/datasets');

function withLanguage(id: string, text: string): RealText {
  return { id, text, language: detectLanguage(normalizeText(text.slice(0, 4000))) };
}

function truthTexts(folder: string): RealText[] {
  const path = join(folder, 'ground-truth.json');
  if (!existsSync(path)) return [];
  const truth = JSON.parse(readFileSync(path, 'utf8')) as Record<string, { articleBody: string }>;
  return Object.keys(truth).sort().map((id) => withLanguage(id, truth[id]!.articleBody.trim()));
}

function extractedTexts(folder: string): RealText[] {
  const html = join(folder, 'html');
  if (!existsSync(html)) return [];
  return readdirSync(html).filter((f) => f.endsWith('.html.gz')).sort().map((f) => {
    const source = gunzipSync(readFileSync(join(html, f))).toString('utf8');
    const page = extractParsedPage(parsePage(source), { url: `file://${join(html, f)}`, html: source });
    return withLanguage(f.replace(/\.html\.gz$/, ''), page.text);
  });
}

/** The real page sets by name (a set whose folder is missing is empty). */
export function realPageTexts(): Record<string, RealText[]> {
  const dev = join(datasets, 'article-benchmark-dev');
  return {
    'dev texts': truthTexts(dev),
    'dev extracted': extractedTexts(dev),
    'dragnet extracted': extractedTexts(join(datasets, 'dragnet-train')),
  };
}
