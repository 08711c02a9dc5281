/**
 * The English Snowball stemmer (Porter2, in the version snowball-stemmers 0.6 ships: special
 * prefixes gener/commun/arsen, the two exception lists), written directly on strings.
 *
 * Why: snowball-stemmers' generated code spends about 3 µs per word on getter and argument
 * dispatch; English is most of the web, and stemming was most of the fingerprinting time. This
 * gives the same stems, several times faster; the tests compare it with snowball-stemmers word for
 * word (every word of the dev pages and stop-word lists, and generated suffix combinations).
 */

const EXCEPTIONS_1: ReadonlyMap<string, string> = new Map([
  ['skis', 'ski'], ['skies', 'sky'], ['dying', 'die'], ['lying', 'lie'], ['tying', 'tie'],
  ['idly', 'idl'], ['gently', 'gentl'], ['ugly', 'ugli'], ['early', 'earli'], ['only', 'onli'], ['singly', 'singl'],
  ['sky', 'sky'], ['news', 'news'], ['howe', 'howe'], ['atlas', 'atlas'], ['cosmos', 'cosmos'], ['bias', 'bias'], ['andes', 'andes'],
]);

const EXCEPTIONS_2: ReadonlySet<string> = new Set(['inning', 'outing', 'canning', 'herring', 'earring', 'proceed', 'exceed', 'succeed']);

/** Step 1b suffixes, longest first (they end in d, g or y). */
const STEP_1B: readonly string[] = ['eedly', 'ingly', 'edly', 'eed', 'ing', 'ed'];

/** Step 2 suffixes (need R1) → replacement; `ogi` and `li` are handled apart. Longest first. */
const STEP_2: readonly (readonly [string, string])[] = [
  ['ational', 'ate'], ['fulness', 'ful'], ['iveness', 'ive'], ['ization', 'ize'], ['ousness', 'ous'],
  ['biliti', 'ble'], ['lessli', 'less'], ['tional', 'tion'],
  ['alism', 'al'], ['aliti', 'al'], ['ation', 'ate'], ['entli', 'ent'], ['fulli', 'ful'], ['iviti', 'ive'], ['ousli', 'ous'],
  ['abli', 'able'], ['alli', 'al'], ['anci', 'ance'], ['ator', 'ate'], ['enci', 'ence'], ['izer', 'ize'],
  ['bli', 'ble'], ['ogi', ''], ['li', ''],
];

/** Step 3 suffixes (need R1; `ative` needs R2) → replacement. Longest first. */
const STEP_3: readonly (readonly [string, string])[] = [
  ['ational', 'ate'], ['tional', 'tion'], ['alize', 'al'], ['icate', 'ic'], ['iciti', 'ic'], ['ative', ''],
  ['ical', 'ic'], ['ness', ''], ['ful', ''],
];

/** Step 4 suffixes (need R2; `ion` after s or t only). Longest first. */
const STEP_4: readonly string[] = [
  'ement', 'ance', 'ence', 'able', 'ible', 'ment', 'ant', 'ent', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize', 'ion', 'al', 'er', 'ic',
];

/** Entries of a longest-first suffix list grouped by their last letter, order kept. */
function byLastLetter<T>(entries: readonly T[], suffixOf: (entry: T) => string): readonly (readonly T[])[] {
  const groups: T[][] = Array.from({ length: 128 }, () => []);
  for (const entry of entries) {
    const suffix = suffixOf(entry);
    groups[suffix.charCodeAt(suffix.length - 1)]!.push(entry);
  }
  return groups;
}

const STEP_2_BY_LAST = byLastLetter(STEP_2, (e) => e[0]);
const STEP_3_BY_LAST = byLastLetter(STEP_3, (e) => e[0]);
const STEP_4_BY_LAST = byLastLetter(STEP_4, (e) => e);
const NONE: readonly never[] = [];

function candidates<T>(groups: readonly (readonly T[])[], s: string): readonly T[] {
  const last = s.charCodeAt(s.length - 1);
  return last < 128 ? groups[last]! : NONE;
}

function isVowel(c: number): boolean {
  // a e i o u y (a 'Y' marked by the prelude is a consonant)
  return c === 97 || c === 101 || c === 105 || c === 111 || c === 117 || c === 121;
}

/** In the v_WXY grouping: vowels, w, x, and Y. */
function isVowelWXY(c: number): boolean {
  return isVowel(c) || c === 119 || c === 120 || c === 89;
}

/** Whether s[0..end) ends in a short syllable (Porter2's definition). */
function endsShortSyllable(s: string, end: number): boolean {
  // non-v_WXY v non-v at the end, or non-v v making up the whole word.
  if (end >= 3) return !isVowelWXY(s.charCodeAt(end - 1)) && isVowel(s.charCodeAt(end - 2)) && !isVowel(s.charCodeAt(end - 3));
  return end === 2 && !isVowel(s.charCodeAt(1)) && isVowel(s.charCodeAt(0));
}

/** Index after the first non-vowel that follows a vowel, at or after `from`; `s.length` if none. */
function regionStart(s: string, from: number): number {
  let i = from;
  while (i < s.length && !isVowel(s.charCodeAt(i))) i++;
  if (i >= s.length) return s.length;
  while (i < s.length && isVowel(s.charCodeAt(i))) i++;
  return i >= s.length ? s.length : i + 1;
}

function hasVowel(s: string, end: number): boolean {
  for (let i = 0; i < end; i++) if (isVowel(s.charCodeAt(i))) return true;
  return false;
}

function isValidLi(c: number): boolean {
  // c d e g h k m n r t
  return c === 99 || c === 100 || c === 101 || c === 103 || c === 104 || c === 107 || c === 109 || c === 110 || c === 114 || c === 116;
}

/** The English Snowball stem of a lower-case word. */
export function stemEnglish(word: string): string {
  const exception = EXCEPTIONS_1.get(word);
  if (exception !== undefined) return exception;
  if (word.length < 3) return word;

  // Prelude: drop one leading apostrophe; mark consonant y (initial, or after a vowel) as Y.
  let s = word.charCodeAt(0) === 39 ? word.slice(1) : word;
  let yFound = false;
  if (s.includes('y')) {
    let out = '';
    let prev = -1;
    for (let i = 0; i < s.length; i++) {
      let c = s.charCodeAt(i);
      if (c === 121 && (i === 0 || isVowel(prev))) {
        c = 89;
        yFound = true;
      }
      out += String.fromCharCode(c);
      prev = c;
    }
    s = out;
  }

  // Regions.
  let p1: number;
  if (s.startsWith('gener') || s.startsWith('arsen')) p1 = 5;
  else if (s.startsWith('commun')) p1 = 6;
  else p1 = regionStart(s, 0);
  const p2 = regionStart(s, p1);

  // Step 1a.
  if (s.endsWith("'s'")) s = s.slice(0, -3);
  else if (s.endsWith("'s")) s = s.slice(0, -2);
  else if (s.endsWith("'")) s = s.slice(0, -1);
  if (s.endsWith('sses')) {
    s = s.slice(0, -2);
  } else if (s.endsWith('ied') || s.endsWith('ies')) {
    s = s.length - 3 >= 2 ? `${s.slice(0, -3)}i` : `${s.slice(0, -3)}ie`;
  } else if (s.endsWith('ss') || s.endsWith('us')) {
    // unchanged
  } else if (s.endsWith('s')) {
    if (hasVowel(s, s.length - 2)) s = s.slice(0, -1);
  }

  if (!EXCEPTIONS_2.has(s)) {
    // Step 1b.
    let suffix = '';
    const lastLetter = s.charCodeAt(s.length - 1);
    if (lastLetter === 100 || lastLetter === 103 || lastLetter === 121) {
      for (const candidate of STEP_1B) {
        if (s.endsWith(candidate)) {
          suffix = candidate;
          break;
        }
      }
    }
    if (suffix === 'eed' || suffix === 'eedly') {
      const start = s.length - suffix.length;
      if (start >= p1) s = `${s.slice(0, start)}ee`;
    } else if (suffix !== '') {
      const start = s.length - suffix.length;
      if (hasVowel(s, start)) {
        s = s.slice(0, start);
        if (s.endsWith('at') || s.endsWith('bl') || s.endsWith('iz')) {
          s += 'e';
        } else if (/(?:bb|dd|ff|gg|mm|nn|pp|rr|tt)$/.test(s)) {
          s = s.slice(0, -1);
        } else if (s.length === p1 && endsShortSyllable(s, s.length)) {
          s += 'e';
        }
      }
    }

    // Step 1c.
    const last = s.charCodeAt(s.length - 1);
    if ((last === 121 || last === 89) && s.length > 2 && !isVowel(s.charCodeAt(s.length - 2))) {
      s = `${s.slice(0, -1)}i`;
    }

    // Step 2.
    for (const [from, to] of candidates(STEP_2_BY_LAST, s)) {
      if (!s.endsWith(from)) continue;
      const start = s.length - from.length;
      if (start >= p1) {
        if (from === 'ogi') {
          if (start > 0 && s.charCodeAt(start - 1) === 108) s = `${s.slice(0, start)}og`;
        } else if (from === 'li') {
          if (start > 0 && isValidLi(s.charCodeAt(start - 1))) s = s.slice(0, start);
        } else {
          s = s.slice(0, start) + to;
        }
      }
      break;
    }

    // Step 3.
    for (const [from, to] of candidates(STEP_3_BY_LAST, s)) {
      if (!s.endsWith(from)) continue;
      const start = s.length - from.length;
      if (start >= p1 && (from !== 'ative' || start >= p2)) s = s.slice(0, start) + to;
      break;
    }

    // Step 4.
    for (const suffix4 of candidates(STEP_4_BY_LAST, s)) {
      if (!s.endsWith(suffix4)) continue;
      const start = s.length - suffix4.length;
      if (start >= p2) {
        if (suffix4 !== 'ion') s = s.slice(0, start);
        else if (start > 0 && (s.charCodeAt(start - 1) === 115 || s.charCodeAt(start - 1) === 116)) s = s.slice(0, start);
      }
      break;
    }

    // Step 5.
    const end = s.charCodeAt(s.length - 1);
    const start = s.length - 1;
    if (end === 101) {
      if (start >= p2 || (start >= p1 && !endsShortSyllable(s, start))) s = s.slice(0, start);
    } else if (end === 108) {
      if (start >= p2 && start > 0 && s.charCodeAt(start - 1) === 108) s = s.slice(0, start);
    }
  }

  return yFound ? s.replace(/Y/g, 'y') : s;
}
