/**
 * Language detection: franc-min's trigram models and algorithm, on a bounded prefix, plus Catalan
 * (which franc-min, limited to languages with 8M+ speakers, lacks).
 *
 * franc compares the text's trigrams with each language's model through one object lookup per
 * trigram *per language* (~45 Latin-script languages). Here every trigram is looked up once and
 * yields its rank in all of the script's models at once (one row of an Int16Array), which gives
 * franc's exact scores, several times faster. The tests check that the result equals `franc()`.
 */
import { data } from 'franc-min/data.js';
import { expressions } from 'franc-min/expressions.js';
import stopwordsIso from 'stopwords-iso' with { type: 'json' };
import { tokenize } from './tokenize.js';

export interface DetectLanguageOptions {
  /** Characters from the start of the text that are examined (bounded for speed). @default 512 */
  readonly maxChars?: number;
  /** Texts shorter than this (after slicing) are 'und', as in franc. @default 10 */
  readonly minLength?: number;
}

/** franc: the distance added for a trigram that a model lacks. */
const MAX_DIFFERENCE = 300;
/** franc examines at most this many characters. */
const FRANC_MAX_LENGTH = 2048;

/** Three UTF-16 code units as one exact number (48 bits), so trigrams need no string. */
function trigramKey(s: string, i: number): number {
  return s.charCodeAt(i) * 0x100000000 + s.charCodeAt(i + 1) * 0x10000 + s.charCodeAt(i + 2);
}

interface ScriptModel {
  readonly languages: readonly string[];
  /** trigram key (see trigramKey) → row in `ranks` */
  readonly rows: ReadonlyMap<number, number>;
  /** rows × languages: the trigram's rank in each language's model, or -1. */
  readonly ranks: Int16Array;
}

const MODELS: ReadonlyMap<string, ScriptModel> = (() => {
  const out = new Map<string, ScriptModel>();
  for (const [script, languagesData] of Object.entries(data)) {
    const languages = Object.keys(languagesData);
    const rows = new Map<number, number>();
    const lists = languages.map((lang) => languagesData[lang]!.split('|').map((t) => trigramKey(t, 0)));
    for (const list of lists) for (const trigram of list) if (!rows.has(trigram)) rows.set(trigram, rows.size);
    const ranks = new Int16Array(rows.size * languages.length).fill(-1);
    lists.forEach((list, l) => {
      // franc keeps the last index for a trigram listed twice.
      list.forEach((trigram, rank) => { ranks[rows.get(trigram)! * languages.length + l] = rank; });
    });
    out.set(script, { languages, rows, ranks });
  }
  return out;
})();

const SCRIPT_EXPRESSIONS: ReadonlyArray<readonly [string, RegExp]> = Object.entries(expressions);

/** Non-global copies, for testing one surrogate pair (astral characters are rare). */
const PAIR_EXPRESSIONS: readonly RegExp[] = SCRIPT_EXPRESSIONS.map(([, expression]) => new RegExp(`^(?:${expression.source})$`));

/**
 * For every BMP code unit, a bit mask of the script expressions that match it (bit i: expression i),
 * built once by running each expression over a string of all BMP characters.
 */
const BMP_SCRIPTS = (() => {
  const masks = new Uint32Array(0x10000);
  const units: number[] = [];
  for (let cp = 0; cp < 0x10000; cp++) if (cp < 0xd800 || cp > 0xdfff) units.push(cp);
  let all = '';
  for (let i = 0; i < units.length; i += 4096) all += String.fromCharCode(...units.slice(i, i + 4096));
  SCRIPT_EXPRESSIONS.forEach(([, expression], bit) => {
    const global = new RegExp(expression.source, 'g');
    for (const match of all.matchAll(global)) {
      if (match[0].length === 1) masks[match[0].charCodeAt(0)]! |= 1 << bit;
    }
  });
  return masks;
})();

/** franc's script choice: the expression matching the most characters (first on ties). */
function topScript(value: string): readonly [string, number] {
  const counts = new Int32Array(SCRIPT_EXPRESSIONS.length);
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < value.length) {
      const low = value.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        const pair = value.slice(i, i + 2);
        PAIR_EXPRESSIONS.forEach((expression, bit) => {
          if (expression.test(pair)) counts[bit]!++;
        });
        i++;
        continue;
      }
    }
    let mask = BMP_SCRIPTS[unit]!;
    while (mask !== 0) {
      const bit = 31 - Math.clz32(mask);
      counts[bit]!++;
      mask ^= 1 << bit;
    }
  }
  let best = 0;
  for (let bit = 1; bit < counts.length; bit++) if (counts[bit]! > counts[best]!) best = bit;
  return [SCRIPT_EXPRESSIONS[best]![0], counts[best]!];
}

/** franc's (trigram-utils) cleaning: ASCII punctuation and digits to spaces, collapsed, lower case. */
function cleanForTrigrams(value: string): string {
  return value.replace(/[\u0021-\u0040]+/g, ' ').replace(/\s+/g, ' ').trim().toLowerCase();
}

function francDistances(value: string, model: ScriptModel): Float64Array {
  const padded = ` ${cleanForTrigrams(value)} `;
  const counts = new Map<number, number>();
  for (let i = 0; i + 3 <= padded.length; i++) {
    const trigram = trigramKey(padded, i);
    counts.set(trigram, (counts.get(trigram) ?? 0) + 1);
  }
  const width = model.languages.length;
  const distances = new Float64Array(width);
  for (const [trigram, count] of counts) {
    const row = model.rows.get(trigram);
    if (row === undefined) {
      for (let l = 0; l < width; l++) distances[l]! += MAX_DIFFERENCE;
      continue;
    }
    const base = row * width;
    for (let l = 0; l < width; l++) {
      const rank = model.ranks[base + l]!;
      if (rank < 0) {
        distances[l]! += MAX_DIFFERENCE;
      } else {
        const difference = count - rank - 1;
        distances[l]! += difference < 0 ? -difference : difference;
      }
    }
  }
  return distances;
}

/**
 * franc-min's answer for `value` (ISO 639-3 code or 'und'), computed as franc computes it:
 * `francMin(v)` equals `franc(v)` from the franc-min package.
 */
export function francMin(value: string, minLength = 10): string {
  if (value.length < minLength) return 'und';
  const sample = value.length > FRANC_MAX_LENGTH ? value.slice(0, FRANC_MAX_LENGTH) : value;
  const [script, count] = topScript(sample);
  const model = MODELS.get(script);
  if (model === undefined) return script === '' || count === 0 ? 'und' : script;
  const distances = francDistances(sample, model);
  let best = 0;
  for (let l = 1; l < distances.length; l++) if (distances[l]! < distances[best]!) best = l;
  return model.languages[best]!;
}

// ---------------------------------------------------------------- Catalan

/** Languages franc-min may report for Catalan text. */
const CATALAN_LOOKALIKES: Readonly<Record<string, string>> = { spa: 'es', por: 'pt', ita: 'it', fra: 'fr', ron: 'ro' };

function stopSet(code: string): Set<string> {
  const words = (stopwordsIso as Record<string, string[]>)[code] ?? [];
  return new Set(words.filter((w) => tokenize(w).length === 1 && tokenize(w)[0] === w));
}

/** For each look-alike language: [Catalan-only stop words, that language's stop words not in Catalan]. */
const CATALAN_EVIDENCE: ReadonlyMap<string, readonly [ReadonlySet<string>, ReadonlySet<string>]> = (() => {
  const catalan = stopSet('ca');
  const out = new Map<string, readonly [ReadonlySet<string>, ReadonlySet<string>]>();
  for (const [lang, code] of Object.entries(CATALAN_LOOKALIKES)) {
    const other = stopSet(code);
    out.set(lang, [new Set([...catalan].filter((w) => !other.has(w))), new Set([...other].filter((w) => !catalan.has(w)))]);
  }
  return out;
})();

/**
 * Catalan against the Romance language franc chose: whichever has more of its own stop words
 * (the ones the other language's stopwords-iso list lacks) among the sample's words.
 */
function refineCatalan(lang: string, sample: string): string {
  const evidence = CATALAN_EVIDENCE.get(lang);
  if (evidence === undefined) return lang;
  const [catalanOnly, otherOnly] = evidence;
  let catalan = 0;
  let other = 0;
  for (const token of tokenize(sample.toLowerCase())) {
    if (catalanOnly.has(token)) catalan++;
    else if (otherOnly.has(token)) other++;
  }
  return catalan > other ? 'cat' : lang;
}

/**
 * ISO 639-3 code of the text's language ('und' when unknown or too short): franc-min on the first
 * `maxChars` characters, with Catalan told apart from Spanish, Portuguese, Italian, French and
 * Romanian by distinctive stop words.
 */
export function detectLanguage(text: string, options: DetectLanguageOptions = {}): string {
  const maxChars = options.maxChars ?? 512;
  const minLength = options.minLength ?? 10;
  let sample = text.length > maxChars ? text.slice(0, maxChars) : text;
  // Never end the sample on half a surrogate pair.
  const last = sample.charCodeAt(sample.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) sample = sample.slice(0, -1);
  return refineCatalan(francMin(sample, minLength), sample);
}
