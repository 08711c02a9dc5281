/**
 * Which elements hold the article, scored the way Readability does: each prose block gives its
 * parent, grandparent and further ancestors points for its length and commas (discounted by its
 * link text), each candidate starts from its tag and class weight, and the total is discounted
 * by the candidate's link density. The best candidate is then widened: to an ancestor shared by
 * several strong candidates, to a parent whose score rises above it, and to siblings that score
 * well or read as paragraphs.
 */
import { HEADING, childElements, isAncestorOf, topLevelElements, type PageModel } from './page-model.js';
import type { MainLandmark } from './main-landmarks.js';
import { linkDensity, paragraphContainerTags, type SubtreeStats } from './subtree-stats.js';

/** Blocks shorter than this (characters) give no points. */
const minScoredChars = 25;
/** Ancestors of a block that receive its points (Readability: 5). */
const scoredLevels = 5;

function tagBaseScore(tag: string): number {
  switch (tag) {
    case 'div': return 5;
    case 'pre': case 'td': case 'blockquote': return 3;
    case 'address': case 'ol': case 'ul': case 'dl': case 'dd': case 'dt': case 'li': case 'form': return -3;
    case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': case 'th': return -5;
    default: return 0;
  }
}

/** Candidate scores, NaN for elements that received no points. */
export function scoreCandidates(model: PageModel, removed: Uint8Array, kept: SubtreeStats): Float64Array {
  const n = model.elements.length;
  const score = new Float64Array(n).fill(Number.NaN);
  for (let b = 0; b < model.blockOwner.length; b++) {
    const owner = model.blockOwner[b]!;
    if (owner < 0 || removed[owner] === 1) continue;
    const c = model.blockChars[b]!;
    if (c < minScoredChars || (model.flags[owner]! & HEADING) !== 0) continue;
    const points = (1 + model.blockCommas[b]! + Math.min(Math.floor(c / 100), 3)) * (1 - model.blockLinkChars[b]! / c);
    let ancestor = model.parent[owner]!;
    for (let level = 0; level < scoredLevels && ancestor >= 0; level++) {
      if (Number.isNaN(score[ancestor]!)) score[ancestor] = tagBaseScore(model.tag[ancestor]!) + model.weight[ancestor]!;
      const divider = level === 0 ? 1 : level === 1 ? 2 : level * 3;
      score[ancestor]! += points / divider;
      ancestor = model.parent[ancestor]!;
    }
  }
  for (let i = 0; i < n; i++) {
    if (!Number.isNaN(score[i]!)) score[i] = score[i]! * (1 - linkDensity(kept, i));
  }
  return score;
}

function textOfSubtree(model: PageModel, i: number): string {
  const parts: string[] = [];
  for (let b = 0; b < model.blockOwner.length; b++) {
    if (model.blockOwner[b]! >= 0 && isAncestorOf(model, i, model.blockOwner[b]!)) parts.push(model.blockText[b]!);
  }
  return parts.join(' ');
}

/** The five best candidates, best first. */
function bestCandidates(score: Float64Array, count: number): number[] {
  const best: number[] = [];
  for (let i = 0; i < score.length; i++) {
    const s = score[i]!;
    if (Number.isNaN(s)) continue;
    let k = best.length;
    while (k > 0 && score[best[k - 1]!]! < s) k--;
    if (k < count) {
      best.splice(k, 0, i);
      if (best.length > count) best.pop();
    }
  }
  return best;
}

/**
 * The best candidate lies inside the page's declared main content but holds less than this share
 * of its prose: the article is split into parts (sections of a manual, entries of a reference)
 * and the landmark holds all of them.
 */
const landmarkShare = 0.5;

/**
 * The landmark around `top` when text says the article is larger than `top`: the landmark is only
 * taken as evidence once text alone chose a candidate inside it, so a `<main>` around a header or
 * a teaser list never wins over prose elsewhere.
 */
function widenToLandmark(model: PageModel, top: number, kept: SubtreeStats, landmarks: readonly MainLandmark[]): number {
  for (const { index } of landmarks) {
    if (index === top || !isAncestorOf(model, index, top)) continue;
    if (kept.goodChars[top]! < kept.goodChars[index]! * landmarkShare) return index;
  }
  return top;
}

/** The article's containers in document order; [] when no element scored (no prose at all). */
export function chooseContainers(
  model: PageModel, score: Float64Array, kept: SubtreeStats, landmarks: readonly MainLandmark[] = [],
): number[] {
  const top5 = bestCandidates(score, 5);
  if (top5.length === 0) return [];
  let top = top5[0]!;
  const isBody = (i: number) => model.tag[i] === 'body' || model.tag[i] === 'html';

  // Several strong candidates under one ancestor: the article is split, take the ancestor. A
  // candidate on the best one's own line (its ancestor or descendant) scores from the same
  // paragraphs and is no sign of a split.
  const alternatives = top5.slice(1).filter((i) =>
    score[i]! / score[top]! >= 0.75 && !isAncestorOf(model, i, top) && !isAncestorOf(model, top, i));
  if (alternatives.length >= 3) {
    for (let a = model.parent[top]!; a >= 0 && !isBody(a); a = model.parent[a]!) {
      let holding = 0;
      for (const alt of alternatives) if (isAncestorOf(model, a, alt)) holding++;
      if (holding >= 3) {
        top = a;
        break;
      }
    }
  }
  // A score that rises on the way up means more content lies beside the candidate.
  let lastScore = score[top]!;
  const floor = lastScore / 3;
  for (let a = model.parent[top]!; a >= 0 && !isBody(a); a = model.parent[a]!) {
    const s = score[a]!;
    if (Number.isNaN(s)) continue;
    if (s < floor) break;
    if (s > lastScore) {
      top = a;
      break;
    }
    lastScore = s;
  }
  top = widenToLandmark(model, top, kept, landmarks);
  // An only child stands for its parent.
  while (model.parent[top]! >= 0 && !isBody(model.parent[top]!) && childElements(model, model.parent[top]!).length === 1) {
    top = model.parent[top]!;
  }

  const parentOfTop = model.parent[top]!;
  const topScore = Number.isNaN(score[top]!) ? 0 : score[top]!;
  const threshold = Math.max(10, topScore * 0.2);
  const topClass = model.elements[top]!.attribs.class ?? '';
  const containers: number[] = [];
  // Without <html>/<body> (a fragment), the top-level elements are the siblings.
  const siblings = parentOfTop >= 0 ? childElements(model, parentOfTop) : topLevelElements(model);
  for (const sibling of siblings) {
    if (sibling === top) {
      containers.push(sibling);
      continue;
    }
    const s = score[sibling]!;
    const bonus = topClass !== '' && model.elements[sibling]!.attribs.class === topClass ? topScore * 0.2 : 0;
    if (!Number.isNaN(s) && s + bonus >= threshold) {
      containers.push(sibling);
      continue;
    }
    // A paragraph, or a div holding only text (Readability turns those into paragraphs first).
    const t = model.tag[sibling]!;
    const ownBlockElement = paragraphContainerTags.has(t) ? 1 : 0;
    if (t === 'p' || (t === 'div' && kept.blockElements[sibling]! - ownBlockElement === 0)) {
      const chars = kept.chars[sibling]!;
      const density = linkDensity(kept, sibling);
      if (chars > 80 && density < 0.25) containers.push(sibling);
      else if (chars > 0 && chars <= 80 && density === 0 && /\.( |$)/.test(textOfSubtree(model, sibling))) containers.push(sibling);
    }
  }
  return containers;
}
