/**
 * The Russian Snowball stemmer, in the version snowball-stemmers 0.6 ships (vowels а е и о у ы э ю я;
 * `ё` is not folded), written directly on strings for the same reason as english-stemmer.ts; the
 * tests compare it with snowball-stemmers word for word.
 *
 * All suffixes are matched inside RV (after the first vowel); a suffix is the longest listed one
 * that fits there, and when its condition fails the step fails (no shorter suffix is tried).
 */

const VOWELS = new Set([0x430, 0x435, 0x438, 0x43e, 0x443, 0x44b, 0x44d, 0x44e, 0x44f]);
const isVowel = (c: number): boolean => VOWELS.has(c);

/** [suffix, needs а/я before it], longest first, grouped by last letter (index: code − 0x430). */
type Suffixes = readonly (readonly (readonly [string, boolean])[])[];

function list(needsA: readonly string[], free: readonly string[]): Suffixes {
  const all = [...needsA.map((s) => [s, true] as const), ...free.map((s) => [s, false] as const)]
    .sort((a, b) => b[0].length - a[0].length);
  const groups: (readonly [string, boolean])[][] = Array.from({ length: 32 }, () => []);
  for (const entry of all) groups[entry[0].charCodeAt(entry[0].length - 1) - 0x430]!.push(entry);
  return groups;
}

const PERFECTIVE_GERUND = list(['в', 'вши', 'вшись'], ['ив', 'ивши', 'ившись', 'ыв', 'ывши', 'ывшись']);
const ADJECTIVE = list([], [
  'ее', 'ие', 'ое', 'ые', 'ими', 'ыми', 'ей', 'ий', 'ой', 'ый', 'ем', 'им', 'ом', 'ым',
  'его', 'ого', 'ему', 'ому', 'их', 'ых', 'ею', 'ою', 'ую', 'юю', 'ая', 'яя',
]);
const PARTICIPLE = list(['ем', 'нн', 'вш', 'щ', 'ющ'], ['ивш', 'ывш', 'ующ']);
const REFLEXIVE = list([], ['сь', 'ся']);
const VERB = list(
  ['ла', 'на', 'ете', 'йте', 'ли', 'й', 'л', 'ем', 'н', 'ло', 'но', 'ет', 'ют', 'ны', 'ть', 'ешь', 'нно'],
  ['ила', 'ыла', 'ена', 'ейте', 'уйте', 'ите', 'или', 'ыли', 'ей', 'уй', 'ил', 'ыл', 'им', 'ым', 'ен', 'ило', 'ыло', 'ено',
    'ят', 'ует', 'уют', 'ит', 'ыт', 'ены', 'ить', 'ыть', 'ишь', 'ую', 'ю'],
);
const NOUN = list([], [
  'а', 'ев', 'ов', 'ие', 'ье', 'е', 'иями', 'ями', 'ами', 'еи', 'ии', 'и', 'ией', 'ей', 'ой', 'ий', 'й', 'иям', 'ям', 'ием',
  'ем', 'ам', 'ом', 'о', 'у', 'ах', 'иях', 'ях', 'ы', 'ь', 'ию', 'ью', 'ю', 'ия', 'ья', 'я',
]);

/**
 * Removes the longest suffix of `suffixes` that lies in s[rv..]; null when none matches or its
 * condition (а or я before it, also in RV) fails.
 */
function strip(s: string, rv: number, suffixes: Suffixes): string | null {
  const last = s.charCodeAt(s.length - 1) - 0x430;
  if (!(last >= 0 && last < 32)) return null;
  for (const [suffix, needsA] of suffixes[last]!) {
    const start = s.length - suffix.length;
    if (start < rv || !s.endsWith(suffix)) continue;
    if (needsA) {
      const before = s.charCodeAt(start - 1);
      if (start - 1 < rv || (before !== 0x430 && before !== 0x44f)) return null;
    }
    return s.slice(0, start);
  }
  return null;
}

/** Index after the first char at or after `from` for which `want(c)` holds, or -1. */
function past(s: string, from: number, want: (c: number) => boolean): number {
  for (let i = from; i < s.length; i++) if (want(s.charCodeAt(i))) return i + 1;
  return -1;
}

/** The Russian Snowball stem of a lower-case word. */
export function stemRussian(word: string): string {
  let s = word;
  const n = s.length;
  // Regions: RV after the first vowel; R2 as usual, counted from RV.
  let rv = n;
  let r2 = n;
  const afterVowel = past(s, 0, isVowel);
  if (afterVowel >= 0) {
    rv = afterVowel;
    const a = past(s, rv, (c) => !isVowel(c));
    const b = a < 0 ? -1 : past(s, a, isVowel);
    const c = b < 0 ? -1 : past(s, b, (ch) => !isVowel(ch));
    if (c >= 0) r2 = c;
  }

  const gerund = strip(s, rv, PERFECTIVE_GERUND);
  if (gerund !== null) {
    s = gerund;
  } else {
    s = strip(s, rv, REFLEXIVE) ?? s;
    const adjective = strip(s, rv, ADJECTIVE);
    if (adjective !== null) {
      s = strip(adjective, rv, PARTICIPLE) ?? adjective;
    } else {
      s = strip(s, rv, VERB) ?? strip(s, rv, NOUN) ?? s;
    }
  }

  if (s.length - 1 >= rv && s.endsWith('и')) s = s.slice(0, -1);

  // Derivational: ост / ость in R2.
  for (const suffix of ['ость', 'ост']) {
    const start = s.length - suffix.length;
    if (start >= rv && s.endsWith(suffix)) {
      if (start >= r2) s = s.slice(0, start);
      break;
    }
  }

  // Tidy up: ейше/ейш then нн → н; нн → н; ь removed.
  const tidy = s.length;
  if (tidy - 4 >= rv && s.endsWith('ейше')) {
    s = s.slice(0, -4);
    if (s.length - 2 >= rv && s.endsWith('нн')) s = s.slice(0, -1);
  } else if (tidy - 3 >= rv && s.endsWith('ейш')) {
    s = s.slice(0, -3);
    if (s.length - 2 >= rv && s.endsWith('нн')) s = s.slice(0, -1);
  } else if (tidy - 1 >= rv && s.endsWith('н')) {
    if (tidy - 2 >= rv && s.endsWith('нн')) s = s.slice(0, -1);
  } else if (tidy - 1 >= rv && s.endsWith('ь')) {
    s = s.slice(0, -1);
  }
  return s;
}
