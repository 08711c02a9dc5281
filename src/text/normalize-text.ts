/**
 * The first text stage: Unicode NFKC, look-alike letters folded into the document's script, then
 * lower case. Lone surrogates (invalid UTF-16) become U+FFFD first, so that every later stage sees
 * well-formed text and treats them as separators.
 */
import { foldHomoglyphs } from './fold-homoglyphs.js';

export function normalizeText(text: string): string {
  if (typeof text !== 'string') throw new TypeError(`Expected text to be a string, got ${typeof text}`);
  // String.prototype.isWellFormed/toWellFormed exist in Node 20; the ES2023 lib does not declare them.
  const str = text as unknown as { isWellFormed(): boolean; toWellFormed(): string };
  const wellFormed = str.isWellFormed() ? text : str.toWellFormed();
  // Folding needs the letters' case (see foldHomoglyphs), so it runs before lower-casing. It runs
  // before NFKC too, because NFKC turns some look-alikes into letters that are none (lunate sigma
  // `ϲ`, a look-alike of `c`, becomes `ς`), and after it, for look-alikes that NFKC makes (fullwidth
  // and mathematical letters).
  return foldHomoglyphs(foldHomoglyphs(wellFormed).normalize('NFKC')).toLowerCase();
}
