/**
 * The normaliser's invariant: the fingerprint, the text hash and the language are functions of the
 * normalised token sequence alone.
 *
 * "Token sequence" here is the paragraphs' tokens: shingles stay within paragraphs (so that swapping
 * paragraphs leaves the features unchanged), hence the fingerprint depends on where paragraphs break,
 * and the text hash (over the flat tokens) does not. The perturbations below therefore keep every
 * paragraph break where it was and change only what the tokeniser must ignore:
 * - case: any letter whose case round-trips (lower(upper(c)) = lower(c)) and whose two cases are
 *   alike in look-alike-class membership (Cyrillic `т` is no look-alike of `t` but `Т` is of `T`;
 *   see fold-homoglyphs.ts), Greek sigma aside (lower-casing writes a word-final `Σ` as `ς`, so
 *   `ασ` and `ΑΣ` are different tokens; real Greek text never ends a word on `σ`);
 * - whitespace: runs of spaces, tabs, no-break, em and ideographic spaces, and at most one line
 *   break (a soft wrap) between two words — in a text with blank lines only: in a text without any,
 *   each line break ends a paragraph (one paragraph a line, as in most text corpora);
 * - default-ignorable code points inside words (soft hyphen, ZWSP, ZWNJ, ZWJ, word joiner, BOM, a
 *   variation selector; issue 28): normalisation removes them;
 * - punctuation between words (with or without a space);
 * - paragraph breaks written differently: `\n\n`, `\r\n\r\n`, `\r\r`, U+2029, blank lines holding
 *   spaces, several blank lines, a punctuation-only paragraph (`* * *`) between two paragraphs, and
 *   blank lines or punctuation before the first and after the last paragraph; or, in a text without
 *   blank lines, a single `\n`, `\r\n` or `\r` (with spaces around) between paragraphs;
 * - look-alike letters: a letter swapped for another member of its look-alike class.
 * Texts: the real texts of the test fixtures, samples in several languages, and random words in one
 * alphabetic script per text (with digits and Han characters).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config.js';
import { fingerprintToHex } from '../../src/fingerprint/fingerprint-codec.js';
import { analyzeText, fingerprintParamsFrom } from '../../src/analyze/analyze-text.js';
import { HOMOGLYPH_CLASSES } from '../../src/text/homoglyph-table.js';
import type { FingerprintParams } from '../../src/types.js';

const params = fingerprintParamsFrom(defaultConfig().fingerprint);
const fixtures = join(import.meta.dirname, '..', 'fixtures', 'extract');

/** A text as paragraphs of words (a word: a run without whitespace, punctuation inside kept). */
type Shape = readonly (readonly string[])[];

function shapeOf(text: string): Shape {
  return text.split(/\n\s*\n/).map((p) => p.split(/\s+/).filter((w) => w !== '')).filter((p) => p.length > 0);
}

const realTexts: string[] = [
  ...Object.values(JSON.parse(readFileSync(join(fixtures, 'real-pages', 'ground-truth.json'), 'utf8')) as Record<string, { articleBody: string }>).map((v) => v.articleBody),
  ...['blog-sidebar', 'br-paragraphs', 'embedded-tweet', 'news-article', 'table-layout'].map((name) => readFileSync(join(fixtures, name, 'expected.txt'), 'utf8')),
  'Поиск почти одинаковых документов находит веб-страницы, основной текст которых почти совпадает: зеркала, перепечатки статей и копии с изменённым шаблоном.',
  'La detecció de documents gairebé duplicats troba pàgines web amb el mateix text principal, com ara miralls, articles sindicats i còpies amb una altra plantilla.',
  'Die Erkennung von Beinahe-Duplikaten findet Webseiten, deren Haupttext fast gleich ist, etwa Spiegelseiten, übernommene Artikel und Kopien mit anderer Vorlage.',
  'Η ανίχνευση σχεδόν πανομοιότυπων εγγράφων βρίσκει ιστοσελίδες των οποίων το κύριο κείμενο είναι σχεδόν το ίδιο.',
  'La detección de documentos casi duplicados encuentra páginas web cuyo texto principal es casi el mismo, como espejos y copias.',
  '近似重复文档检测可以找到主要文本几乎相同的网页，例如镜像网站、转载文章以及更换了模板的副本。',
];

/** Look-alike class of each member letter, and whether a letter is a member. */
const classOf = new Map<string, readonly string[]>();
for (const cls of HOMOGLYPH_CLASSES) {
  const members = [cls.latin, cls.cyrillic, cls.greek, ...cls.extra].filter((m) => m !== '');
  for (const m of members) classOf.set(m, members);
}

function caseFlippable(ch: string): boolean {
  // Lower-casing writes a word-final capital sigma as `ς`: `ΑΣ` is `ας`, not `ασ`.
  if (ch === 'σ' || ch === 'Σ' || ch === 'ς') return false;
  const upper = ch.toUpperCase();
  const lower = ch.toLowerCase();
  if (upper === lower || upper.length !== 1 || lower.length !== 1 || upper.toLowerCase() !== lower || lower.toUpperCase() !== upper) return false;
  return classOf.has(upper) === classOf.has(lower);
}

const WHITESPACE = [' ', '  ', '\t', '\u00a0', '\u2003', '\u3000', ' \t '] as const;
const PUNCTUATION = [',', '.', ';', ':', '!', '?', '-', '—', '(', ')', '"', "'", '«', '»', '…', '/', '*', ', ,', '[', ']'] as const;
const PARAGRAPH_BREAKS = ['\n\n', '\r\n\r\n', '\r\r', '\u2029', '\n \n', '\n\t\n', '\n\n\n\n', '\n\n* * *\n\n', ' \u2029 ', '\r\n \r\n'] as const;
const EDGES = ['', '\n\n', '  ', '-- ', '\u2029', '\n\n…\n\n'] as const;

/** Seeded choices for one perturbed rendering. */
interface Perturbation {
  readonly seed: number;
  readonly caseRate: number;
  readonly homoglyphRate: number;
  readonly punctuationRate: number;
  readonly softWrapRate: number;
  readonly ignorableRate: number;
  /** Paragraphs end at single line breaks (a text without blank lines) instead of blank lines. */
  readonly lines: boolean;
}

const IGNORABLES = ['\u00ad', '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\ufe0f', '\u180e'] as const;
const LINE_BREAKS = ['\n', '\r\n', '\r', ' \n ', '\t\r\n', '\n\u3000'] as const;

function prng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

function perturbWord(word: string, p: Perturbation, random: () => number): string {
  let out = '';
  for (const ch of word) {
    let c = ch;
    if (random() < p.caseRate && caseFlippable(c)) c = c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase();
    const members = classOf.get(c);
    if (members !== undefined && random() < p.homoglyphRate) c = members[Math.floor(random() * members.length)]!;
    if (out !== '' && random() < p.ignorableRate) out += IGNORABLES[Math.floor(random() * IGNORABLES.length)]!;
    out += c;
  }
  return out;
}

function wordSeparator(p: Perturbation, random: () => number, softWraps: boolean): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  let sep = '';
  if (random() < p.punctuationRate) sep += pick(PUNCTUATION);
  if (sep === '' || random() < 0.7) sep += pick(WHITESPACE);
  if (softWraps && random() < p.softWrapRate) sep += random() < 0.5 ? '\n' : '\r\n';
  if (random() < p.punctuationRate / 2) sep += pick(PUNCTUATION);
  return sep;
}

function render(shape: Shape, p: Perturbation | null): string {
  if (p === null) return shape.map((words) => words.join(' ')).join('\n\n');
  const random = prng(p.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  // A line break inside a paragraph is a soft wrap only where blank lines separate paragraphs.
  const softWraps = !p.lines && shape.length > 1;
  const paragraphs = shape.map((words) => words.map((w, i) => (i === 0 ? '' : wordSeparator(p, random, softWraps)) + perturbWord(w, p, random)).join(''));
  return pick(EDGES) + paragraphs.map((text, i) => (i === 0 ? '' : pick(p.lines ? LINE_BREAKS : PARAGRAPH_BREAKS)) + text).join('') + pick(EDGES);
}

const SCRIPTS: readonly string[] = [
  'abcdefghijklmnopqrstuvwxyzéèàçñüöäß',
  'абвгдеёжзийклмнопрстуфхцчшщъыьэюя',
  'αβγδεζηθικλμνξοπρστυφχψω',
];

const randomShape: fc.Arbitrary<Shape> = fc.integer({ min: 0, max: SCRIPTS.length - 1 }).chain((script) => {
  const letters = [...SCRIPTS[script]!];
  const word = fc.oneof(
    { weight: 8, arbitrary: fc.array(fc.constantFrom(...letters), { minLength: 1, maxLength: 9 }).map((cs) => cs.join('')) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 99999 }).map(String) },
    { weight: 1, arbitrary: fc.constantFrom('文', '字', '中', '国', '語') },
  );
  return fc.array(fc.array(word, { minLength: 1, maxLength: 60 }), { minLength: 1, maxLength: 6 });
});

const perturbation: fc.Arbitrary<Perturbation> = fc.record({
  seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  caseRate: fc.constantFrom(0, 0.1, 0.5, 1),
  homoglyphRate: fc.constantFrom(0, 0.3, 1),
  punctuationRate: fc.constantFrom(0, 0.2, 0.8),
  softWrapRate: fc.constantFrom(0, 0.05, 0.3),
  ignorableRate: fc.constantFrom(0, 0, 0.05, 0.3),
  lines: fc.boolean(),
});

function outputs(text: string, p: FingerprintParams) {
  const a = analyzeText(text, p);
  return { fingerprint: a.fingerprint === null ? null : fingerprintToHex(a.fingerprint), textHash: a.textHash, language: a.language, tokens: a.tokenCount };
}

describe('fingerprint and text hash depend on the normalised token sequence alone', () => {
  it('real texts × case, whitespace, punctuation, paragraph-break and look-alike perturbations', () => {
    fc.assert(
      fc.property(fc.constantFrom(...realTexts.map(shapeOf)), perturbation, (shape, p) => {
        expect(outputs(render(shape, p), params)).toEqual(outputs(render(shape, null), params));
      }),
      { numRuns: 150, seed: 11 },
    );
  });

  it('random words in one script (with digits and Han) × the same perturbations, both hashes', () => {
    fc.assert(
      fc.property(randomShape, perturbation, fc.constantFrom('murmur', 'rabin'), (shape, p, hash) => {
        const withHash: FingerprintParams = { ...params, hash: hash as FingerprintParams['hash'] };
        expect(outputs(render(shape, p), withHash)).toEqual(outputs(render(shape, null), withHash));
      }),
      { numRuns: 300, seed: 12 },
    );
  });

  it.each([1, 2, 3, 4, 5, 6, 7, 8])('the issue\'s example: `a b c` and `a, , b, , c` over 500 random words give one fingerprint (seed %i)', (seed) => {
    const random = prng(seed);
    const words = Array.from({ length: 500 }, () => Array.from({ length: 1 + Math.floor(random() * 5) }, () => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(random() * 26)]).join(''));
    expect(outputs(words.join(', , '), params)).toEqual(outputs(words.join(' '), params));
  });

  it('a different paragraph break is a different token sequence for the fingerprint, not for the text hash', () => {
    const words = realTexts[0]!.split(/\s+/).filter((w) => w !== '');
    const one = analyzeText(words.join(' '), params);
    const split = analyzeText(`${words.slice(0, 40).join(' ')}\n\n${words.slice(40).join(' ')}`, params);
    expect(split.textHash).toBe(one.textHash);
    expect(split.fingerprint).not.toEqual(one.fingerprint);
  });
});
