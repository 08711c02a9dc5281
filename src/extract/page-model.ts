/**
 * A parsed page as flat arrays, built by one iterative walk:
 * - elements in document order, so that the subtree of element i is the index range
 *   [i, end[i]) and ancestry tests are two comparisons;
 * - text blocks: the inline text between block-level boundaries, each owned by its innermost
 *   block element, with its length, link text and comma counts.
 * Furniture flags (tag, ARIA role, class/id words) are decided here, once per element.
 * The walk uses an explicit stack: a page nested 100,000 deep does not overflow the call stack.
 */
import * as patterns from './boilerplate-patterns.js';
import { isElement, type DomElement, type DomNode } from './dom-node.js';
import { siteHost } from '../url/url-host.js';

// Element flags (bits).
/**
 * Class/id word of a comment thread, or a furniture tag or role with a furniture class/id word:
 * furniture whatever its size.
 */
export const STRONG = 1;
/** Furniture tag, role or class/id word: furniture unless it holds most of the page's prose. */
export const WEAK = 2;
/** html, body, main, article, [itemprop=articleBody], [role=main]: never furniture by class words. */
export const EXEMPT = 4;
/** A positive class/id word (article, content, story, ...). */
export const POSITIVE = 8;
export const LINK = 16;
export const HEADING = 32;
export const LIST = 64;
export const PRE = 128;
/** A link to the page's own site. */
export const INTERNAL_LINK = 256;
/** An embedded post (tweet, Instagram post): quoted content, never furniture by class words. */
export const EMBED = 512;
/**
 * Class/id words on both sides: a furniture word and a positive one (`entry entry-author-kim`,
 * `widget Blog`, `post-meta`). Blog platforms put taxonomy and layout words in the class of the
 * post itself, so such an element is judged by the prose it holds, not by its class: it is never
 * set aside before the article is chosen, and inside the article it goes only when it holds a
 * minor share of the article's prose. Set instead of {@link WEAK} when only class/id words make
 * it furniture.
 */
export const MIXED = 1024;
/** `<main>` or `role="main"`: where the page's author says the main content is. */
export const LANDMARK = 2048;

/** The page as arrays. Index i of the element arrays is the i-th element in document order. */
export interface PageModel {
  readonly elements: DomElement[];
  readonly tag: string[];
  /** Index of the parent element, -1 at the top. */
  readonly parent: number[];
  /** One past the last element of the subtree of i. */
  readonly end: number[];
  readonly flags: number[];
  /** Readability's class weight: +25 for a positive class/id word, -25 for a negative one (per attribute). */
  readonly weight: number[];
  readonly ownImages: number[];
  readonly ownInputs: number[];
  readonly ownEmbeds: number[];

  /** Owning (innermost block) element of each text block; -1 for text outside any element. */
  readonly blockOwner: number[];
  readonly blockText: string[];
  /** Characters after white space is collapsed. */
  readonly blockChars: number[];
  readonly blockLinkChars: number[];
  /** Characters inside links to the page's own site. */
  readonly blockInternalLinkChars: number[];
  readonly blockCommas: number[];
}

// Local bindings: the walk reads these once per element, and a module namespace read is slower
// under some loaders (tsx compiles imports to getters).
const {
  blockTags, classWords, embeddedPostWords, furnitureRoles, furnitureTags, headingTags, ignoredTags, negativeWords,
  positiveWords, socialNetworkWords, strongBoilerplateWords, weakBoilerplateWords,
} = patterns;

const commaPattern = /[\u002C\u060C\uFE50\uFE10\uFE11\u2E41\u2E34\u2E32\uFF0C\u3001]/g;

function countCommas(text: string): number {
  commaPattern.lastIndex = 0;
  let n = 0;
  while (commaPattern.exec(text) !== null) n++;
  return n;
}

function isHidden(attribs: Readonly<Record<string, string>>): boolean {
  if (attribs.hidden !== undefined) return true;
  if (attribs['aria-hidden'] === 'true') return true;
  const style = attribs.style;
  return style !== undefined && /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i.test(style);
}

/** Whether a link leads to the page's own site (relative links do; subdomains count as the site). */
export function isInternalHref(href: string | undefined, host: string | null): boolean {
  if (href === undefined) return false;
  const trimmed = href.trim();
  if (trimmed === '' || trimmed.startsWith('#')) return true;
  const linkHost = siteHost(trimmed.startsWith('//') ? `http:${trimmed}` : trimmed);
  if (linkHost === null) return !/^[a-z][a-z0-9+.-]*:/i.test(trimmed); // relative, but not mailto: or javascript:
  if (host === null) return false;
  return linkHost === host || linkHost.endsWith(`.${host}`) || host.endsWith(`.${linkHost}`);
}

/** What the words of one class or id value say; the same values recur all over a page, so they are memoised per page. */
interface WordClass {
  readonly strong: boolean;
  readonly weak: boolean;
  readonly positive: boolean;
  readonly embed: boolean;
  readonly weight: number;
}

function classifyWords(value: string): WordClass {
  let strong = false;
  let weak = false;
  let positive = false;
  let negative = false;
  let embedded = false;
  let social = false;
  for (const word of classWords(value)) {
    if (strongBoilerplateWords.test(word)) {
      negative = true;
      strong = true;
    } else if (weakBoilerplateWords.test(word)) {
      negative = true;
      weak = true;
    } else if (negativeWords.test(word)) {
      negative = true;
    } else if (positiveWords.test(word)) {
      positive = true;
    } else if (embeddedPostWords.test(word)) {
      embedded = true;
    }
    if (socialNetworkWords.test(word)) social = true;
  }
  // Readability's class weight: -25 for a negative word, +25 for a positive one, per attribute.
  const weight = (negative ? -25 : 0) + (positive ? 25 : 0);
  return { strong, weak, positive, embed: embedded && social, weight };
}

const noWords: WordClass = { strong: false, weak: false, positive: false, embed: false, weight: 0 };

/** The words' positive and comment-thread evidence only (see liftHeadingSlugIds). */
function withoutFurniture(words: WordClass): WordClass {
  return { ...words, weak: false, weight: words.strong ? words.weight : words.positive ? 25 : 0 };
}

function wordClassOf(value: string | undefined, memo: Map<string, WordClass>): WordClass {
  if (value === undefined || value === '') return noWords;
  let known = memo.get(value);
  if (known === undefined) {
    known = classifyWords(value);
    memo.set(value, known);
  }
  return known;
}

/** Flags and class weight of an element, from its tag, role, class and the words of its id (`byId`). */
function classify(
  element: DomElement, tag: string, host: string | null, memo: Map<string, WordClass>, byId: WordClass,
): { flags: number; weight: number } {
  const attribs = element.attribs;
  let flags = 0;
  if (tag === 'a') {
    flags |= LINK;
    if (isInternalHref(attribs.href, host)) flags |= INTERNAL_LINK;
  }
  if (headingTags.has(tag)) flags |= HEADING;
  if (tag === 'ul' || tag === 'ol') flags |= LIST;
  if (tag === 'pre') flags |= PRE;
  const itemprop = attribs.itemprop;
  const role = attribs.role?.toLowerCase();
  if (
    tag === 'html' || tag === 'body' || tag === 'main' || tag === 'article' || role === 'main' ||
    (itemprop !== undefined && /\barticleBody\b/i.test(itemprop))
  ) flags |= EXEMPT;
  if (tag === 'main' || role === 'main') flags |= LANDMARK;
  if (tag === 'nav' || tag === 'menu') flags |= STRONG;
  else if (furnitureTags.has(tag)) flags |= WEAK;
  if (role !== undefined && furnitureRoles.has(role) && (flags & EXEMPT) === 0) flags |= WEAK;

  const byClass = wordClassOf(attribs.class, memo);
  let weight = byClass.weight + byId.weight;
  if ((flags & EXEMPT) === 0) {
    if (byClass.strong || byId.strong) flags |= STRONG;
    if (byClass.weak || byId.weak) {
      const positive = byClass.positive || byId.positive;
      // Two independent signs, a furniture tag or role and a furniture word (`<aside id="sidebar">`),
      // make furniture whatever it holds; words both ways leave it to the prose it holds.
      if ((flags & WEAK) !== 0) flags |= positive ? 0 : STRONG;
      else flags |= positive ? MIXED : WEAK;
    }
  }
  if (byClass.positive || byId.positive) flags |= POSITIVE;
  if (byClass.embed || byId.embed) flags |= EMBED;
  // A post the author embedded is quoted content, whatever its wrapper is called.
  if ((flags & EMBED) !== 0) {
    flags &= ~(STRONG | WEAK | MIXED);
    weight = Math.max(0, weight);
  }
  return { flags, weight };
}

/**
 * Walks the page once. `pageUrl` tells links to the page's own site from links elsewhere.
 * Script, style, form controls, media and hidden elements (`hidden`, `aria-hidden`,
 * `display:none`) give no text; images, inputs and embeds are counted on their parent.
 */
export function buildPageModel(root: DomNode, pageUrl: string | null): PageModel {
  const host = siteHost(pageUrl);
  const memo = new Map<string, WordClass>();
  const model: PageModel = {
    elements: [], tag: [], parent: [], end: [], flags: [], weight: [], ownImages: [], ownInputs: [], ownEmbeds: [],
    blockOwner: [], blockText: [], blockChars: [], blockLinkChars: [], blockInternalLinkChars: [], blockCommas: [],
  };
  const { elements, tag, parent, end, flags, weight, ownImages, ownInputs, ownEmbeds } = model;
  const idNamed: IdNamed[] = [];
  /** The ids that links on the page point to (`href="#id"`). */
  const fragmentTargets = new Set<string>();

  let pieces: string[] = [];
  let chars = 0;
  let linkChars = 0;
  let internalLinkChars = 0;
  const flush = (owner: number): void => {
    if (chars === 0) {
      if (pieces.length > 0) pieces = [];
      return;
    }
    const raw = pieces.join('');
    // Only <br> and <pre> put newlines in a block: keep single ones, at most one blank line.
    const text = raw.indexOf('\n') === -1
      ? raw.trim()
      : raw.replace(/[^\S\n]*\n[^\S\n]*/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
    model.blockOwner.push(owner);
    model.blockText.push(text);
    model.blockChars.push(chars);
    model.blockLinkChars.push(linkChars);
    model.blockInternalLinkChars.push(internalLinkChars);
    model.blockCommas.push(countCommas(text));
    pieces = [];
    chars = 0;
    linkChars = 0;
    internalLinkChars = 0;
  };

  // The stack holds nodes to enter and, as numbers, elements to leave.
  const stack: (DomNode | number)[] = [];
  const rootChildren = root.children ?? [];
  for (let i = rootChildren.length - 1; i >= 0; i--) stack.push(rootChildren[i]!);
  const blockStack: number[] = [];
  const innermostBlock = (): number => (blockStack.length > 0 ? blockStack[blockStack.length - 1]! : -1);
  let current = -1;
  let linkDepth = 0;
  let internalLinkDepth = 0;
  let preDepth = 0;

  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === 'number') {
      const f = flags[item]!;
      if (innermostBlock() === item) {
        flush(item);
        blockStack.pop();
      }
      if ((f & LINK) !== 0) linkDepth--;
      if ((f & INTERNAL_LINK) !== 0) internalLinkDepth--;
      if ((f & PRE) !== 0) preDepth--;
      end[item] = elements.length;
      current = parent[item]!;
      continue;
    }
    const type = item.type;
    if (type === 'text') {
      const data = item.data ?? '';
      if (data === '') continue;
      const piece = preDepth > 0 ? data.replace(/[^\S\n]+/g, ' ') : data.replace(/\s+/g, ' ');
      if (piece === ' ') {
        if (pieces.length > 0) pieces.push(' ');
        continue;
      }
      pieces.push(piece);
      const n = piece.length;
      chars += n;
      if (linkDepth > 0) linkChars += n;
      if (internalLinkDepth > 0) internalLinkChars += n;
      continue;
    }
    if (type === 'cdata') {
      const children = item.children;
      if (children !== undefined) for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
      continue;
    }
    if (!isElement(item)) continue; // comments, directives, doctype
    const element = item;
    const t = element.name.toLowerCase();
    if (t === 'br') {
      pieces.push('\n');
      continue;
    }
    if (t === 'hr') {
      flush(innermostBlock());
      continue;
    }
    if (ignoredTags.has(t)) {
      if (current >= 0) {
        if (t === 'img' || t === 'picture') ownImages[current]!++;
        else if (t === 'input' || t === 'textarea' || t === 'select' || t === 'button') ownInputs[current]!++;
        else if (t === 'iframe' || t === 'embed' || t === 'object' || t === 'video' || t === 'audio') ownEmbeds[current]!++;
      }
      continue;
    }
    if (isHidden(element.attribs)) continue;
    if (t === 'a') {
      const href = element.attribs.href?.trim();
      if (href !== undefined && href.length > 1 && href.startsWith('#')) fragmentTargets.add(decodeFragment(href.slice(1)));
    }
    const byId = wordClassOf(element.attribs.id, memo);
    const c = classify(element, t, host, memo, byId);
    // What the element would be without the furniture side of its id, kept when that changed it:
    // the id may turn out to be a slug of the element's own heading (see liftHeadingSlugIds).
    const withoutId = byId.weak || byId.weight < 0 ? classify(element, t, host, memo, withoutFurniture(byId)) : c;
    // Inline furniture (a caption or credit <span>) gets blocks of its own, so that setting it aside
    // removes its text and nothing else. Links stay inline: a link classed "author" inside a
    // sentence is part of the sentence, and link text is judged by link density anyway.
    const isBlock = blockTags.has(t) || ((c.flags & (STRONG | WEAK | MIXED)) !== 0 && t !== 'a');
    if (isBlock) flush(innermostBlock());
    const index = elements.length;
    elements.push(element);
    tag.push(t);
    parent.push(current);
    end.push(index + 1);
    flags.push(c.flags);
    weight.push(c.weight);
    ownImages.push(0);
    ownInputs.push(0);
    ownEmbeds.push(0);
    if ((c.flags & LINK) !== 0) linkDepth++;
    if ((c.flags & INTERNAL_LINK) !== 0) internalLinkDepth++;
    if ((c.flags & PRE) !== 0) preDepth++;
    if (isBlock) blockStack.push(index);
    if (withoutId.flags !== c.flags || withoutId.weight !== c.weight) {
      idNamed.push({ index, flags: withoutId.flags, weight: withoutId.weight, firstBlock: model.blockOwner.length});
    }
    current = index;
    stack.push(index);
    const children = element.children;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  flush(innermostBlock());
  liftHeadingSlugIds(model, idNamed, fragmentTargets);
  return model;
}

/** An element whose id's furniture words changed its flags or weight, with what it would be without them. */
interface IdNamed {
  readonly index: number;
  readonly flags: number;
  readonly weight: number;
  /** Index of the first text block emitted after the element was entered. */
  readonly firstBlock: number;
}

/** A URL fragment as the id it names (`#Caf%C3%A9` names `Café`); as written when it is not valid percent-encoding. */
function decodeFragment(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

function wordsOf(text: string): Set<string> {
  return new Set(text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== ''));
}

/**
 * An id made from the element's own heading (`<section id="sharing-state">` under "Sharing
 * state", `<section id="module-tty">` under "tty — Terminal control") is an anchor for links
 * into the text, as documentation generators, wikis and Markdown renderers make them: its words
 * name the section's subject, not its role in the page template. Such an id is taken as no
 * furniture evidence (the element keeps what its tag, role and class say). An id is such an
 * anchor when a link on the page points to it (`href="#id"`: a table of contents, a permalink),
 * the element's first text block is a heading inside it, and at least half of the id's words are
 * words of that heading. (A related-posts box headed "Related posts" is not linked to, so its id
 * stays evidence.) Positive words and comment-thread words stay
 * evidence: a comment thread headed "Comments" is still one (and its heading removes it anyway,
 * page-furniture.ts).
 */
function liftHeadingSlugIds(model: PageModel, idNamed: readonly IdNamed[], fragmentTargets: ReadonlySet<string>): void {
  for (const { index, flags, weight, firstBlock } of idNamed) {
    const id = model.elements[index]!.attribs.id ?? '';
    if (!fragmentTargets.has(id) && !fragmentTargets.has(decodeFragment(id))) continue;
    if (firstBlock >= model.blockOwner.length) continue;
    const owner = model.blockOwner[firstBlock]!;
    if (owner < index || owner >= model.end[index]! || (model.flags[owner]! & HEADING) === 0) continue;
    const idWords = classWords(id);
    const heading = wordsOf(model.blockText[firstBlock]!);
    let shared = 0;
    for (const word of idWords) if (heading.has(word)) shared++;
    if (idWords.length === 0 || shared * 2 < idWords.length) continue;
    model.flags[index] = flags;
    model.weight[index] = weight;
  }
}

/** Whether element a is b or an ancestor of b. */
export function isAncestorOf(model: PageModel, a: number, b: number): boolean {
  return a <= b && b < model.end[a]!;
}

/** The element children of i, as indices. */
export function childElements(model: PageModel, i: number): number[] {
  const out: number[] = [];
  const stop = model.end[i]!;
  for (let j = i + 1; j < stop; j = model.end[j]!) out.push(j);
  return out;
}

/** The elements that have no parent element, in document order. */
export function topLevelElements(model: PageModel): number[] {
  const out: number[] = [];
  for (let j = 0; j < model.elements.length; j = model.end[j]!) out.push(j);
  return out;
}
