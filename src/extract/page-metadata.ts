/**
 * Page metadata from one iterative walk over a parsed page: title, declared language, base URL,
 * canonical URL, publication date (meta tags, itemprop, JSON-LD, `<time>`) and outgoing links.
 */
import { collapseWhitespace, isElement, textContent, type DomElement, type DomNode } from './dom-node.js';

/** What the walk found, before the main text is known. */
export interface PageMetadata {
  readonly title: string;
  readonly declaredLanguage: string | null;
  readonly canonicalUrl: string | null;
  /** Publication date from meta tags, itemprop or JSON-LD (ISO 8601), or null. */
  readonly publishedAt: string | null;
  /** `<time datetime>` elements in document order, for a date inside the article. */
  readonly times: readonly { readonly element: DomElement; readonly datetime: string }[];
  readonly links: readonly string[];
  /** Each `<a>`/`<area>` element whose link is in `links`, with that link (an element per link and place). */
  readonly anchors: readonly { readonly element: DomElement; readonly url: string }[];
  /** The URL relative references resolve against (base href over page URL), or null. */
  readonly baseUrl: string | null;
}

/** Meta names/properties of a publication date, most specific first. */
const dateMetaNames: readonly string[] = [
  'article:published_time', 'og:article:published_time', 'datepublished', 'article.published', 'published_time',
  'publishdate', 'publish-date', 'publish_date', 'pubdate', 'pub_date', 'sailthru.date', 'parsely-pub-date',
  'dc.date.issued', 'dcterms.issued', 'dc.date', 'dcterms.created', 'date', 'og:pubdate',
];
const dateMetaRank: ReadonlyMap<string, number> = new Map(dateMetaNames.map((name, i) => [name, i]));

/** Types of JSON-LD objects whose datePublished is the page's own date. */
const articleTypes = /Article|BlogPosting|Report|WebPage|NewsArticle|Posting|Review|Recipe|CreativeWork/i;

/** An ISO 8601 timestamp for a date string, or null when it is not a plausible date. */
export function toIsoDate(value: string | undefined | null): string | null {
  if (value === undefined || value === null) return null;
  const trimmed = value.trim();
  if (trimmed === '' || !/\d{4}|\d{1,2}[/.-]\d{1,2}[/.-]\d{2}/.test(trimmed)) return null;
  // Bare numbers are not dates here (epoch seconds and milliseconds are ambiguous).
  if (/^\d+$/.test(trimmed)) return null;
  const time = Date.parse(trimmed);
  if (Number.isNaN(time)) return null;
  const year = new Date(time).getUTCFullYear();
  if (year < 1990 || year > 2200) return null;
  return new Date(time).toISOString();
}

/** Resolves a reference to an absolute http(s) URL without its fragment, or null. */
export function resolveHttpUrl(href: string, base: string | null): string | null {
  const trimmed = href.trim();
  if (trimmed === '' || trimmed.startsWith('#')) return null;
  let url: URL;
  try {
    url = base === null ? new URL(trimmed) : new URL(trimmed, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  // User-info (`user:pass@`) is never followed nor recorded: fetched with it, a link would send a
  // page author's credentials; recorded, it would write them to the database, corpus and reports.
  url.username = '';
  url.password = '';
  return url.href;
}

/** datePublished of the JSON-LD blocks, searched without recursion; article-like objects win. */
function jsonLdDate(scripts: readonly string[]): string | null {
  let fallback: string | null = null;
  for (const source of scripts) {
    let data: unknown;
    try {
      data = JSON.parse(source.replace(/^\s*<!--|-->\s*$/g, ''));
    } catch {
      continue;
    }
    const stack: unknown[] = [data];
    while (stack.length > 0) {
      const value = stack.pop();
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--) stack.push(value[i]);
        continue;
      }
      if (typeof value !== 'object' || value === null) continue;
      const object = value as Record<string, unknown>;
      const date = object.datePublished ?? object.dateCreated;
      if (typeof date === 'string') {
        const iso = toIsoDate(date);
        const type = object['@type'];
        const typeText = Array.isArray(type) ? type.join(' ') : typeof type === 'string' ? type : '';
        if (iso !== null && articleTypes.test(typeText)) return iso;
        if (iso !== null && fallback === null) fallback = iso;
      }
      const nested = Object.values(object);
      for (let i = nested.length - 1; i >= 0; i--) {
        const v = nested[i];
        if (typeof v === 'object' && v !== null) stack.push(v);
      }
    }
  }
  return fallback;
}

/** Links and canonical URLs longer than this are ignored (servers commonly refuse URLs over 8 KiB). */
export const maxUrlChars = 8192;

function relTokens(rel: string | undefined): string[] {
  return rel === undefined ? [] : rel.toLowerCase().split(/\s+/);
}

/** One walk over the whole page (furniture included: links in menus are links too). */
export function readPageMetadata(root: DomNode, pageUrl?: string): PageMetadata {
  let htmlLang: string | null = null;
  let metaLang: string | null = null;
  let title: string | null = null;
  let ogTitle: string | null = null;
  let baseHref: string | null = null;
  let canonicalHref: string | null = null;
  let metaDate: string | null = null;
  let metaDateRank = Number.POSITIVE_INFINITY;
  let itempropDate: string | null = null;
  const jsonLd: string[] = [];
  const times: { element: DomElement; datetime: string }[] = [];
  const hrefs: { element: DomElement; href: string }[] = [];

  // Elements whose <title> children are not the page title.
  let foreignDepth = 0;
  const stack: (DomNode | null)[] = [];
  const rootChildren = root.children ?? [];
  for (let i = rootChildren.length - 1; i >= 0; i--) stack.push(rootChildren[i]!);
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node === null) {
      foreignDepth--;
      continue;
    }
    if (!isElement(node)) {
      if (node.type === 'cdata' && node.children !== undefined) {
        for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
      }
      continue;
    }
    const a = node.attribs;
    switch (node.name.toLowerCase()) {
      case 'html':
        if (htmlLang === null) htmlLang = a.lang ?? a['xml:lang'] ?? null;
        break;
      case 'title':
        if (title === null && foreignDepth === 0) title = collapseWhitespace(textContent(node));
        continue;
      case 'base':
        if (baseHref === null && a.href !== undefined) baseHref = a.href;
        continue;
      case 'link':
        if (canonicalHref === null && a.href !== undefined && relTokens(a.rel).includes('canonical')) canonicalHref = a.href;
        continue;
      case 'meta': {
        const key = (a.property ?? a.name ?? a.itemprop ?? '').toLowerCase();
        const content = a.content;
        if (content === undefined) {
          continue;
        }
        if (key === 'og:title' || (key === 'twitter:title' && ogTitle === null)) {
          if (ogTitle === null || key === 'og:title') ogTitle = collapseWhitespace(content);
        }
        const httpEquiv = a['http-equiv']?.toLowerCase();
        if (httpEquiv === 'content-language' && metaLang === null) metaLang = content;
        const rank = dateMetaRank.get(key);
        if (rank !== undefined && rank < metaDateRank) {
          const iso = toIsoDate(content);
          if (iso !== null) {
            metaDate = iso;
            metaDateRank = rank;
          }
        }
        continue;
      }
      case 'script':
        if ((a.type ?? '').toLowerCase().includes('ld+json')) jsonLd.push(textContent(node, true));
        continue;
      case 'style':
      case 'noscript':
      case 'template':
        continue;
      case 'a':
      case 'area':
        if (a.href !== undefined) hrefs.push({ element: node, href: a.href });
        break;
      case 'time':
        if (a.datetime !== undefined) times.push({ element: node, datetime: a.datetime });
        break;
      case 'svg':
      case 'math':
        foreignDepth++;
        stack.push(null);
        break;
      default:
        break;
    }
    if (itempropDate === null && a.itemprop !== undefined && /\bdatePublished\b/i.test(a.itemprop)) {
      itempropDate = toIsoDate(a.datetime ?? a.content ?? collapseWhitespace(textContent(node)));
    }
    const children = node.children;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }

  const base = baseUrlOf(baseHref, pageUrl);
  const links: string[] = [];
  const anchors: { element: DomElement; url: string }[] = [];
  const seen = new Set<string>();
  for (const { element, href } of hrefs) {
    // A link longer than any server accepts is not followed: a 10 MB href would otherwise become a
    // 10 MB request line (which stalls until the handler timeout) and a 10 MB row in the database.
    if (href.length > maxUrlChars) continue;
    const url = resolveHttpUrl(href, base);
    if (url === null || url.length > maxUrlChars) continue;
    anchors.push({ element, url });
    if (seen.has(url)) continue;
    seen.add(url);
    links.push(url);
  }
  const language = (htmlLang ?? metaLang ?? '').trim().toLowerCase();
  return {
    title: title !== null && title !== '' ? title : ogTitle ?? '',
    declaredLanguage: language === '' ? null : language.split(/[,\s]/)[0]!,
    canonicalUrl: canonicalHref === null || canonicalHref.length > maxUrlChars ? null : resolveHttpUrl(canonicalHref, base),
    publishedAt: metaDate ?? itempropDate ?? jsonLdDate(jsonLd),
    times,
    links,
    anchors,
    baseUrl: base,
  };
}

/** `<base href>` resolved against the page URL; the page URL alone; or null. */
function baseUrlOf(baseHref: string | null, pageUrl: string | undefined): string | null {
  let page: string | null = null;
  if (pageUrl !== undefined && pageUrl !== '') {
    try {
      page = new URL(pageUrl).href;
    } catch {
      page = null;
    }
  }
  if (baseHref !== null && baseHref.trim() !== '') {
    try {
      return (page === null ? new URL(baseHref.trim()) : new URL(baseHref.trim(), page)).href;
    } catch {
      // An unusable <base href> is ignored, as browsers do.
    }
  }
  return page;
}
