/**
 * Per-element sums over subtrees (text, link text, prose, paragraphs, list items, images,
 * inputs, embeds, table shape) in two linear passes: own counts, then each element adds into its
 * parent in reverse document order (a child always comes after its parent).
 */
import { HEADING, LIST, type PageModel } from './page-model.js';

/** Sums over the subtree of each element. */
export interface SubtreeStats {
  readonly chars: Float64Array;
  readonly linkChars: Float64Array;
  readonly internalLinkChars: Float64Array;
  /** Characters of prose blocks: at least {@link goodBlockChars} long, under a third link text. */
  readonly goodChars: Float64Array;
  /** Characters of blocks inside ul/ol. */
  readonly listChars: Float64Array;
  readonly commas: Float64Array;
  readonly headingChars: Float64Array;
  /** <p> blocks and other blocks of 50+ characters (Readability counts text-only divs as paragraphs). */
  readonly paragraphs: Float64Array;
  readonly listItems: Float64Array;
  readonly images: Float64Array;
  readonly inputs: Float64Array;
  readonly embeds: Float64Array;
  /** Elements that make a div a container rather than a paragraph (Readability's DIV_TO_P_ELEMS), self included. */
  readonly blockElements: Float64Array;
  readonly rows: Float64Array;
  readonly cells: Float64Array;
  /** caption, thead, tfoot, th, col, colgroup: signs of a data table. */
  readonly tableMarkers: Float64Array;
  readonly tables: Float64Array;
}

/** A block this long with little link text is prose. */
export const goodBlockChars = 60;

/** Elements whose presence makes a div a container, not a paragraph (images count too). */
export const paragraphContainerTags: ReadonlySet<string> = new Set(['blockquote', 'dl', 'div', 'ol', 'p', 'pre', 'table', 'ul']);
const tableMarkerTags: ReadonlySet<string> = new Set(['caption', 'thead', 'tfoot', 'th', 'col', 'colgroup']);

/**
 * Sums over subtrees. With `removed`, blocks owned by a removed element and the images, inputs
 * and embeds directly inside one are left out.
 */
export function subtreeStats(model: PageModel, removed: Uint8Array | null): SubtreeStats {
  const n = model.elements.length;
  const array = () => new Float64Array(n);
  const stats: SubtreeStats = {
    chars: array(), linkChars: array(), internalLinkChars: array(), goodChars: array(), listChars: array(),
    commas: array(), headingChars: array(), paragraphs: array(), listItems: array(), images: array(), inputs: array(),
    embeds: array(), blockElements: array(), rows: array(), cells: array(), tableMarkers: array(), tables: array(),
  };
  // inList[i]: i or an ancestor is a list.
  const inList = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const p = model.parent[i]!;
    inList[i] = (model.flags[i]! & LIST) !== 0 || (p >= 0 && inList[p] === 1) ? 1 : 0;
  }
  for (let b = 0; b < model.blockOwner.length; b++) {
    const owner = model.blockOwner[b]!;
    if (owner < 0 || (removed !== null && removed[owner] === 1)) continue;
    const c = model.blockChars[b]!;
    const l = model.blockLinkChars[b]!;
    stats.chars[owner]! += c;
    stats.linkChars[owner]! += l;
    stats.internalLinkChars[owner]! += model.blockInternalLinkChars[b]!;
    stats.commas[owner]! += model.blockCommas[b]!;
    if (c >= goodBlockChars && l < c * 0.33) stats.goodChars[owner]! += c;
    if (inList[owner] === 1) stats.listChars[owner]! += c;
    if ((model.flags[owner]! & HEADING) !== 0) stats.headingChars[owner]! += c;
    if (model.tag[owner] === 'p' || c >= 50) stats.paragraphs[owner]! += 1;
  }
  for (let i = 0; i < n; i++) {
    if (removed !== null && removed[i] === 1) continue;
    const t = model.tag[i]!;
    if (t === 'li') stats.listItems[i] = 1;
    else if (t === 'tr') stats.rows[i] = 1;
    else if (t === 'td' || t === 'th') stats.cells[i] = 1;
    else if (t === 'table') stats.tables[i] = 1;
    if (tableMarkerTags.has(t)) stats.tableMarkers[i] = 1;
    if (paragraphContainerTags.has(t)) stats.blockElements[i] = 1;
    stats.images[i] = model.ownImages[i]!;
    stats.blockElements[i]! += model.ownImages[i]!;
    stats.inputs[i] = model.ownInputs[i]!;
    stats.embeds[i] = model.ownEmbeds[i]!;
  }
  const arrays = Object.values(stats) as Float64Array[];
  for (let i = n - 1; i > 0; i--) {
    const p = model.parent[i]!;
    if (p < 0) continue;
    for (const values of arrays) values[p]! += values[i]!;
  }
  return stats;
}

/** Characters of prose blocks in each subtree (the one sum furniture decisions need). */
export function goodCharsBySubtree(model: PageModel): Float64Array {
  const good = new Float64Array(model.elements.length);
  for (let b = 0; b < model.blockOwner.length; b++) {
    const owner = model.blockOwner[b]!;
    const c = model.blockChars[b]!;
    if (owner >= 0 && c >= goodBlockChars && model.blockLinkChars[b]! < c * 0.33) good[owner]! += c;
  }
  for (let i = good.length - 1; i > 0; i--) {
    const p = model.parent[i]!;
    if (p >= 0) good[p]! += good[i]!;
  }
  return good;
}

/** Link text / text of element i (0 when it has no text). */
export function linkDensity(stats: SubtreeStats, i: number): number {
  const chars = stats.chars[i]!;
  return chars > 0 ? stats.linkChars[i]! / chars : 0;
}
