/**
 * HTML in, {@link ExtractedPage} out: title, main text, declared language, canonical URL,
 * publication date and outgoing links, from a single parse of the page.
 *
 * The page is parsed once with htmlparser2 (through cheerio), the parser crawlee's
 * CheerioCrawler uses for its `$`, so a crawler can hand its own `$` to {@link extractPage}
 * and no page is parsed twice. Extraction reads the tree and never changes it: the crawler's
 * link enqueueing afterwards still sees every link, including those in menus and footers.
 */
import { load, type CheerioAPI } from 'cheerio';
import type { ExtractedPage } from '../types.js';
import { documentOf, isElement, type DomElement, type DomNode } from './dom-node.js';
import { extractMainText } from './main-text.js';
import { readPageMetadata, toIsoDate, type PageMetadata } from './page-metadata.js';

/**
 * Parses a page with htmlparser2 (fast and forgiving; no html/head/body are invented).
 * `xml: { xmlMode: false }` is cheerio rc.12's switch to htmlparser2 in HTML mode. @internal
 */
export function parseHtml(html: string): CheerioAPI {
  if (typeof html !== 'string') throw new TypeError(`Expected \`html\` to be a string, got ${typeof html}`);
  return load(html, { xml: { xmlMode: false, decodeEntities: true } });
}

function isInside(node: DomNode, ancestor: DomNode): boolean {
  for (let current: DomNode | null = node; current !== null; current = current.parent) {
    if (current === ancestor) return true;
  }
  return false;
}

function insideArticle(node: DomNode): boolean {
  for (let current: DomNode | null = node.parent; current !== null; current = current.parent) {
    if (isElement(current) && current.name.toLowerCase() === 'article') return true;
  }
  return false;
}

/** A `<time datetime>` that belongs to the article: in a main-text container, else in an `<article>`. */
function articleTime(
  times: readonly { readonly element: DomElement; readonly datetime: string }[],
  containers: readonly DomElement[],
): string | null {
  for (const { element, datetime } of times) {
    if (element.attribs.pubdate !== undefined) {
      const iso = toIsoDate(datetime);
      if (iso !== null) return iso;
    }
  }
  for (const { element, datetime } of times) {
    if (containers.some((c) => isInside(element, c))) {
      const iso = toIsoDate(datetime);
      if (iso !== null) return iso;
    }
  }
  for (const { element, datetime } of times) {
    if (insideArticle(element)) {
      const iso = toIsoDate(datetime);
      if (iso !== null) return iso;
    }
  }
  return null;
}

/**
 * A page parsed by cheerio (`load(html)`, or a CheerioCrawler's `$`), by shape: cheerio's ES module
 * and CommonJS builds declare nominally different types, and either is accepted; neardup's published
 * declarations need no cheerio types (rc.12's ES module ones fail to compile without skipLibCheck).
 */
export interface ParsedHtml {
  root(): { get(index: number): unknown };
}

/**
 * Extracts from an already parsed page (ours from {@link parseHtml}, or crawlee's `$`).
 * `url` is the page's address, for resolving relative links and the canonical URL; without it
 * only absolute links are reported (or those resolvable against an absolute `<base href>`).
 */
export function extractPage($: ParsedHtml, url?: string): ExtractedPage {
  const root = documentOf($ as CheerioAPI);
  const meta = readPageMetadata(root, url);
  const main = extractMainText(root, { title: meta.title, url: meta.baseUrl ?? meta.canonicalUrl });
  return {
    title: meta.title,
    text: main.text,
    declaredLanguage: meta.declaredLanguage,
    canonicalUrl: meta.canonicalUrl,
    publishedAt: meta.publishedAt ?? articleTime(meta.times, main.containers),
    links: meta.links,
    mainLinks: linksInside(meta.anchors, main.containers),
  };
}

/**
 * The links whose anchor lies inside a main-text container, in page order: what the text cites, as
 * opposed to the menus and sidebars around it (primary/choose-primary.ts counts them as in-links).
 */
function linksInside(anchors: PageMetadata['anchors'], containers: readonly DomElement[]): string[] {
  if (containers.length === 0) return [];
  const inside = new Set<string>();
  for (const { element, url } of anchors) {
    if (!inside.has(url) && containers.some((c) => isInside(element, c))) inside.add(url);
  }
  return [...inside];
}

/** {@link parseHtml} then {@link extractPage}. */
export function extractHtml(html: string, url?: string): ExtractedPage {
  return extractPage(parseHtml(html), url);
}
