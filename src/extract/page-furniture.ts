/**
 * Which elements are page furniture, decided before the article is looked for. Class and id
 * words are evidence, weighed against the prose an element holds, not vetoes:
 * - comment threads and navigation (a comment word, `<nav>`, or a furniture tag or role together
 *   with a furniture word, such as `<aside id="sidebar">`) go whatever they hold, and so does
 *   everything from a heading that names the comment section to the end of its parent (flat
 *   templates put the comments right after the post, with no wrapper to name them);
 * - an element with only furniture words, tag or role goes unless it holds most of the prose left
 *   after those (a `<div class="no-sidebar">` wrapping the page stays) and is not beside the
 *   page's declared main content (main-landmarks.ts), or is an inline element holding paragraphs
 *   (pasted formatting, not a byline);
 * - an element whose words point both ways ({@link MIXED}: `entry entry-author-kim`,
 *   `widget Blog`) stays, to be judged inside the article by its share of the article's prose.
 */
import { blockTags, commentSectionHeading } from './boilerplate-patterns.js';
import { touchesLandmark, type MainLandmark } from './main-landmarks.js';
import { HEADING, POSITIVE, STRONG, WEAK, type PageModel } from './page-model.js';

/** Prose (characters) beyond any caption or byline: an inline element holding this much is not furniture. */
const inlineProseChars = 250;
/**
 * A main landmark holding at least this share of an element's prose in text (headings left out)
 * makes the element, when it lies outside the landmark, furniture whatever its prose.
 */
const landmarkTextShare = 0.25;
/** Headings longer than this (characters) are titles, not comment-section labels. */
const maxLabelChars = 80;

/** 1 for each heading that names a comment section ("12 Comments", "3 responses to …", "Leave a reply"). */
function commentHeadings(model: PageModel): Uint8Array {
  const marks = new Uint8Array(model.elements.length);
  for (let b = 0; b < model.blockOwner.length; b++) {
    const owner = model.blockOwner[b]!;
    if (owner < 0 || (model.flags[owner]! & HEADING) === 0 || model.blockChars[b]! > maxLabelChars) continue;
    if (commentSectionHeading.test(model.blockText[b]!.trim())) marks[owner] = 1;
  }
  return marks;
}

/** removed[i] = 1 when i or an ancestor is page furniture. `goodChars`: prose characters per subtree. */
export function pageFurniture(model: PageModel, goodChars: Float64Array, landmarks: readonly MainLandmark[] = []): Uint8Array {
  const n = model.elements.length;
  const removed = new Uint8Array(n);
  const commentStart = commentHeadings(model);
  let totalGood = 0;
  for (let i = 0; i < n; i++) if (model.parent[i] === -1) totalGood += goodChars[i]!;
  const holdsMostOf = (i: number, total: number) => total > 0 && goodChars[i]! >= total * 0.5;
  let landmarkChars = 0;
  for (const l of landmarks) landmarkChars += l.chars;
  // A footer or sidebar beside the declared main content is furniture even when it holds more
  // prose than a short article (a page of three sentences and a footer of four) or an index page
  // (a heading and links). The landmark must hold text of the same order as the element's prose:
  // a <main> around a byline is no evidence against the article beside it.
  const outsideDeclaredMain = (i: number) =>
    landmarkChars >= goodChars[i]! * landmarkTextShare && !touchesLandmark(model, landmarks, i);
  for (let i = 0; i < n; i++) {
    const p = model.parent[i]!;
    if (removed[i] === 1 || (p >= 0 && removed[p] === 1)) {
      removed[i] = 1;
      continue;
    }
    if (commentStart[i] === 1 && p >= 0) {
      // The heading and its following siblings: the elements [i, end of the parent).
      for (let j = i; j < model.end[p]!; j = model.end[j]!) totalGood -= goodChars[j]!;
      removed.fill(1, i, model.end[p]!);
      continue;
    }
    // A comment-thread word on an element that is also called the article and holds it stays.
    const f = model.flags[i]!;
    if ((f & STRONG) !== 0 && !((f & POSITIVE) !== 0 && holdsMostOf(i, totalGood))) {
      removed[i] = 1;
      totalGood -= goodChars[i]!;
    }
  }
  for (let i = 0; i < n; i++) {
    const p = model.parent[i]!;
    if (removed[i] === 1 || (p >= 0 && removed[p] === 1)) {
      removed[i] = 1;
      continue;
    }
    if ((model.flags[i]! & WEAK) === 0) continue;
    if (holdsMostOf(i, totalGood) && !outsideDeclaredMain(i)) continue;
    // An inline element names a phrase (a byline, a credit); one holding paragraphs of prose is a
    // wrapper left by pasting formatted text, whatever its class says.
    if (!blockTags.has(model.tag[i]!) && goodChars[i]! >= inlineProseChars) continue;
    removed[i] = 1;
  }
  return removed;
}
