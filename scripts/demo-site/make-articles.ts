/**
 * Regenerates test/helpers/demo-site/articles.json: a dozen English article texts from
 * the dev pages of Scrapinghub's article-extraction benchmark (MIT licence; the committed copy of
 * their texts in test/fixtures/article-benchmark-dev), so that the demo and the crawl tests run
 * offline without the data set.
 *
 *   npx tsx scripts/demo-site/make-articles.ts
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadDevTruth } from '../../test/helpers/dev-texts.js';

const outPath = fileURLToPath(new URL('../../test/helpers/demo-site/articles.json', import.meta.url));

interface Truth {
  readonly articleBody: string;
  readonly url: string;
}

/** `https://x.com/2019/11/19/some-story-title.html` → `Some story title`. */
function titleFromUrl(url: string): string {
  const segments = new URL(url).pathname.split('/').filter((s) => /[a-z]{3,}-[a-z]/i.test(s));
  const slug = (segments.at(-1) ?? 'article').replace(/\.[a-z]+$/i, '').replace(/-\d+$/, '');
  const words = slug.split(/[-_]+/).filter((w) => w !== '' && !/^\d{4,}$/.test(w)).slice(0, 12);
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function slugOf(title: string): string {
  return title.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w !== '').slice(0, 6).join('-');
}

const truth: Record<string, Truth> = loadDevTruth();
const picked = Object.entries(truth)
  .filter(([, t]) => /^https?:\/\/(www\.)?[a-z]+\.(com|org)\//.test(t.url))
  .filter(([, t]) => t.articleBody.length >= 1500 && t.articleBody.length <= 4200)
  // Mostly ASCII: English pages.
  .filter(([, t]) => [...t.articleBody].filter((c) => c.charCodeAt(0) > 127).length < t.articleBody.length * 0.01)
  .sort(([a], [b]) => a.localeCompare(b))
  .slice(0, 12)
  .map(([id, t]) => {
    const title = titleFromUrl(t.url);
    return {
      id,
      slug: slugOf(title),
      title,
      sourceUrl: t.url,
      paragraphs: t.articleBody.split(/\n+/).map((p) => p.trim()).filter((p) => p !== ''),
    };
  });

writeFileSync(outPath, `${JSON.stringify({
  source: 'article-benchmark-dev (Scrapinghub article-extraction-benchmark, MIT licence)',
  articles: picked,
}, null, 1)}\n`);
process.stdout.write(`wrote ${picked.length} articles to ${outPath}\n`);
