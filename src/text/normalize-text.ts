/**
 * The first text stage: Unicode NFKC, look-alike letters folded into the document's script, then
 * lower case. Lone surrogates (invalid UTF-16) become U+FFFD first, so that every later stage sees
 * well-formed text and treats them as separators. Default-ignorable code points (soft hyphen, zero
 * width space, ZWNJ/ZWJ, word joiner, bidi marks, variation selectors, tags…) are removed next: they
 * are invisible, and one inside a word split it or made it another token (issue 28), so that a copy
 * salted with them fingerprinted as a different text.
 */
import { foldHomoglyphs } from './fold-homoglyphs.js';

/** Unicode's Default_Ignorable_Code_Point property (DerivedCoreProperties.txt). */
const DEFAULT_IGNORABLE = /\p{Default_Ignorable_Code_Point}/u;
const DEFAULT_IGNORABLE_ALL = /\p{Default_Ignorable_Code_Point}/gu;

export function normalizeText(text: string): string {
  if (typeof text !== 'string') throw new TypeError(`Expected text to be a string, got ${typeof text}`);
  // String.prototype.isWellFormed/toWellFormed exist in Node 20; the ES2023 lib does not declare them.
  const str = text as unknown as { isWellFormed(): boolean; toWellFormed(): string };
  const wellFormed = str.isWellFormed() ? text : str.toWellFormed();
  // Tested before replacing: almost no text holds one, and a test is cheaper than a copy.
  const visible = DEFAULT_IGNORABLE.test(wellFormed) ? wellFormed.replace(DEFAULT_IGNORABLE_ALL, '') : wellFormed;
  // Folding needs the letters' case (see foldHomoglyphs), so it runs before lower-casing. It runs
  // before NFKC too, because NFKC turns some look-alikes into letters that are none (lunate sigma
  // `ϲ`, a look-alike of `c`, becomes `ς`), and after it, for look-alikes that NFKC makes (fullwidth
  // and mathematical letters).
  // The second fold only when NFKC changed something: folding is idempotent (a folded letter is its
  // class's target, which folds to nothing, and folding keeps the dominant script; see the tests), so
  // on an unchanged string it would return it as is.
  const folded = foldHomoglyphs(visible);
  const composed = folded.normalize('NFKC');
  return (composed === folded ? folded : foldHomoglyphs(composed)).toLowerCase();
}
