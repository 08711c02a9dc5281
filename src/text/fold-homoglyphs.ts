/**
 * Folds look-alike Latin/Cyrillic/Greek letters into the script the document is written in, so that
 * a copy whose letters were swapped for look-alikes (Cyrillic `а`, `е`, `о`, `р`, `с` in English
 * words, or Latin letters in Russian words) normalises to exactly the text of its original.
 *
 * Invariant that makes the fold exact: the document's script is decided by counting only the
 * letters that belong to no look-alike class. Swapping a letter for a look-alike only ever moves
 * letters *within* a class, so it cannot change that count, hence not the target script, hence not
 * the folded text.
 */
import { CYRILLIC, GREEK, HAS_CYRILLIC_OR_GREEK, HOMOGLYPH_CLASSES, LATIN, LOOK_ALIKE_UNITS, letterScriptOf } from './homoglyph-table.js';

export type FoldScript = 'latin' | 'cyrillic' | 'greek';

/**
 * Per target script, per BMP code unit: the letter it folds to, 0 when it stays (every class member
 * and every target is one BMP code unit, none a surrogate, so a fold never changes the text's length
 * and a unit-by-unit fold is the code-point fold).
 */
function foldTable(script: FoldScript): Uint16Array {
  const table = new Uint16Array(0x10000);
  for (const cls of HOMOGLYPH_CLASSES) {
    // A class without a letter in the target script folds to its Latin letter, so that the
    // result still depends on the class alone.
    const target = (script === 'cyrillic' ? cls.cyrillic : script === 'greek' ? cls.greek : '') || cls.latin;
    for (const member of [cls.latin, cls.cyrillic, cls.greek, ...cls.extra]) {
      if (member !== '' && member !== target) table[member.charCodeAt(0)] = target.charCodeAt(0);
    }
  }
  return table;
}

const FOLDS: Readonly<Record<FoldScript, Uint16Array>> = Object.freeze({
  latin: foldTable('latin'),
  cyrillic: foldTable('cyrillic'),
  greek: foldTable('greek'),
});

/**
 * Per BMP code unit, the script of a letter that belongs to no look-alike class (LATIN, CYRILLIC,
 * GREEK), 0 for every other unit: what dominantScript counts, one table read per unit.
 */
const PLAIN_SCRIPT = (() => {
  const table = new Uint8Array(0x10000);
  for (let ch = 0; ch < 0x10000; ch++) if (LOOK_ALIKE_UNITS[ch] !== 1) table[ch] = letterScriptOf(ch);
  return table;
})();


/** The dominant script from the counts of letters outside the classes (Latin on a tie, null when none). */
function dominantOf(latin: number, cyrillic: number, greek: number): FoldScript | null {
  if (latin === 0 && cyrillic === 0 && greek === 0) return null;
  if (latin >= cyrillic && latin >= greek) return 'latin';
  return cyrillic >= greek ? 'cyrillic' : 'greek';
}

/**
 * The script with the most letters outside the look-alike classes (Latin on a tie, null when the
 * text has no Latin, Cyrillic or Greek letter outside the classes).
 */
export function dominantScript(text: string): FoldScript | null {
  let latin = 0;
  let cyrillic = 0;
  let greek = 0;
  for (let i = 0; i < text.length; i++) {
    const script = PLAIN_SCRIPT[text.charCodeAt(i)]!;
    if (script === LATIN) latin++;
    else if (script === CYRILLIC) cyrillic++;
    else if (script === GREEK) greek++;
  }
  return dominantOf(latin, cyrillic, greek);
}

/** dominantScript of UTF-16 code units. */
function dominantScriptOfUnits(units: Uint16Array): FoldScript | null {
  let latin = 0;
  let cyrillic = 0;
  let greek = 0;
  for (let i = 0; i < units.length; i++) {
    const script = PLAIN_SCRIPT[units[i]!]!;
    if (script === LATIN) latin++;
    else if (script === CYRILLIC) cyrillic++;
    else if (script === GREEK) greek++;
  }
  return dominantOf(latin, cyrillic, greek);
}

/**
 * Folds look-alike letters into the document's dominant script. Case-sensitive: run it before
 * lower-casing (upper-case Cyrillic `Т` folds to `T`; lower-case `т` is no look-alike of `t`).
 *
 * The text's code units are copied once (natively) into a buffer, counted and folded there by table,
 * and made a string again only when a letter folded: a regular expression with a replacement
 * callback per letter cost several times more on texts with Cyrillic paragraphs. UTF-16LE is the
 * machine's order: neardup runs on little-endian machines (as its record and bucket formats).
 */
export function foldHomoglyphs(text: string): string {
  // Without Cyrillic or Greek letters the dominant script is Latin (or none) and nothing folds.
  if (!HAS_CYRILLIC_OR_GREEK.test(text)) return text;
  const bytes = Buffer.allocUnsafeSlow(2 * text.length);
  bytes.write(text, 0, 'utf16le');
  const units = new Uint16Array(bytes.buffer, bytes.byteOffset, text.length);
  const fold = FOLDS[dominantScriptOfUnits(units) ?? 'latin'];
  let folded = false;
  for (let i = 0; i < units.length; i++) {
    const target = fold[units[i]!]!;
    if (target !== 0) {
      units[i] = target;
      folded = true;
    }
  }
  return folded ? bytes.toString('utf16le') : text;
}
