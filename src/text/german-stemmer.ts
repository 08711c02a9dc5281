/**
 * The German Snowball stemmer, in the version snowball-stemmers 0.6 ships (ß → ss; u and y between
 * vowels kept as consonants; umlauts removed at the end), written directly on strings for the same
 * reason as english-stemmer.ts; the tests compare it with snowball-stemmers word for word.
 */

// a e i o u y ä ö ü
const isVowel = (c: number): boolean =>
  c === 97 || c === 101 || c === 105 || c === 111 || c === 117 || c === 121 || c === 0xe4 || c === 0xf6 || c === 0xfc;

/** b d f g h k l m n r t */
const isSEnding = (c: number): boolean =>
  c === 98 || c === 100 || c === 102 || c === 103 || c === 104 || c === 107 || c === 108 || c === 109 || c === 110 || c === 114 || c === 116;

/** b d f g h k l m n t */
const isStEnding = (c: number): boolean => c !== 114 && isSEnding(c);

/** Index after the first non-vowel that follows a vowel, at or after `from`; -1 if none. */
function regionStart(s: string, from: number): number {
  let i = from;
  while (i < s.length && !isVowel(s.charCodeAt(i))) i++;
  if (i >= s.length) return -1;
  while (i < s.length && isVowel(s.charCodeAt(i))) i++;
  return i >= s.length ? -1 : i + 1;
}

/** The longest of `suffixes` (given longest first) that `s` ends with, or ''. */
function longest(s: string, suffixes: readonly string[]): string {
  for (const suffix of suffixes) if (s.endsWith(suffix)) return suffix;
  return '';
}

const STEP_1 = ['ern', 'em', 'en', 'er', 'es', 'e', 's'];
const STEP_2 = ['est', 'en', 'er', 'st'];
const STEP_3 = ['heit', 'isch', 'keit', 'lich', 'end', 'ung', 'ig', 'ik'];

/** The German Snowball stem of a lower-case word. */
export function stemGerman(word: string): string {
  // Prelude.
  let s = word.includes('ß') ? word.replace(/ß/g, 'ss') : word;
  if (s.includes('u') || s.includes('y')) {
    const units = s.split('');
    for (let i = 0; i + 2 < units.length; i++) {
      const next = units[i + 1];
      if ((next === 'u' || next === 'y') && isVowel(units[i]!.charCodeAt(0)) && isVowel(units[i + 2]!.charCodeAt(0))) {
        units[i + 1] = next === 'u' ? 'U' : 'Y';
      }
    }
    s = units.join('');
  }

  // Regions: R1 starts at 3 at least; both are the word's end when not found.
  let p1 = s.length;
  let p2 = s.length;
  if (s.length >= 3) {
    const r1 = regionStart(s, 0);
    if (r1 >= 0) {
      p1 = Math.max(r1, 3);
      const r2 = regionStart(s, r1);
      if (r2 >= 0) p2 = r2;
    }
  }

  // Step 1.
  const suffix1 = longest(s, STEP_1);
  if (suffix1 !== '') {
    const start = s.length - suffix1.length;
    if (start >= p1) {
      if (suffix1 === 's') {
        if (start > 0 && isSEnding(s.charCodeAt(start - 1))) s = s.slice(0, start);
      } else {
        s = s.slice(0, start);
        if ((suffix1 === 'e' || suffix1 === 'en' || suffix1 === 'es') && s.endsWith('niss')) s = s.slice(0, -1);
      }
    }
  }

  // Step 2.
  const suffix2 = longest(s, STEP_2);
  if (suffix2 !== '') {
    const start = s.length - suffix2.length;
    if (start >= p1) {
      if (suffix2 !== 'st') s = s.slice(0, start);
      else if (start >= 4 && isStEnding(s.charCodeAt(start - 1))) s = s.slice(0, start);
    }
  }

  // Step 3.
  const suffix3 = longest(s, STEP_3);
  if (suffix3 !== '') {
    const start = s.length - suffix3.length;
    if (start >= p2) {
      if (suffix3 === 'end' || suffix3 === 'ung') {
        s = s.slice(0, start);
        const ig = s.length - 2;
        if (s.endsWith('ig') && !(ig > 0 && s.charCodeAt(ig - 1) === 101) && ig >= p2) s = s.slice(0, ig);
      } else if (suffix3 === 'ig' || suffix3 === 'ik' || suffix3 === 'isch') {
        if (!(start > 0 && s.charCodeAt(start - 1) === 101)) s = s.slice(0, start);
      } else if (suffix3 === 'lich' || suffix3 === 'heit') {
        s = s.slice(0, start);
        const end = s.length - 2;
        if ((s.endsWith('er') || s.endsWith('en')) && end >= p1) s = s.slice(0, end);
      } else {
        // keit
        s = s.slice(0, start);
        const rest = longest(s, ['lich', 'ig']);
        if (rest !== '' && s.length - rest.length >= p2) s = s.slice(0, -rest.length);
      }
    }
  }

  // Postlude.
  return /[UYäöü]/.test(s) ? s.replace(/[UYäöü]/g, (c) => ({ U: 'u', Y: 'y', ä: 'a', ö: 'o', ü: 'u' })[c]!) : s;
}
