/**
 * The `homoglyph` stage: words that mix scripts — Cyrillic look-alikes inside Latin words or the
 * reverse — or that are written wholly in look-alikes of the script the rest of the text uses.
 * Runs on the raw text (before normalisation folds the look-alikes away).
 *
 * A word counts only when every letter of its minority script is a look-alike (a member of a
 * HOMOGLYPH_CLASSES class): mixed words that are no spoofing, such as a Greek `μ` before a Latin
 * `m` in `3μm`, are left alone.
 */
import { CYRILLIC, GREEK, HAS_CYRILLIC_OR_GREEK, LATIN, LOOK_ALIKE_UNITS, letterScriptOf } from '../text/homoglyph-table.js';
import type { HomoglyphFlag } from '../types.js';
import type { CascadeOptions } from './cascade-options.js';
import { evidenceFigure } from './evidence-figure.js';

/** Letters and marks of the BMP (code unit → 1): the characters words are made of. */
const WORD_CHAR = (() => {
  const table = new Uint8Array(0x10000);
  const letterOrMark = /^[\p{L}\p{M}]$/u;
  for (let cp = 0; cp < 0x10000; cp++) if ((cp < 0xd800 || cp > 0xdfff) && letterOrMark.test(String.fromCharCode(cp))) table[cp] = 1;
  return table;
})();
const ASTRAL_WORD_CHAR = /^[\p{L}\p{M}]$/u;
const MAX_EXAMPLES = 5;

export interface HomoglyphCount {
  readonly words: number;
  readonly spoofed: number;
  readonly examples: string[];
  /** `examples` with each letter outside the text's script marked (markLookAlikes). */
  readonly marked: string[];
}

const SCRIPT_NAMES = ['', 'Latin', 'Cyrillic', 'Greek'];

/**
 * A spoofed word with its look-alike letters made visible: each letter of a script other than the
 * text's `script` written as `[<letter> U+<code point> <script>]`, e.g. `p[а U+0430 Cyrillic]per`,
 * so that a reader sees which letters are not what they look like.
 */
export function markLookAlikes(word: string, script: number): string {
  let out = '';
  for (const ch of word) {
    const cp = ch.codePointAt(0)!;
    const s = cp <= 0xffff ? letterScriptOf(cp) : 0;
    out += s !== 0 && s !== script ? `[${ch} U+${cp.toString(16).toUpperCase().padStart(4, '0')} ${SCRIPT_NAMES[s]}]` : ch;
  }
  return out;
}

/** Width in code units of the word character at `i` (a surrogate pair is one), 0 when none. */
function wordCharAt(text: string, i: number): number {
  if (i >= text.length) return 0;
  const unit = text.charCodeAt(i);
  if (unit < 0xd800 || unit > 0xdbff) return WORD_CHAR[unit]!;
  const cp = text.codePointAt(i)!;
  return cp > 0xffff && ASTRAL_WORD_CHAR.test(String.fromCodePoint(cp)) ? 2 : 0;
}

/**
 * Per word, in one pass over its code units: letters per script (`counts`), letters per script that
 * are not look-alikes (`plain`), and whether every unit is a look-alike.
 */
function scanWord(text: string, start: number, end: number, counts: Int32Array, plain: Int32Array): boolean {
  counts.fill(0);
  plain.fill(0);
  let allLookAlike = true;
  for (let i = start; i < end; i++) {
    const ch = text.charCodeAt(i);
    const script = letterScriptOf(ch);
    counts[script]!++;
    if (LOOK_ALIKE_UNITS[ch] !== 1) {
      allLookAlike = false;
      plain[script]!++;
    }
  }
  return allLookAlike;
}

/** Whether text[start, end) is a spoofed word, given the text's script. */
function isSpoofed(text: string, start: number, end: number, counts: Int32Array, plain: Int32Array, script: number): boolean {
  const allLookAlike = scanWord(text, start, end, counts, plain);
  const present = (counts[LATIN]! > 0 ? 1 : 0) + (counts[CYRILLIC]! > 0 ? 1 : 0) + (counts[GREEK]! > 0 ? 1 : 0);
  if (present >= 2) {
    // The word's own majority script; its other letters must all be look-alikes.
    let major = LATIN;
    for (let s = CYRILLIC; s <= GREEK; s++) if (counts[s]! > counts[major]!) major = s;
    for (let s = LATIN; s <= GREEK; s++) if (s !== major && plain[s]! > 0) return false;
    return true;
  }
  // A whole word in Cyrillic or Greek look-alikes in a Latin text (`рор` in English). Not the
  // reverse: Cyrillic texts write Latin abbreviations, Roman numerals and English words (`OK`,
  // `XXI`, `copy`) wholly in letters that happen to be look-alikes.
  return present === 1 && end - start >= 2 && allLookAlike && script === LATIN && counts[LATIN]! === 0;
}

const HAS_LATIN = /[A-Za-z\u00C0-\u024F\u1E00-\u1EFF]/;

/**
 * Per BMP code unit, what the single pass needs: bits 0–1 its script (letterScriptOf), bit 2 a look-alike,
 * bit 3 a word character (letter or mark), bits 4–5 its script when it is no look-alike (what
 * textScript counts; 0 for look-alikes and non-letters), bit 6 a high surrogate. One table read per
 * code unit.
 */
const SCRIPT_BITS = 3;
const LOOK_BIT = 4;
const WORD_BIT = 8;
const PLAIN_SHIFT = 4;
const HIGH_BIT = 64;
const UNIT = (() => {
  const table = new Uint8Array(0x10000);
  for (let ch = 0; ch < 0x10000; ch++) {
    const high = ch >= 0xd800 && ch <= 0xdbff ? HIGH_BIT : 0;
    table[ch] = letterScriptOf(ch) | (LOOK_ALIKE_UNITS[ch]! << 2) | (WORD_CHAR[ch]! << 3) | ((LOOK_ALIKE_UNITS[ch] === 1 ? 0 : letterScriptOf(ch)) << PLAIN_SHIFT) | high;
  }
  return table;
})();
/**
 * A plain letter's weight by its script (PLAIN bits; a high surrogate's 4 masks to 0, as non-letters):
 * counts of PLAIN_RUN units at most, PLAIN_PACK bits a script, add up exactly in a double (3 × 17 < 53).
 */
const PLAIN_PACK = 17;
const PLAIN_RUN = (1 << PLAIN_PACK) - 1;
const PLAIN_WEIGHT = Float64Array.of(0, 1, 2 ** PLAIN_PACK, 2 ** (2 * PLAIN_PACK));

/** Adds packed plain-letter counts (PLAIN_WEIGHT) to `plainLetters` by script. */
function unpackPlain(packed: number, plainLetters: Int32Array): void {
  const unit = 2 ** PLAIN_PACK;
  plainLetters[LATIN]! += packed % unit;
  plainLetters[CYRILLIC]! += Math.floor(packed / unit) % unit;
  plainLetters[GREEK]! += Math.floor(packed / unit / unit);
}

/** Script bits of a word's letters (bit s: a letter of script s). */
const NON_LATIN = (1 << CYRILLIC) | (1 << GREEK);

/**
 * Whether a word with these scripts present may be spoofed (isSpoofed decides): letters of two
 * scripts or more, or a word of two units or more wholly in Cyrillic or Greek look-alikes.
 */
function mayBeSpoofed(scripts: number, allLookAlike: boolean, length: number): boolean {
  const letters = scripts & ~1;
  if ((letters & (letters - 1)) !== 0) return true;
  return allLookAlike && length >= 2 && (letters & NON_LATIN) !== 0;
}

/**
 * The text's UTF-16 code units, copied once natively (reading a typed array is cheaper than
 * charCodeAt per unit). Little-endian, as neardup's other binary formats.
 */
function codeUnits(text: string): Uint16Array {
  const bytes = Buffer.allocUnsafeSlow(2 * text.length);
  bytes.write(text, 0, 'utf16le');
  return new Uint16Array(bytes.buffer, bytes.byteOffset, text.length);
}

/**
 * Counts the text's words and its spoofed words, with the first few as examples. A text without
 * both Latin and Cyrillic/Greek letters has no spoofed word: it is not scanned word by word (its
 * `words` is then 0, as nothing needs it). One pass over the text counts its script (textScript)
 * and its words and keeps the words that may be spoofed; only those are looked at again.
 */
export function countHomoglyphWords(text: string): HomoglyphCount {
  if (!HAS_CYRILLIC_OR_GREEK.test(text) || !HAS_LATIN.test(text)) return { words: 0, spoofed: 0, examples: [], marked: [] };
  const units = codeUnits(text);
  const plainLetters = new Int32Array(4);
  const candidates: number[] = []; // start, end of each word that may be spoofed
  let words = 0;
  // The word being read: its start (−1 between words), scripts present, LOOK_BIT while every unit is a look-alike.
  let start = -1;
  let scripts = 0;
  let lookAlike = 0;
  const n = units.length;
  // Plain letters per script, packed into one number (PLAIN_WEIGHT), added to plainLetters every
  // PLAIN_RUN units: a running sum in a register, not a store per unit.
  let packed = 0;
  let flushAt = Math.min(n, PLAIN_RUN);
  for (let i = 0; i < n; i++) {
    if (i >= flushAt) {
      unpackPlain(packed, plainLetters);
      packed = 0;
      flushAt = Math.min(n, i + PLAIN_RUN);
    }
    const bits = UNIT[units[i]!]!;
    packed += PLAIN_WEIGHT[(bits >> PLAIN_SHIFT) & SCRIPT_BITS]!;
    if ((bits & WORD_BIT) !== 0) {
      if (start < 0) {
        start = i;
        scripts = 0;
        lookAlike = LOOK_BIT;
        words++;
      }
      scripts |= 1 << (bits & SCRIPT_BITS);
      lookAlike &= bits;
      continue;
    }
    if ((bits & HIGH_BIT) !== 0 && wordCharAt(text, i) === 2) {
      // An astral letter (its low surrogate skipped): in a word, no script, no look-alike.
      if (start < 0) {
        start = i;
        scripts = 0;
        words++;
      }
      lookAlike = 0;
      i++;
      continue;
    }
    if (start >= 0) {
      if (mayBeSpoofed(scripts, lookAlike !== 0, i - start)) candidates.push(start, i);
      start = -1;
    }
  }
  if (start >= 0 && mayBeSpoofed(scripts, lookAlike !== 0, n - start)) candidates.push(start, n);
  unpackPlain(packed, plainLetters);
  return judgeCandidates(text, candidates, words, dominant(plainLetters));
}

/** The script with most letters outside the look-alike classes (0 when none), as textScript. */
function dominant(plainLetters: Int32Array): number {
  let best = 0;
  let bestCount = 0;
  for (let s = LATIN; s <= GREEK; s++) {
    if (plainLetters[s]! > bestCount) {
      best = s;
      bestCount = plainLetters[s]!;
    }
  }
  return best;
}

function judgeCandidates(text: string, candidates: readonly number[], words: number, script: number): HomoglyphCount {
  const counts = new Int32Array(4);
  const plain = new Int32Array(4);
  let spoofed = 0;
  const examples: string[] = [];
  for (let c = 0; c < candidates.length; c += 2) {
    const start = candidates[c]!;
    const end = candidates[c + 1]!;
    if (!isSpoofed(text, start, end, counts, plain, script)) continue;
    spoofed++;
    const word = text.slice(start, end);
    if (examples.length < MAX_EXAMPLES && !examples.includes(word)) examples.push(word);
  }
  return { words, spoofed, examples, marked: examples.map((w) => markLookAlikes(w, script)) };
}

/** The `homoglyph` flag of a raw text, or null. */
export function homoglyphFlag(text: string, options: CascadeOptions['homoglyph']): HomoglyphFlag | null {
  const { words, spoofed, examples, marked } = countHomoglyphWords(text);
  if (spoofed === 0 || spoofed < options.minWords) return null;
  const share = spoofed / words;
  if (share < options.minShare) return null;
  return { kind: 'homoglyph', words: spoofed, share: evidenceFigure(share), examples, marked };
}
