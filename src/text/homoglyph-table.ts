/**
 * Look-alike letters across Latin, Cyrillic and Greek, as classes of letters that render the same
 * in common fonts. Each class has one representative per script (when that script has such a
 * letter) and possibly extra members.
 *
 * Source: the Latin/Cyrillic/Greek single-letter pairs of Unicode's confusables data (UTS #39),
 * restricted to letters whose glyphs are the same *in the same case* — the cases are kept apart
 * because folding happens before lower-casing (Cyrillic `Т` looks like `T`, but its lower case `т`
 * does not look like `t`). Every pair is cross-checked in the tests against the `confusables`
 * npm package (the maintained table among our dependencies). That package is not used directly:
 * it is built for English profanity filters and maps loosely (`д`→A, `л`/`п`→n, `я`→R, `ш`→W),
 * which would merge distinct Russian letters and hurt Russian stop words and stems.
 */
export interface HomoglyphClass {
  /** The Latin letter. */
  readonly latin: string;
  /** The Cyrillic letter that looks like it ('' when Cyrillic has none). */
  readonly cyrillic: string;
  /** The Greek letter that looks like it ('' when Greek has none). */
  readonly greek: string;
  /** Further look-alikes that fold like the class (any of the three scripts). */
  readonly extra: string;
}

const c = (latin: string, cyrillic: string, greek: string, extra = ''): HomoglyphClass => ({ latin, cyrillic, greek, extra });

export const HOMOGLYPH_CLASSES: readonly HomoglyphClass[] = Object.freeze([
  // Upper case.
  c('A', '\u0410', '\u0391'), // А Α
  c('B', '\u0412', '\u0392'), // В Β
  c('C', '\u0421', '\u03F9'), // С Ϲ
  c('E', '\u0415', '\u0395'), // Е Ε
  c('H', '\u041D', '\u0397'), // Н Η
  c('I', '\u0406', '\u0399', '\u04C0'), // І Ι Ӏ
  c('J', '\u0408', '\u037F'), // Ј Ϳ
  c('K', '\u041A', '\u039A'), // К Κ
  c('M', '\u041C', '\u039C'), // М Μ
  c('N', '', '\u039D'), // Ν
  c('O', '\u041E', '\u039F'), // О Ο
  c('P', '\u0420', '\u03A1'), // Р Ρ
  c('Q', '\u051A', ''), // Ԛ
  c('S', '\u0405', ''), // Ѕ
  c('T', '\u0422', '\u03A4'), // Т Τ
  c('W', '\u051C', ''), // Ԝ
  c('X', '\u0425', '\u03A7'), // Х Χ
  c('Y', '\u0423', '\u03A5', '\u04AE'), // У Υ Ү
  c('Z', '', '\u0396'), // Ζ
  // Lower case.
  c('a', '\u0430', '\u03B1'), // а α
  c('c', '\u0441', '\u03F2'), // с ϲ
  c('d', '\u0501', ''), // ԁ
  c('e', '\u0435', ''), // е
  c('h', '\u04BB', ''), // һ
  c('i', '\u0456', '\u03B9'), // і ι
  c('j', '\u0458', '\u03F3'), // ј ϳ
  c('l', '\u04CF', ''), // ӏ
  c('o', '\u043E', '\u03BF'), // о ο
  c('p', '\u0440', '\u03C1'), // р ρ
  c('q', '\u051B', ''), // ԛ
  c('s', '\u0455', ''), // ѕ
  c('u', '', '\u03C5'), // υ
  c('v', '\u0475', '\u03BD'), // ѵ ν
  c('w', '\u051D', ''), // ԝ
  c('x', '\u0445', ''), // х
  c('y', '\u0443', '', '\u04AF'), // у ү
]);

/** Script codes of letterScriptOf: a Latin, Cyrillic or Greek letter (0: any other code unit). */
export const LATIN = 1;
export const CYRILLIC = 2;
export const GREEK = 3;

/**
 * The script of a letter code unit (LATIN, CYRILLIC, GREEK), 0 for others: the ranges the fold's
 * dominant script and the `homoglyph` stage both count.
 */
export function letterScriptOf(ch: number): number {
  if ((ch >= 0x41 && ch <= 0x5a) || (ch >= 0x61 && ch <= 0x7a) || (ch >= 0xc0 && ch <= 0x24f && ch !== 0xd7 && ch !== 0xf7) || (ch >= 0x1e00 && ch <= 0x1eff)) return LATIN;
  if (ch >= 0x400 && ch <= 0x52f) return CYRILLIC;
  if ((ch >= 0x370 && ch <= 0x3ff) || (ch >= 0x1f00 && ch <= 0x1fff)) return GREEK;
  return 0;
}

/** Look-alike class members (code unit → 1); all are in the BMP. */
export const LOOK_ALIKE_UNITS: Uint8Array = (() => {
  const table = new Uint8Array(0x10000);
  for (const cls of HOMOGLYPH_CLASSES) {
    for (const member of [cls.latin, cls.cyrillic, cls.greek, ...cls.extra]) if (member !== '') table[member.charCodeAt(0)] = 1;
  }
  return table;
})();

/** Whether a text holds a Cyrillic or Greek character (no fold or spoofing without one). */
export const HAS_CYRILLIC_OR_GREEK = /[\u0370-\u052F\u1F00-\u1FFF]/;
