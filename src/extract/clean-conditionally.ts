/**
 * Readability's conditional cleaning, inside the chosen containers: a div, list, table, form or
 * fieldset is dropped when its class is negative, or (with few commas) when links, list items,
 * inputs, images or embeds outweigh its paragraphs. Changes from Readability:
 * - a list is judged by its links to the page's own site (recirculation), not by links to other
 *   sites, which in an article are mostly sources, products or references;
 * - data tables, code, and embedded posts (tweets) with prose are never dropped;
 * - nor is an element holding most of the container's prose (whatever its class, share-button
 *   iframes or images), nor a div holding only a prose paragraph;
 * - an element whose class words point both ways (`post-meta`, `entry-footer`) is dropped
 *   unless it holds most of the container's prose.
 */
import { EMBED, MIXED, type PageModel } from './page-model.js';
import { linkDensity, type SubtreeStats } from './subtree-stats.js';

/**
 * An element inside a container holding at least this share of the container's prose is never
 * cleaned away: neither a class word nor a share button's iframe outweighs the text it holds.
 */
const articleShare = 0.5;

/** Readability's data-table test: such tables are kept whatever their link density. */
function isDataTable(model: PageModel, i: number, kept: SubtreeStats): boolean {
  const attribs = model.elements[i]!.attribs;
  if (attribs.role === 'presentation' || attribs.datatable === '0') return false;
  if ((attribs.summary ?? '') !== '') return true;
  if (kept.tableMarkers[i]! > 0) return true;
  if (kept.tables[i]! > 1) return false; // nested tables lay out pages
  const rows = kept.rows[i]!;
  const columns = rows > 0 ? Math.round(kept.cells[i]! / rows) : 0;
  if (rows <= 1 || columns <= 1) return false;
  if (rows >= 10 || columns > 4) return true;
  return rows * columns > 10;
}

function shouldDrop(model: PageModel, i: number, score: Float64Array, kept: SubtreeStats): boolean {
  const t = model.tag[i]!;
  const weight = model.weight[i]!;
  // A negative class word does not outweigh a good content score.
  if (weight + (Number.isNaN(score[i]!) ? 0 : Math.max(0, score[i]!)) < 0) return true;
  if (kept.commas[i]! >= 10) return false;
  const chars = kept.chars[i]!;
  const density = linkDensity(kept, i);
  const paragraphs = kept.paragraphs[i]!;
  const images = kept.images[i]!;
  const listItems = kept.listItems[i]! - 100; // sic: Readability's offset, which all but disables the test
  const inputs = kept.inputs[i]!;
  const embeds = kept.embeds[i]!;
  const headingDensity = chars > 0 ? kept.headingChars[i]! / chars : 0;
  const isList = t === 'ul' || t === 'ol' || (chars > 0 && kept.listChars[i]! / chars > 0.9);
  const internalDensity = chars > 0 ? kept.internalLinkChars[i]! / chars : 0;
  return (
    (images > 1 && paragraphs / images < 0.5 && kept.goodChars[i]! < 150) ||
    (!isList && listItems > paragraphs) ||
    inputs > Math.floor(paragraphs / 3) ||
    (!isList && headingDensity < 0.9 && chars < 25 && (images === 0 || images > 2) && density > 0) ||
    (!isList && weight < 25 && density > 0.2) ||
    (isList && weight < 25 && internalDensity > 0.2) ||
    (weight >= 25 && density > 0.5) ||
    (embeds === 1 && chars < 75) ||
    embeds > 1
  );
}

/** What conditional cleaning decided, per element. */
export interface Cleaning {
  /** 1 when the element is furniture or was cleaned away (or is inside such an element). */
  readonly dropped: Uint8Array;
  /** 1 when the element is, or is inside, a data table, code or an embedded post: kept as it is. */
  readonly untouchable: Uint8Array;
}

/**
 * Elements dropped inside the containers, top-down (a dropped element takes its subtree along),
 * on top of `removed` (the page furniture).
 */
export function cleanConditionally(
  model: PageModel, containers: readonly number[], removed: Uint8Array, score: Float64Array, kept: SubtreeStats,
): Cleaning {
  const dropped = new Uint8Array(removed);
  const untouchable = new Uint8Array(model.elements.length);
  for (const container of containers) {
    for (let i = container + 1; i < model.end[container]!; i++) {
      const p = model.parent[i]!;
      if (dropped[p] === 1) {
        dropped[i] = 1;
        continue;
      }
      if (dropped[i] === 1) continue;
      if (untouchable[p] === 1) {
        untouchable[i] = 1;
        continue;
      }
      const t = model.tag[i]!;
      const embeddedPost = (model.flags[i]! & EMBED) !== 0 && kept.goodChars[i]! > 0;
      if (t === 'code' || t === 'pre' || embeddedPost || (t === 'table' && isDataTable(model, i, kept))) {
        untouchable[i] = 1;
        continue;
      }
      // What holds most of the article's prose is the article, whatever its class, embeds or images.
      if (kept.goodChars[i]! > 0 && kept.goodChars[i]! >= kept.goodChars[container]! * articleShare) continue;
      // Furniture and article words at once (`post-meta`, `entry-footer`): furniture inside the article.
      if ((model.flags[i]! & MIXED) !== 0) {
        dropped[i] = 1;
        continue;
      }
      if (t !== 'div' && t !== 'ul' && t !== 'table' && t !== 'form' && t !== 'fieldset') continue;
      // A div holding only a prose paragraph is that paragraph (Readability turns such divs into
      // paragraphs before cleaning); a link or two in a sentence does not make it a link list.
      if (t === 'div' && kept.blockElements[i] === 1 && kept.goodChars[i]! > 0) continue;
      if (shouldDrop(model, i, score, kept)) dropped[i] = 1;
    }
  }
  return { dropped, untouchable };
}
