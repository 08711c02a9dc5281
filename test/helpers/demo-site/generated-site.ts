/**
 * A generated local site of N pages with mirrors, for scripts/bench-crawl.ts and the crawl tests:
 *
 * - on 127.0.0.1: a home page, list pages of 50 links, and the original articles (texts of
 *   300–600 words drawn with a seeded PRNG from the vocabulary of the demo articles), each
 *   linking to the next three articles;
 * - on localhost: a home page and list pages linking to the mirror pages, a fifth of all pages:
 *   byte copies, re-templated copies and copies with one word changed, in turn.
 *
 * Every page is reachable through list pages (too short to judge, so their links are always
 * followed), so a crawl with deduplication and one without fetch the same pages.
 */
import { dailySamplePage, loadDemoArticles, mainHost, mirrorHost, mirrorTimesPage } from './demo-site.js';
import { escapeHtml } from '../../../src/report/html-escape.js';
import { startFixtureSite } from '../fixture-site.js';
import type { FixtureSite } from '../fixture-site.js';
import { seededRandom } from '../seeded-random.js';

export interface GeneratedSiteOptions {
  /** Article pages in all, originals and mirrors (list and home pages not counted). @default 2000 */
  readonly pages?: number;
  /** Share of the pages that are mirror copies. @default 0.2 */
  readonly mirrorShare?: number;
  /** PRNG seed. @default 1 */
  readonly seed?: number;
  /**
   * Host names of the originals, which are dealt to them in turn, each with its own home and list
   * pages; IPv4 loopback addresses other than 127.0.0.1 are listened on. @default ['127.0.0.1']
   */
  readonly mainHosts?: readonly string[];
  /** Host names of the mirror copies, likewise. @default ['localhost'] */
  readonly mirrorHosts?: readonly string[];
}

export interface GeneratedSite {
  readonly site: FixtureSite;
  /** Seeds: the home pages (one per host). */
  readonly seeds: readonly string[];
  readonly originals: readonly string[];
  /** mirror URL → original URL */
  readonly mirrors: ReadonlyMap<string, string>;
  /** Every URL the site serves as a page (articles, lists, homes). */
  readonly allPages: readonly string[];
}

function vocabulary(): string[] {
  const words = new Set<string>();
  for (const article of loadDemoArticles()) {
    for (const p of article.paragraphs) for (const w of p.toLowerCase().match(/[a-z]{3,}/g) ?? []) words.add(w);
  }
  return [...words];
}

function makeParagraphs(random: () => number, words: readonly string[]): string[] {
  const total = 300 + Math.floor(random() * 300);
  const paragraphs: string[] = [];
  let left = total;
  while (left > 0) {
    const sentences: string[] = [];
    for (let s = 0; s < 4 && left > 0; s++) {
      const n = Math.min(left, 8 + Math.floor(random() * 12));
      left -= n;
      const sentence = Array.from({ length: n }, () => words[Math.floor(random() * words.length)]!).join(' ');
      sentences.push(`${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`);
    }
    paragraphs.push(sentences.join(' '));
  }
  return paragraphs;
}

function listPage(title: string, links: readonly string[], next: string | null): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>
<h1>${escapeHtml(title)}</h1><ul>${links.map((href, i) => `<li><a href="${escapeHtml(href)}">Story ${i + 1}</a></li>`).join('')}</ul>
${next === null ? '' : `<a href="${escapeHtml(next)}">Next page</a>`}</body></html>`;
}

/** Starts the generated site on a random port. */
export async function startGeneratedSite(options: GeneratedSiteOptions = {}): Promise<GeneratedSite> {
  const pages = options.pages ?? 2000;
  const mirrorCount = Math.round(pages * (options.mirrorShare ?? 0.2));
  const originalCount = pages - mirrorCount;
  const random = seededRandom(options.seed ?? 1);
  const words = vocabulary();
  const mainHosts = options.mainHosts ?? [mainHost];
  const mirrorHosts = options.mirrorHosts ?? [mirrorHost];
  const addresses = [...mainHosts, ...mirrorHosts].filter((host) => /^127\.\d+\.\d+\.\d+$/.test(host) && host !== '127.0.0.1');
  const site = await startFixtureSite({}, { addresses });
  const html = (body: string) => ({ body, headers: { 'content-type': 'text/html; charset=utf-8' } });
  const allPages: string[] = [];
  const serve = (host: string, path: string, body: string) => {
    site.setRoute(host, path, html(body));
    allPages.push(site.url(host, path));
  };

  // The links every template carries.
  for (const path of ['/about.html', '/privacy.html', '/subscribe', '/terms']) {
    site.setRoute('*', path, html(listPage(path.slice(1), [], null)));
  }

  const originalPath = (i: number) => `/a/${i}.html`;
  const originalHost = (i: number) => mainHosts[i % mainHosts.length]!;
  const mirrorHostOf = (j: number) => mirrorHosts[j % mirrorHosts.length]!;
  const texts: { title: string; paragraphs: string[]; html: string }[] = [];
  for (let i = 0; i < originalCount; i++) {
    const title = `Story ${i}: ${words[Math.floor(random() * words.length)]} and ${words[Math.floor(random() * words.length)]}`;
    const paragraphs = makeParagraphs(random, words);
    // Absolute links, so that byte copies on the mirror host link to the originals, as copies do.
    const related = [1, 2, 3].map((k) => ({ href: site.url(originalHost((i + k) % originalCount), originalPath((i + k) % originalCount)), title: `Story ${(i + k) % originalCount}` }));
    const body = dailySamplePage({ title, paragraphs, related });
    texts.push({ title, paragraphs, html: body });
    serve(originalHost(i), originalPath(i), body);
  }

  const mirrors = new Map<string, string>();
  const mirrorPaths: string[] = [];
  for (let j = 0; j < mirrorCount; j++) {
    const source = Math.floor((j * originalCount) / Math.max(1, mirrorCount));
    const original = texts[source]!;
    const path = `/m/${j}.html`;
    let body: string;
    if (j % 3 === 0) {
      body = original.html;
    } else if (j % 3 === 1) {
      body = mirrorTimesPage({ title: original.title, paragraphs: original.paragraphs });
    } else {
      const edited = [...original.paragraphs];
      edited[0] = edited[0]!.replace(/\b[a-z]{4,}\b/, 'changed');
      body = mirrorTimesPage({ title: original.title, paragraphs: edited, note: 'Updated.' });
    }
    serve(mirrorHostOf(j), path, body);
    mirrors.set(site.url(mirrorHostOf(j), path), site.url(originalHost(source), originalPath(source)));
    mirrorPaths.push(path);
  }

  const lists = (host: string, prefix: string, targets: readonly string[]) => {
    const perPage = 50;
    const count = Math.max(1, Math.ceil(targets.length / perPage));
    for (let k = 0; k < count; k++) {
      const path = `/${prefix}/${k}.html`;
      serve(host, path, listPage(`${prefix} ${k}`, targets.slice(k * perPage, (k + 1) * perPage), k + 1 < count ? `/${prefix}/${k + 1}.html` : null));
    }
    serve(host, '/', listPage(`${host} home`, Array.from({ length: count }, (_, k) => `/${prefix}/${k}.html`), null));
  };
  mainHosts.forEach((host, h) => {
    lists(host, 'list', Array.from({ length: originalCount }, (_, i) => i).filter((i) => originalHost(i) === host && i % mainHosts.length === h).map(originalPath));
  });
  mirrorHosts.forEach((host, h) => {
    lists(host, 'mlist', mirrorPaths.filter((_, j) => j % mirrorHosts.length === h));
  });

  return {
    site,
    seeds: [...mainHosts.map((host) => site.url(host, '/')), ...mirrorHosts.map((host) => site.url(host, '/'))],
    originals: Array.from({ length: originalCount }, (_, i) => site.url(originalHost(i), originalPath(i))),
    mirrors,
    allPages,
  };
}
