/**
 * The English Snowball stemmer (Porter2, in the version snowball-stemmers 0.6 ships: special
 * prefixes gener/commun/arsen, the two exception lists), written on the word's UTF-16 code units
 * in a scratch buffer: suffixes are tested and removed by index, and a string is made once, at the
 * end (a slice of the word when the stem is a prefix of it, which is the common case).
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

/** A suffix list entry: the suffix's code units and its replacement's. */
interface Rule {
  readonly suffix: Uint16Array;
  readonly to: Uint16Array;
  /** The suffix as a string (for the rules with extra conditions). */
  readonly name: string;
}

const codes = (text: string): Uint16Array => Uint16Array.from(text, (ch) => ch.charCodeAt(0));

/** Rules of a longest-first suffix list grouped by their last letter, order kept. */
function byLastLetter(entries: readonly (readonly [string, string])[]): readonly (readonly Rule[])[] {
  const groups: Rule[][] = Array.from({ length: 128 }, () => []);
  for (const [suffix, to] of entries) groups[suffix.charCodeAt(suffix.length - 1)]!.push({ suffix: codes(suffix), to: codes(to), name: suffix });
  return groups;
}

const STEP_2_BY_LAST = byLastLetter(STEP_2);
const STEP_3_BY_LAST = byLastLetter(STEP_3);
const STEP_4_BY_LAST = byLastLetter(STEP_4.map((suffix) => [suffix, ''] as const));
const STEP_1B_CODES: readonly Uint16Array[] = STEP_1B.map(codes);
const EXCEPTIONS_2_CODES: readonly Uint16Array[] = [...EXCEPTIONS_2].map(codes);
const EXCEPTION_1_MAX_LENGTH = Math.max(...[...EXCEPTIONS_1.keys()].map((w) => w.length));
/** Last letters of the first exception list's words (code unit → 1), to skip most lookups. */
const EXCEPTION_1_LAST = (() => {
  const table = new Uint8Array(128);
  for (const w of EXCEPTIONS_1.keys()) table[w.charCodeAt(w.length - 1)] = 1;
  return table;
})();
const NONE: readonly Rule[] = [];

/** Suffixes tested by code units. */
const S_APOS_S_APOS = codes("'s'");
const S_APOS_S = codes("'s");
const S_SSES = codes('sses');
const S_IED = codes('ied');
const S_IES = codes('ies');
const S_SS = codes('ss');
const S_US = codes('us');
const S_EED = STEP_1B_CODES[3]!;
const S_EEDLY = STEP_1B_CODES[0]!;
const P_GENER = codes('gener');
const P_ARSEN = codes('arsen');
const P_COMMUN = codes('commun');

/**
 * Scratch space for the word being stemmed (fully rewritten by every call, never read across calls;
 * JavaScript runs one call at a time per thread). Fixed size: longer words (a base64 blob in a page)
 * get a buffer of their own for that call, so one huge token never stays allocated.
 */
const SHARED_BUFFER_UNITS = 256;
const sharedBuffer = new Uint16Array(SHARED_BUFFER_UNITS);

/** a e i o u y (a 'Y' marked by the prelude is a consonant), by code unit below 128. */
const VOWEL = (() => {
  const table = new Uint8Array(128);
  for (const ch of 'aeiouy') table[ch.charCodeAt(0)] = 1;
  return table;
})();

function isVowel(c: number): boolean {
  return c < 128 && VOWEL[c] === 1;
}

/** In the v_WXY grouping: vowels, w, x, and Y. */
function isVowelWXY(c: number): boolean {
  return isVowel(c) || c === 119 || c === 120 || c === 89;
}

/** Whether b[0..len) ends with `suffix`. */
function endsWith(b: Uint16Array, len: number, suffix: Uint16Array): boolean {
  const n = suffix.length;
  if (n > len) return false;
  const from = len - n;
  for (let i = 0; i < n; i++) if (b[from + i] !== suffix[i]) return false;
  return true;
}

/** Whether b[0..len) starts with `prefix`. */
function startsWith(b: Uint16Array, len: number, prefix: Uint16Array): boolean {
  const n = prefix.length;
  if (n > len) return false;
  for (let i = 0; i < n; i++) if (b[i] !== prefix[i]) return false;
  return true;
}

/** Whether b[0..end) ends in a short syllable (Porter2's definition). */
function endsShortSyllable(b: Uint16Array, end: number): boolean {
  // non-v_WXY v non-v at the end, or non-v v making up the whole word.
  if (end >= 3) return !isVowelWXY(b[end - 1]!) && isVowel(b[end - 2]!) && !isVowel(b[end - 3]!);
  return end === 2 && !isVowel(b[1]!) && isVowel(b[0]!);
}

/** Index after the first non-vowel that follows a vowel, at or after `from`; `len` if none. */
function regionStart(b: Uint16Array, len: number, from: number): number {
  let i = from;
  while (i < len && !isVowel(b[i]!)) i++;
  if (i >= len) return len;
  while (i < len && isVowel(b[i]!)) i++;
  return i >= len ? len : i + 1;
}

function hasVowel(b: Uint16Array, end: number): boolean {
  for (let i = 0; i < end; i++) if (isVowel(b[i]!)) return true;
  return false;
}

function isValidLi(c: number): boolean {
  // c d e g h k m n r t
  return c === 99 || c === 100 || c === 101 || c === 103 || c === 104 || c === 107 || c === 109 || c === 110 || c === 114 || c === 116;
}

function isDouble(c: number): boolean {
  // b d f g m n p r t
  return c === 98 || c === 100 || c === 102 || c === 103 || c === 109 || c === 110 || c === 112 || c === 114 || c === 116;
}

/** b[0..len) with `to` in place of its last `cut` units; returns the new length (the units change from len − cut on). */
function replaceEnd(b: Uint16Array, len: number, cut: number, to: Uint16Array): number {
  let at = len - cut;
  for (let i = 0; i < to.length; i++) b[at++] = to[i]!;
  return at;
}

/** The English Snowball stem of a lower-case word. */
export function stemEnglish(word: string): string {
  if (word.length <= EXCEPTION_1_MAX_LENGTH && EXCEPTION_1_LAST[word.charCodeAt(word.length - 1)] === 1) {
    const exception = EXCEPTIONS_1.get(word);
    if (exception !== undefined) return exception;
  }
  if (word.length < 3) return word;

  // Prelude: drop one leading apostrophe; mark consonant y (initial, or after a vowel) as Y.
  const off = word.charCodeAt(0) === 39 ? 1 : 0;
  let len = word.length - off;
  const b = len + 4 <= SHARED_BUFFER_UNITS ? sharedBuffer : new Uint16Array(len + 4);
  let yFound = false;
  // Lowest index written since the prelude: the stem equals the word's own units below it.
  let changed = len;
  let prev = -1;
  for (let i = 0; i < len; i++) {
    let c = word.charCodeAt(off + i);
    if (c === 121 && (i === 0 || isVowel(prev))) {
      c = 89;
      yFound = true;
    }
    b[i] = c;
    prev = c;
  }

  // Regions.
  let p1: number;
  if (startsWith(b, len, P_GENER) || startsWith(b, len, P_ARSEN)) p1 = 5;
  else if (startsWith(b, len, P_COMMUN)) p1 = 6;
  else p1 = regionStart(b, len, 0);
  const p2 = regionStart(b, len, p1);

  // Step 1a.
  if (endsWith(b, len, S_APOS_S_APOS)) len -= 3;
  else if (endsWith(b, len, S_APOS_S)) len -= 2;
  else if (len > 0 && b[len - 1] === 39) len -= 1;
  if (endsWith(b, len, S_SSES)) {
    len -= 2;
  } else if (endsWith(b, len, S_IED) || endsWith(b, len, S_IES)) {
    // -ied/-ies → -i after two or more letters, else -ie (both already in place).
    len = len - 3 >= 2 ? len - 2 : len - 1;
  } else if (endsWith(b, len, S_SS) || endsWith(b, len, S_US)) {
    // unchanged
  } else if (len > 0 && b[len - 1] === 115) {
    if (hasVowel(b, len - 2)) len -= 1;
  }

  let exception2 = false;
  if (len === 6 || len === 7) {
    for (const candidate of EXCEPTIONS_2_CODES) {
      if (candidate.length === len && endsWith(b, len, candidate)) {
        exception2 = true;
        break;
      }
    }
  }
  if (!exception2) {
    // Step 1b.
    let suffix: Uint16Array | null = null;
    const lastLetter = len > 0 ? b[len - 1]! : -1;
    if (lastLetter === 100 || lastLetter === 103 || lastLetter === 121) {
      for (const candidate of STEP_1B_CODES) {
        if (endsWith(b, len, candidate)) {
          suffix = candidate;
          break;
        }
      }
    }
    if (suffix === S_EED || suffix === S_EEDLY) {
      const start = len - suffix.length;
      if (start >= p1) len = start + 2;
    } else if (suffix !== null) {
      const start = len - suffix.length;
      if (hasVowel(b, start)) {
        len = start;
        const a = len >= 2 ? b[len - 2]! : -1;
        const z = len >= 1 ? b[len - 1]! : -1;
        if ((a === 97 && z === 116) || (a === 98 && z === 108) || (a === 105 && z === 122)) {
          if (len < changed) changed = len;
          b[len++] = 101; // at, bl, iz → +e
        } else if (a === z && isDouble(z)) {
          len -= 1;
        } else if (len === p1 && endsShortSyllable(b, len)) {
          if (len < changed) changed = len;
          b[len++] = 101;
        }
      }
    }

    // Step 1c.
    if (len > 2) {
      const last = b[len - 1]!;
      if ((last === 121 || last === 89) && !isVowel(b[len - 2]!)) {
        b[len - 1] = 105;
        if (len - 1 < changed) changed = len - 1;
      }
    }

    // Step 2.
    const last2 = len > 0 ? b[len - 1]! : -1;
    for (const rule of last2 >= 0 && last2 < 128 ? STEP_2_BY_LAST[last2]! : NONE) {
      if (!endsWith(b, len, rule.suffix)) continue;
      const start = len - rule.suffix.length;
      if (start >= p1) {
        if (rule.name === 'ogi') {
          if (start > 0 && b[start - 1] === 108) len = start + 2; // -logi → -log
        } else if (rule.name === 'li') {
          if (start > 0 && isValidLi(b[start - 1]!)) len = start;
        } else {
          if (start < changed) changed = start;
          len = replaceEnd(b, len, rule.suffix.length, rule.to);
        }
      }
      break;
    }

    // Step 3.
    const last3 = len > 0 ? b[len - 1]! : -1;
    for (const rule of last3 >= 0 && last3 < 128 ? STEP_3_BY_LAST[last3]! : NONE) {
      if (!endsWith(b, len, rule.suffix)) continue;
      const start = len - rule.suffix.length;
      if (start >= p1 && (rule.name !== 'ative' || start >= p2)) {
        if (start < changed) changed = start;
        len = replaceEnd(b, len, rule.suffix.length, rule.to);
      }
      break;
    }

    // Step 4.
    const last4 = len > 0 ? b[len - 1]! : -1;
    for (const rule of last4 >= 0 && last4 < 128 ? STEP_4_BY_LAST[last4]! : NONE) {
      if (!endsWith(b, len, rule.suffix)) continue;
      const start = len - rule.suffix.length;
      if (start >= p2) {
        if (rule.name !== 'ion') len = start;
        else if (start > 0 && (b[start - 1] === 115 || b[start - 1] === 116)) len = start;
      }
      break;
    }

    // Step 5.
    if (len > 0) {
      const end = b[len - 1]!;
      const start = len - 1;
      if (end === 101) {
        if (start >= p2 || (start >= p1 && !endsShortSyllable(b, start))) len = start;
      } else if (end === 108) {
        if (start >= p2 && start > 0 && b[start - 1] === 108) len = start;
      }
    }
  }

  if (yFound) {
    for (let i = 0; i < len; i++) {
      if (b[i] === 89) {
        b[i] = 121;
        if (i < changed && word.charCodeAt(off + i) !== 121) changed = i;
      }
    }
  }
  // The stem as a string: the word's own prefix where it agrees, then the changed units.
  let same = changed < len ? changed : len;
  const limit = Math.min(len, word.length - off);
  while (same < limit && b[same] === word.charCodeAt(off + same)) same++;
  if (same === len) return off === 0 && len === word.length ? word : word.slice(off, off + len);
  let out = word.slice(off, off + same);
  for (let i = same; i < len; i++) out += String.fromCharCode(b[i]!);
  return out;
}
