/**
 * The demo site: a small news site on 127.0.0.1 ("The Daily Sample") and, on the second host
 * name `localhost` of the same server, a site that mirrors it ("Mirror Times"):
 *
 * - byte copies of four articles (`/copy/<slug>.html`, the original HTML unchanged);
 * - three articles re-published in Mirror Times' own page template (`/archive/<slug>`);
 * - two edited copies (`/edited/<slug>`): one with look-alike Cyrillic letters put in for Latin
 *   ones in every other word, one with a typo;
 * - three articles of its own that appear nowhere else (kept: different text, same template);
 * - under each byte copy, a comments page linked only from that copy: a crawl that does not
 *   follow links on rejected pages never fetches it.
 *
 * The original site adds what a real crawl meets: a robots.txt-disallowed folder, a 404, a PDF,
 * an old URL that redirects to an article, and a page in Russian served as windows-1251 with the
 * charset only in `<meta>`.
 *
 * Article texts: test/helpers/demo-site/articles.json (from the article-benchmark-dev pages, MIT).
 * Used by `npm start` (scripts/demo.ts), the crawl tests and scripts/bench-crawl.ts.
 */
import { readFileSync } from 'node:fs';
import iconv from 'iconv-lite';
import { startFixtureSite } from '../fixture-site.js';
import type { FixtureResponse, FixtureSite } from '../fixture-site.js';
import { escapeHtml } from '../../../src/report/html-escape.js';

export interface DemoArticle {
  readonly id: string;
  readonly slug: string;
  readonly title: string;
  readonly sourceUrl: string;
  readonly paragraphs: readonly string[];
}

/** The dozen article texts bundled with the demo. */
export function loadDemoArticles(): DemoArticle[] {
  const raw = readFileSync(new URL('./articles.json', import.meta.url), 'utf8');
  return (JSON.parse(raw) as { articles: DemoArticle[] }).articles;
}

/** The two hosts of the demo: the original site and its mirror. */
export const mainHost = '127.0.0.1';
export const mirrorHost = 'localhost';

/** Template A, The Daily Sample: header, cookie banner, nav, article, related stories, share bar, footer. */
export function dailySamplePage(options: {
  readonly title: string;
  readonly paragraphs: readonly string[];
  readonly canonical?: string;
  readonly related?: readonly { readonly href: string; readonly title: string }[];
  readonly extraLinks?: readonly { readonly href: string; readonly title: string }[];
  readonly byline?: string;
  readonly date?: string;
}): string {
  const related = (options.related ?? []).map((r) => `<li><a href="${escapeHtml(r.href)}">${escapeHtml(r.title)}</a></li>`).join('');
  const extra = (options.extraLinks ?? []).map((r) => `<p class="see-also">See also: <a href="${escapeHtml(r.href)}">${escapeHtml(r.title)}</a></p>`).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(options.title)} | The Daily Sample</title>
${options.canonical === undefined ? '' : `<link rel="canonical" href="${escapeHtml(options.canonical)}">`}
<style>body{font-family:serif;max-width:46em;margin:auto}</style>
</head>
<body>
<div class="cookie-banner">We use cookies to improve your experience. <button>Accept all cookies</button></div>
<header class="site-header"><a href="/" class="logo">The Daily Sample</a>
<nav class="main-nav"><ul><li><a href="/">Home</a></li><li><a href="/#world">World</a></li><li><a href="/#tech">Tech</a></li><li><a href="/about.html">About us</a></li></ul></nav>
</header>
<main>
<article>
<h1>${escapeHtml(options.title)}</h1>
<p class="byline">By ${escapeHtml(options.byline ?? 'Staff reporter')}${options.date === undefined ? '' : ` · <time datetime="${options.date}">${options.date}</time>`}</p>
${options.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${extra}
</article>
<aside class="related-stories"><h2>Related stories</h2><ul>${related}</ul></aside>
<div class="share-bar">Share this story: <a href="#">Facebook</a> <a href="#">Twitter</a> <a href="#">Email</a></div>
</main>
<footer class="site-footer"><p>© 2019 The Daily Sample. All rights reserved.</p><p><a href="/about.html">About</a> · <a href="/privacy.html">Privacy</a></p></footer>
</body>
</html>
`;
}

/** Template B, Mirror Times: a different layout, sidebar and footer around the same kind of text. */
export function mirrorTimesPage(options: {
  readonly title: string;
  readonly paragraphs: readonly string[];
  readonly canonical?: string;
  readonly note?: string;
}): string {
  return `<!DOCTYPE html>
<html lang="en-GB"><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8">
<title>Mirror Times — ${escapeHtml(options.title)}</title>
${options.canonical === undefined ? '' : `<link rel="canonical" href="${escapeHtml(options.canonical)}">`}
</head>
<body class="mt">
<div id="top-bar"><span>Mirror Times</span> | <a href="/">Front page</a> | <a href="/subscribe">Subscribe for £1</a></div>
<div id="layout">
<div id="sidebar"><h3>Most read</h3><ol><li><a href="/">Front page</a></li><li><a href="/subscribe">Newsletter</a></li></ol>
<div class="ad">Advertisement</div></div>
<div id="content">
<div class="story">
<h2 class="headline">${escapeHtml(options.title)}</h2>
${options.note === undefined ? '' : `<div class="update-note"><em>${escapeHtml(options.note)}</em></div>`}
<div class="story-body">
${options.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
</div>
</div>
<div id="comments"><h4>Comments (0)</h4><p>Log in to comment.</p></div>
</div>
</div>
<div id="bottom">Mirror Times · Copyright notices · <a href="/terms">Terms</a></div>
</body></html>
`;
}

/** A short text in Russian (written for the demo), served as windows-1251. */
const russianTitle = 'Погода в Москве: первый снег и гололёд';
const russianParagraphs = [
  'В среду в Москве выпал первый снег. Синоптики предупреждают, что ночью температура опустится до минус пяти градусов, а на дорогах образуется гололёд.',
  'Городские службы вывели на улицы более десяти тысяч единиц техники. Водителей просят не пересаживаться на летнюю резину и соблюдать дистанцию.',
  'По словам специалистов, настоящая зима придёт в столицу только в середине декабря, а до тех пор снег будет таять днём и замерзать по ночам.',
];

/** What the demo site holds, for printing and for tests. */
export interface DemoManifest {
  readonly mainHome: string;
  readonly mirrorHome: string;
  /** Original article URLs on the main host (unique text). */
  readonly originals: readonly string[];
  /** Articles only the mirror has (unique text). */
  readonly mirrorOriginals: readonly string[];
  /** Mirror URL → the original it copies, by kind of copy. */
  readonly byteCopies: ReadonlyMap<string, string>;
  readonly retemplated: ReadonlyMap<string, string>;
  readonly edited: ReadonlyMap<string, string>;
  /** Pages linked only from byte copies: never fetched when rejected pages' links are not followed. */
  readonly onlyLinkedFromCopies: readonly string[];
  /** The old URL that redirects to an article, and that article. */
  readonly redirect: { readonly from: string; readonly to: string };
  readonly robotsDisallowed: string;
  readonly notFound: string;
  readonly pdf: string;
  readonly russian: string;
  readonly russianTitle: string;
}

export interface DemoSite {
  readonly site: FixtureSite;
  readonly manifest: DemoManifest;
}

/** A typo: one letter dropped from the second long word of the longest paragraph. */
function withTypo(paragraphs: readonly string[]): string[] {
  const longest = paragraphs.reduce((best, p, i) => (p.length > paragraphs[best]!.length ? i : best), 0);
  return paragraphs.map((p, i) => {
    if (i !== longest) return p;
    let seen = 0;
    return p.replace(/\b[a-z]{7,}\b/g, (word) => (seen++ === 1 ? word.slice(0, 3) + word.slice(4) : word));
  });
}

/** Letter substitution: Latin a, e, o, p, c replaced by the Cyrillic letters that look the same, in every other word. */
function withHomoglyphs(paragraphs: readonly string[]): string[] {
  const lookalike: Record<string, string> = { a: 'а', e: 'е', o: 'о', p: 'р', c: 'с' };
  return paragraphs.map((p) => {
    let n = 0;
    return p.replace(/\b[a-z]+\b/g, (word) => (n++ % 2 === 0 ? word.replace(/[aeopc]/g, (ch) => lookalike[ch]!) : word));
  });
}

/** Starts the demo site on a random port of 127.0.0.1 / localhost. */
export async function startDemoSite(): Promise<DemoSite> {
  const articles = loadDemoArticles();
  if (articles.length < 12) throw new Error(`expected 12 demo articles, found ${articles.length}`);
  const site = await startFixtureSite({});
  const main = (path: string) => site.url(mainHost, path);
  const mirror = (path: string) => site.url(mirrorHost, path);
  const html = (body: string): FixtureResponse => ({ body, headers: { 'content-type': 'text/html; charset=utf-8' } });

  const onMain = articles.slice(0, 9);
  const byteCopied = articles.slice(0, 4);
  const retemplated = articles.slice(4, 7);
  const edited = articles.slice(7, 9);
  const mirrorOwn = articles.slice(9, 12);
  const articlePath = (a: DemoArticle) => `/news/${a.slug}.html`;
  const articleHtml = new Map<string, string>();

  // ---- The Daily Sample (127.0.0.1)
  onMain.forEach((article, i) => {
    const related = [1, 2, 3].map((k) => onMain[(i + k) % onMain.length]!).map((a) => ({ href: articlePath(a), title: a.title }));
    const extraLinks = i === 0
      ? [{ href: '/files/annual-report.pdf', title: 'the annual report (PDF)' }, { href: '/news/removed-story.html', title: 'an earlier story' }]
      : [];
    const body = dailySamplePage({
      title: article.title,
      paragraphs: article.paragraphs,
      canonical: main(articlePath(article)),
      related,
      extraLinks,
      date: `2019-11-${String(10 + i).padStart(2, '0')}`,
    });
    articleHtml.set(article.slug, body);
    site.setRoute(mainHost, articlePath(article), html(body));
  });
  const russianPath = '/world/moscow-weather.html';
  const russianHtml = `<!doctype html><html lang="ru"><head><meta charset="windows-1251"><title>${russianTitle}</title></head>
<body><header><a href="/">The Daily Sample</a></header><main><article><h1>${russianTitle}</h1>
${russianParagraphs.map((p) => `<p>${p}</p>`).join('\n')}
</article></main><footer>© 2019</footer></body></html>`;
  // The charset is only in <meta>: the header says text/html without one.
  site.setRoute(mainHost, russianPath, { body: iconv.encode(russianHtml, 'windows-1251'), headers: { 'content-type': 'text/html' } });
  const oldPath = `/old/story?id=${onMain[0]!.id.slice(0, 8)}`;
  site.setRoute(mainHost, oldPath, { status: 301, redirect: articlePath(onMain[0]!) });
  site.setRoute(mainHost, '/files/annual-report.pdf', { body: new Uint8Array(Buffer.from('%PDF-1.4\n% demo\n')), headers: { 'content-type': 'application/pdf' } });
  site.setRoute(mainHost, '/private/drafts.html', html(dailySamplePage({ title: 'Drafts', paragraphs: ['Not for robots.'] })));
  for (const [path, title, text] of [
    ['/about.html', 'About us', 'The Daily Sample is a demo news site.'],
    ['/privacy.html', 'Privacy', 'We keep no data.'],
  ] as const) {
    site.setRoute(mainHost, path, html(dailySamplePage({ title, paragraphs: [text] })));
  }
  site.setRoute(mainHost, '/robots.txt', { body: 'User-agent: *\nDisallow: /private/\n', headers: { 'content-type': 'text/plain' } });
  site.setRoute(mainHost, '/', html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>The Daily Sample</title></head><body>
<header><a href="/">The Daily Sample</a></header>
<h1>Latest stories</h1>
<ul>${onMain.map((a) => `<li><a href="${articlePath(a)}">${escapeHtml(a.title)}</a></li>`).join('\n')}
<li><a href="${russianPath}">${russianTitle}</a></li>
<li><a href="${escapeHtml(oldPath)}">From the archive</a></li>
<li><a href="/private/drafts.html">Drafts</a></li></ul>
<footer>© 2019 The Daily Sample</footer></body></html>`));

  // ---- Mirror Times (localhost)
  const homeLinks: { href: string; title: string }[] = [];
  const byteCopies = new Map<string, string>();
  const onlyLinkedFromCopies: string[] = [];
  for (const article of byteCopied) {
    const path = `/copy/${article.slug}.html`;
    const comments = `/copy/${article.slug}/comments.html`;
    // The original's bytes, plus (in the footer) a link to a page only this copy links to.
    const body = articleHtml.get(article.slug)!.replace('</footer>', `<p><a href="${comments}">Reader comments</a></p></footer>`);
    site.setRoute(mirrorHost, path, html(body));
    site.setRoute(mirrorHost, comments, html(mirrorTimesPage({
      title: `Comments: ${article.title}`,
      paragraphs: [`Readers discuss "${article.title}". No comments have been approved yet; be the first to share your thoughts on this story.`],
    })));
    byteCopies.set(mirror(path), main(articlePath(article)));
    onlyLinkedFromCopies.push(mirror(comments));
    homeLinks.push({ href: path, title: article.title });
  }
  const retemplatedMap = new Map<string, string>();
  for (const article of retemplated) {
    const path = `/archive/${article.slug}`;
    site.setRoute(mirrorHost, path, html(mirrorTimesPage({ title: article.title, paragraphs: article.paragraphs, canonical: main(articlePath(article)) })));
    retemplatedMap.set(mirror(path), main(articlePath(article)));
    homeLinks.push({ href: path, title: article.title });
  }
  const editedMap = new Map<string, string>();
  edited.forEach((article, i) => {
    const path = `/edited/${article.slug}`;
    const paragraphs = i === 0 ? withHomoglyphs(article.paragraphs) : withTypo(article.paragraphs);
    site.setRoute(mirrorHost, path, html(mirrorTimesPage({ title: article.title, paragraphs })));
    editedMap.set(mirror(path), main(articlePath(article)));
    homeLinks.push({ href: path, title: article.title });
  });
  const mirrorOriginals: string[] = [];
  for (const article of mirrorOwn) {
    const path = `/stories/${article.slug}`;
    site.setRoute(mirrorHost, path, html(mirrorTimesPage({ title: article.title, paragraphs: article.paragraphs })));
    mirrorOriginals.push(mirror(path));
    homeLinks.push({ href: path, title: article.title });
  }
  site.setRoute(mirrorHost, '/subscribe', html(mirrorTimesPage({ title: 'Subscribe', paragraphs: ['One pound a month.'] })));
  site.setRoute(mirrorHost, '/terms', html(mirrorTimesPage({ title: 'Terms', paragraphs: ['Be nice.'] })));
  site.setRoute(mirrorHost, '/', html(`<!DOCTYPE html><html lang="en-GB"><head><meta charset="utf-8"><title>Mirror Times</title></head><body>
<div id="top-bar">Mirror Times</div><h2>Today</h2>
<ul>${homeLinks.map((l) => `<li><a href="${escapeHtml(l.href)}">${escapeHtml(l.title)}</a></li>`).join('\n')}</ul>
<div id="bottom">Mirror Times</div></body></html>`));

  return {
    site,
    manifest: {
      mainHome: main('/'),
      mirrorHome: mirror('/'),
      originals: onMain.map((a) => main(articlePath(a))),
      mirrorOriginals,
      byteCopies,
      retemplated: retemplatedMap,
      edited: editedMap,
      onlyLinkedFromCopies,
      redirect: { from: main(oldPath), to: main(articlePath(onMain[0]!)) },
      robotsDisallowed: main('/private/drafts.html'),
      notFound: main('/news/removed-story.html'),
      pdf: main('/files/annual-report.pdf'),
      russian: main(russianPath),
      russianTitle,
    },
  };
}
