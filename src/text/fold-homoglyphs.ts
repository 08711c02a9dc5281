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
import { HOMOGLYPH_CLASSES } from './homoglyph-table.js';

export type FoldScript = 'latin' | 'cyrillic' | 'greek';

interface FoldTarget {
  readonly map: ReadonlyMap<string, string>;
  /** Matches every class member that folds to another letter in this script. */
  readonly pattern: RegExp;
}

function escapeForClass(ch: string): string {
  return `\\u{${ch.codePointAt(0)!.toString(16)}}`;
}

function buildTarget(script: FoldScript): FoldTarget {
  const map = new Map<string, string>();
  for (const cls of HOMOGLYPH_CLASSES) {
    // A class without a letter in the target script folds to its Latin letter, so that the
    // result still depends on the class alone.
    const target = (script === 'cyrillic' ? cls.cyrillic : script === 'greek' ? cls.greek : '') || cls.latin;
    for (const member of [cls.latin, cls.cyrillic, cls.greek, ...cls.extra]) {
      if (member !== '' && member !== target) map.set(member, target);
    }
  }
  const pattern = new RegExp(`[${[...map.keys()].map(escapeForClass).join('')}]`, 'gu');
  return { map, pattern };
}

const TARGETS: Readonly<Record<FoldScript, FoldTarget>> = Object.freeze({
  latin: buildTarget('latin'),
  cyrillic: buildTarget('cyrillic'),
  greek: buildTarget('greek'),
});

/** Every letter that belongs to some look-alike class (code unit → true); all are in the BMP. */
const CLASS_MEMBER = (() => {
  const table = new Uint8Array(0x10000);
  for (const cls of HOMOGLYPH_CLASSES) {
    for (const member of [cls.latin, cls.cyrillic, cls.greek, ...cls.extra]) {
      if (member !== '') table[member.charCodeAt(0)] = 1;
    }
  }
  return table;
})();

const HAS_CYRILLIC_OR_GREEK = /[\u0370-\u052F\u1F00-\u1FFF]/;

/**
 * The script with the most letters outside the look-alike classes (Latin on a tie, null when the
 * text has no Latin, Cyrillic or Greek letter outside the classes).
 */
export function dominantScript(text: string): FoldScript | null {
  let latin = 0;
  let cyrillic = 0;
  let greek = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch < 0x41 || CLASS_MEMBER[ch] === 1) continue;
    if ((ch <= 0x5a) || (ch >= 0x61 && ch <= 0x7a) || (ch >= 0xc0 && ch <= 0x24f && ch !== 0xd7 && ch !== 0xf7) || (ch >= 0x1e00 && ch <= 0x1eff)) latin++;
    else if (ch >= 0x400 && ch <= 0x52f) cyrillic++;
    else if ((ch >= 0x370 && ch <= 0x3ff) || (ch >= 0x1f00 && ch <= 0x1fff)) greek++;
  }
  if (latin === 0 && cyrillic === 0 && greek === 0) return null;
  if (latin >= cyrillic && latin >= greek) return 'latin';
  return cyrillic >= greek ? 'cyrillic' : 'greek';
}

/**
 * Folds look-alike letters into the document's dominant script. Case-sensitive: run it before
 * lower-casing (upper-case Cyrillic `Т` folds to `T`; lower-case `т` is no look-alike of `t`).
 */
export function foldHomoglyphs(text: string): string {
  // Without Cyrillic or Greek letters the dominant script is Latin (or none) and nothing folds.
  if (!HAS_CYRILLIC_OR_GREEK.test(text)) return text;
  const script = dominantScript(text) ?? 'latin';
  const { map, pattern } = TARGETS[script];
  pattern.lastIndex = 0;
  return text.replace(pattern, (ch) => map.get(ch) ?? ch);
}
