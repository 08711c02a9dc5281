import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { extractHtml } from '../../src/extract/extract-page.js';
import { pagePrecision, pageRecall, scorePage } from '../../src/extract/extraction-score.js';

// Two pages of the article-extraction benchmark (see the folder's README): a quality floor on
// real markup, scored with the benchmark's metric. The full figures come from
// `npm run eval:extraction`.
const dir = join(import.meta.dirname, '..', 'fixtures', 'extract', 'real-pages');
const truth = JSON.parse(readFileSync(join(dir, 'ground-truth.json'), 'utf8')) as Record<string, { articleBody: string; url: string }>;

describe('real pages', () => {
  const files = readdirSync(dir).filter((f) => f.endsWith('.html.gz'));

  it('has the copied pages', () => {
    expect(files.length).toBe(Object.keys(truth).length);
  });

  for (const file of files) {
    const id = file.replace('.html.gz', '');
    it(`extracts ${id.slice(0, 8)} with precision and recall of at least 0.95`, () => {
      const html = gunzipSync(readFileSync(join(dir, file))).toString('utf8');
      const entry = truth[id]!;
      const page = extractHtml(html, entry.url);
      const score = scorePage(entry.articleBody, page.text);
      expect(pagePrecision(score)).toBeGreaterThanOrEqual(0.95);
      expect(pageRecall(score)).toBeGreaterThanOrEqual(0.95);
      expect(page.title).not.toBe('');
      expect(page.links.length).toBeGreaterThan(0);
    });
  }
});
