/**
 * Main-text extraction from a parsed page, without changing the page.
 *
 * 1. One iterative walk turns the tree into text blocks owned by block elements
 *    (page-model.ts).
 * 2. Page furniture is set aside (page-furniture.ts): navigation, headers, footers, sidebars,
 *    comment threads, related lists, share bars, cookie and subscription prompts, captions (tags,
 *    ARIA roles, class/id words; see boilerplate-patterns.ts). Class words are evidence weighed
 *    against the prose an element holds, never a veto on their own: a post classed
 *    `entry-author-kim` or `widget Blog` is judged by its text, not its name. An id that is a
 *    heading's anchor (`<section id="module-tty">` under "tty — ...", linked from a table of
 *    contents) is no furniture evidence; a footer or sidebar beside the page's declared main
 *    content (`<main>`, `role="main"`, main-landmarks.ts) is furniture whatever prose it holds.
 * 3. The article container is chosen by text and link density, Readability's way
 *    (choose-containers.ts); when the best candidate lies inside the declared main content but
 *    holds under half its prose (a manual's sections, a reference's entries), the landmark is
 *    taken.
 * 4. Inside it, link-, form- and embed-heavy parts are dropped (clean-conditionally.ts), but never
 *    the part that holds most of the article's prose; the remaining blocks are the paragraphs,
 *    less placeholders ("Advertisement"), teasers that are mostly a link to another page of the
 *    same site ("Read more: ..."), a heading that repeats the page title, and a container that
 *    repeats an earlier one word for word.
 *
 * Every pass is a loop over arrays or an explicit stack: a page nested 100,000 deep does not
 * overflow the call stack. Nothing in the tree is modified, so a crawler can still enqueue the
 * page's links from the same `$` afterwards.
 */
import { chooseContainers, scoreCandidates } from './choose-containers.js';
import { cleanConditionally } from './clean-conditionally.js';
import { collapseWhitespace, type DomElement, type DomNode } from './dom-node.js';
import { HEADING, buildPageModel, isAncestorOf, type PageModel } from './page-model.js';
import { mainLandmarks } from './main-landmarks.js';
import { pageFurniture } from './page-furniture.js';
import { goodCharsBySubtree, subtreeStats } from './subtree-stats.js';

/** Options of {@link extractMainText}. */
export interface MainTextOptions {
  /**
   * Page title (`<title>`, `og:title`). A heading of the main text that repeats it is left out:
   * the title is reported on its own.
   * @default ''
   */
  readonly title?: string;
  /**
   * The page's URL (or its base URL). Links to the page's own site are told apart from links
   * elsewhere: a list of links to the same site inside an article is recirculation, a list of
   * links to other sites is usually the article's sources or recommendations.
   * @default null (relative links count as the same site, absolute ones as elsewhere)
   */
  readonly url?: string | null;
}

/** The main text and where it was found. */
export interface MainText {
  /** Paragraphs separated by '\n\n'; '' when the page has no text. */
  readonly text: string;
  /** The elements the text was taken from (the article container and related siblings). */
  readonly containers: readonly DomElement[];
}

/**
 * A block that only says "advertisement" or "loading" (Readability's adWords and loadingWords,
 * widened), or only labels a comment section ("3 Comments", "Leave a reply").
 */
const placeholderText = new RegExp(
  '^(?:ad(?:vertising|vertisement)?|advert|anzeige|pub(?:licit[ée])?|publicidad|werb(?:ung)?|广告|реклама|anuncio|sponsored' +
  '|(?:loading|正在加载|загрузка|chargement|cargando)(?:…|\\.\\.\\.)?' +
  '|\\d*\\s*(?:comments?|comentarios?|comentários|commentaires?|kommentare?|комментари[йия])' +
  '|(?:leave|post|add|write) a (?:comment|reply))\\s*:?$',
  'iu',
);

/** A block more than this share of links to the page's own site is a teaser, not prose. */
const teaserLinkShare = 0.7;
/** A container's text at least this long (characters) is given once, however often the page repeats it. */
const repeatChars = 40;
/** Main text shorter than this (characters) is checked against what cleaning removed. */
const shortText = 500;

function normaliseForCompare(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** What the paragraphs are taken from. */
interface Selection {
  readonly containers: readonly number[];
  readonly dropped: Uint8Array;
  readonly untouchable: Uint8Array;
}

/** The paragraphs of the selection, and their length in characters. */
function assemble(model: PageModel, selection: Selection, title: string): { paragraphs: string[]; chars: number } {
  const { containers, dropped, untouchable } = selection;
  // Paragraphs and characters per container (one group when there are no containers).
  const groups: { paragraphs: string[]; chars: number }[] = containers.length === 0 ? [{ paragraphs: [], chars: 0 }] : containers.map(() => ({ paragraphs: [], chars: 0 }));
  let c = 0;
  for (let b = 0; b < model.blockOwner.length; b++) {
    const owner = model.blockOwner[b]!;
    const text = model.blockText[b]!;
    if (owner < 0) {
      // Text outside any element (a bare fragment) counts only when no container was found.
      if (containers.length === 0) groups[0]!.paragraphs.push(text);
      continue;
    }
    if (dropped[owner] === 1) continue;
    if (containers.length > 0) {
      // Containers are disjoint and in document order, as blocks are.
      while (c < containers.length && model.end[containers[c]!]! <= owner) c++;
      if (c === containers.length || owner < containers[c]!) continue;
    }
    if (text.length < 40 && placeholderText.test(text)) continue;
    if (untouchable[owner] === 0 && model.blockInternalLinkChars[b]! > model.blockChars[b]! * teaserLinkShare) continue;
    if ((model.flags[owner]! & HEADING) !== 0 && title !== '') {
      const heading = normaliseForCompare(text);
      if (heading !== '' && title.startsWith(heading)) continue;
    }
    const paragraph = text.indexOf('\n') === -1 ? collapseWhitespace(text) : text;
    if (paragraph === '') continue;
    const group = groups[containers.length === 0 ? 0 : c]!;
    group.paragraphs.push(paragraph);
    group.chars += model.blockChars[b]!;
  }
  // A container that repeats an earlier one word for word is a second rendering of it (a hidden
  // mobile or print copy), not more text.
  const seen = new Set<string>();
  const paragraphs: string[] = [];
  let chars = 0;
  for (const group of groups) {
    const text = group.paragraphs.join('\n');
    if (text.length >= repeatChars && seen.has(text)) continue;
    seen.add(text);
    paragraphs.push(...group.paragraphs);
    chars += group.chars;
  }
  return { paragraphs, chars };
}

/** The main text of a parsed page. `root` is the document node (see documentOf) or any element. */
export function extractMainText(root: DomNode, options: MainTextOptions = {}): MainText {
  const model = buildPageModel(root, options.url ?? null);
  if (model.blockOwner.length === 0) return { text: '', containers: [] };

  const landmarks = mainLandmarks(model);
  const removed = pageFurniture(model, goodCharsBySubtree(model), landmarks);
  const kept = subtreeStats(model, removed);
  const score = scoreCandidates(model, removed, kept);
  const containers = chooseContainers(model, score, kept, landmarks);
  const title = normaliseForCompare(options.title ?? '');
  const noneUntouchable = new Uint8Array(model.elements.length);
  // No prose anywhere: whatever text is not furniture.
  const selection: Selection = containers.length === 0
    ? { containers, dropped: removed, untouchable: noneUntouchable }
    : { containers, ...cleanConditionally(model, containers, removed, score, kept) };
  let result = assemble(model, selection, title);
  if (containers.length > 0 && result.chars < shortText) {
    // Cleaning took most of a short article (a link-rich encyclopedia page, say): like
    // Readability's retries, take the containers without it when that gives much more text.
    let available = 0;
    for (const c of containers) available += kept.chars[c]!;
    if (available >= result.chars * 2) {
      const uncleaned = assemble(model, { containers, dropped: removed, untouchable: noneUntouchable }, title);
      if (uncleaned.chars > result.chars) result = uncleaned;
    }
  }
  return { text: result.paragraphs.join('\n\n'), containers: containers.map((i) => model.elements[i]!) };
}
