/**
 * The page's declared main content: `<main>` and `role="main"` elements (the ARIA main landmark)
 * that hold text. Authors and templates mark it for screen readers, so it is evidence of where the
 * article is, though not proof: some templates wrap only a header in `<main>`, or several teasers.
 * It is weighed against text, never used alone (page-furniture.ts, choose-containers.ts).
 */
import { HEADING, LANDMARK, type PageModel } from './page-model.js';

/** A landmark and the text it holds. */
export interface MainLandmark {
  readonly index: number;
  /** Characters of text inside it, headings left out (before anything is set aside). */
  readonly chars: number;
}

/**
 * The outermost main landmarks that hold text besides headings, in document order (nested ones
 * are part of them). A landmark around a title alone says nothing about where the text is.
 */
export function mainLandmarks(model: PageModel): MainLandmark[] {
  const found: number[] = [];
  for (let i = 0; i < model.elements.length; i++) {
    if ((model.flags[i]! & LANDMARK) === 0) continue;
    found.push(i);
    i = model.end[i]! - 1; // skip the subtree: a landmark inside a landmark adds nothing
  }
  if (found.length === 0) return [];
  const chars = new Float64Array(found.length);
  for (let b = 0; b < model.blockOwner.length; b++) {
    const owner = model.blockOwner[b]!;
    if (owner < 0 || (model.flags[owner]! & HEADING) !== 0) continue;
    for (let k = 0; k < found.length; k++) {
      if (owner >= found[k]! && owner < model.end[found[k]!]!) chars[k]! += model.blockChars[b]!;
    }
  }
  return found.map((index, k) => ({ index, chars: chars[k]! })).filter((l) => l.chars > 0);
}

/** Whether element i is inside a landmark, contains one, or is one. */
export function touchesLandmark(model: PageModel, landmarks: readonly MainLandmark[], i: number): boolean {
  for (const { index } of landmarks) {
    if ((index <= i && i < model.end[index]!) || (i <= index && index < model.end[i]!)) return true;
  }
  return false;
}
