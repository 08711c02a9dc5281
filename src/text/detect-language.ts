/**
 * Language detection: franc-min's trigram models and algorithm, on a bounded prefix, plus Catalan
 * (which franc-min, limited to languages with 8M+ speakers, lacks) and a check of Russian against
 * the Cyrillic languages franc-min mistakes it for on short samples.
 *
 * franc compares the text's trigrams with each language's model through one object lookup per
 * trigram *per language* (~45 Latin-script languages). Here every trigram is looked up once, in a
 * typed-array hash table, and yields its rank in all of the script's models at once (one row of an
 * Int16Array), which gives franc's exact scores several times faster. The tests check that the
 * result equals `franc()`.
 */
import { data } from 'franc-min/data.js';
import { expressions } from 'franc-min/expressions.js';
import stopwordsIso from 'stopwords-iso' with { type: 'json' };
import { tokenString, type TokenTable } from './token-table.js';
import { tokenize } from './tokenize.js';

export interface DetectLanguageOptions {
  /** Characters of the token sample (tokens joined by one space) that are examined (bounded for speed). @default 256 */
  readonly maxChars?: number;
  /** Texts shorter than this (after slicing) are 'und', as in franc. @default 10 */
  readonly minLength?: number;
}

/** franc: the distance added for a trigram that a model lacks. */
const MAX_DIFFERENCE = 300;
/** franc examines at most this many characters. */
const FRANC_MAX_LENGTH = 2048;

/**
 * A trigram (three UTF-16 code units) is keyed by its first unit (`a`) and the other two packed in
 * a uint32 (`b`); tables are open-addressing over typed arrays, so no string or boxed number is made.
 */
function trigramSlot(a: number, b: number, mask: number): number {
  let h = Math.imul(b ^ Math.imul(a + 1, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 15;
  return h & mask;
}

/** Trigram → row of a script model; built once. */
interface TrigramTable {
  readonly mask: number;
  readonly keyA: Int32Array; // -1: empty slot
  readonly keyB: Uint32Array;
  readonly row: Int32Array;
}

function rowOf(table: TrigramTable, a: number, b: number): number {
  let slot = trigramSlot(a, b, table.mask);
  for (;;) {
    const k = table.keyA[slot]!;
    if (k === -1) return -1;
    if (k === a && table.keyB[slot] === b) return table.row[slot]!;
    slot = (slot + 1) & table.mask;
  }
}

interface ScriptModel {
  readonly languages: readonly string[];
  /** trigram → row in `ranks` */
  readonly rows: TrigramTable;
  /** rows × languages: the trigram's rank in each language's model, or -1. */
  readonly ranks: Int16Array;
  /** rows × languages: the distance a trigram seen once adds (its rank, or 300 when absent). */
  readonly onceCosts: Int16Array;
}

/**
 * A script's model from franc's data, in one pass over its trigrams: rows are numbered in order of
 * first appearance (languages in data order) straight in the open-addressing table, with no string
 * map, and the rank of a trigram listed twice in one language is its last (as franc keeps it).
 */
function buildModel(languagesData: Readonly<Record<string, string>>): ScriptModel {
  const languages = Object.keys(languagesData);
  const width = languages.length;
  const lists = languages.map((lang) => languagesData[lang]!.split('|'));
  let total = 0;
  for (const list of lists) total += list.length;
  let capacity = 16;
  while (capacity < total * 2) capacity *= 2;
  const mask = capacity - 1;
  const keyA = new Int32Array(capacity).fill(-1);
  const keyB = new Uint32Array(capacity);
  const row = new Int32Array(capacity);
  const rowOfEntry = new Int32Array(total);
  let rowCount = 0;
  let k = 0;
  for (const list of lists) {
    for (const t of list) {
      const a = t.charCodeAt(0);
      const b = ((t.charCodeAt(1) << 16) | t.charCodeAt(2)) >>> 0;
      let slot = trigramSlot(a, b, mask);
      while (keyA[slot] !== -1 && (keyA[slot] !== a || keyB[slot] !== b)) slot = (slot + 1) & mask;
      if (keyA[slot] === -1) {
        keyA[slot] = a;
        keyB[slot] = b;
        row[slot] = rowCount++;
      }
      rowOfEntry[k++] = row[slot]!;
    }
  }
  const ranks = new Int16Array(rowCount * width).fill(-1);
  k = 0;
  lists.forEach((list, l) => {
    for (let rank = 0; rank < list.length; rank++) ranks[rowOfEntry[k++]! * width + l] = rank;
  });
  const onceCosts = new Int16Array(ranks.length);
  for (let i = 0; i < ranks.length; i++) onceCosts[i] = ranks[i]! < 0 ? MAX_DIFFERENCE : ranks[i]!;
  return { languages, rows: { mask, keyA, keyB, row }, ranks, onceCosts };
}

/**
 * Script → its model, built when a text in that script first comes (building all four at load
 * took a large share of a short command's start-up). At most one entry per script of franc-min's
 * data, each immutable once built, so a result never depends on what was detected before.
 */
const MODELS = new Map<string, ScriptModel>();

function modelFor(script: string): ScriptModel | undefined {
  let model = MODELS.get(script);
  if (model === undefined && Object.hasOwn(data, script)) {
    model = buildModel((data as Readonly<Record<string, Readonly<Record<string, string>>>>)[script]!);
    MODELS.set(script, model);
  }
  return model;
}

const SCRIPT_EXPRESSIONS: ReadonlyArray<readonly [string, RegExp]> = Object.entries(expressions);

/** Non-global copies matching one whole character: a surrogate pair, or a BMP unit (see scriptsOfUnit). */
const PAIR_EXPRESSIONS: readonly RegExp[] = SCRIPT_EXPRESSIONS.map(([, expression]) => new RegExp(`^(?:${expression.source})$`));

/** Set in a BMP_SCRIPTS entry once it is computed (there are fewer than 31 expressions). */
const KNOWN = 0x8000_0000;

/**
 * Per BMP code unit: KNOWN plus a bit mask of the script expressions that match it (bit i:
 * expression i), computed on a unit's first sight (pure, so a lookup never depends on earlier ones;
 * lazy because testing 65,536 units at load slowed a short command's start-up). One per thread.
 */
const BMP_SCRIPTS = new Uint32Array(0x10000);

function scriptsOfUnit(unit: number): number {
  const known = BMP_SCRIPTS[unit]!;
  if (known !== 0) return known & ~KNOWN;
  let mask = 0;
  if (unit < 0xd800 || unit > 0xdfff) {
    const ch = String.fromCharCode(unit);
    PAIR_EXPRESSIONS.forEach((expression, bit) => {
      if (expression.test(ch)) mask |= 1 << bit;
    });
  }
  BMP_SCRIPTS[unit] = (mask | KNOWN) >>> 0;
  return mask;
}

/** franc's script choice: the expression matching the most characters (first on ties). */
function topScript(value: string): readonly [script: string, count: number, secondCount: number] {
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
    let mask = scriptsOfUnit(unit);
    while (mask !== 0) {
      const bit = 31 - Math.clz32(mask);
      counts[bit]!++;
      mask ^= 1 << bit;
    }
  }
  let best = 0;
  for (let bit = 1; bit < counts.length; bit++) if (counts[bit]! > counts[best]!) best = bit;
  let second = 0;
  for (let bit = 0; bit < counts.length; bit++) if (bit !== best && counts[bit]! > second) second = counts[bit]!;
  return [SCRIPT_EXPRESSIONS[best]![0], counts[best]!, second];
}

/** franc's (trigram-utils) cleaning: ASCII punctuation and digits to spaces, collapsed, lower case. */
function cleanForTrigrams(value: string): string {
  return value.replace(/[\u0021-\u0040]+/g, ' ').replace(/\s+/g, ' ').trim().toLowerCase();
}

function francDistances(value: string, model: ScriptModel): Float64Array {
  const padded = ` ${cleanForTrigrams(value)} `;
  // The sample's distinct trigrams with their counts (franc's asTuples), in a per-call table.
  const positions = Math.max(0, padded.length - 2);
  let capacity = 16;
  while (capacity < positions * 2) capacity *= 2;
  const mask = capacity - 1;
  const keyA = new Int32Array(capacity).fill(-1);
  const keyB = new Uint32Array(capacity);
  const countOf = new Int32Array(capacity);
  const used = new Int32Array(positions);
  let distinct = 0;
  for (let i = 0; i < positions; i++) {
    const a = padded.charCodeAt(i);
    const b = ((padded.charCodeAt(i + 1) << 16) | padded.charCodeAt(i + 2)) >>> 0;
    let slot = trigramSlot(a, b, mask);
    for (;;) {
      const k = keyA[slot]!;
      if (k === -1) {
        keyA[slot] = a;
        keyB[slot] = b;
        countOf[slot] = 1;
        used[distinct++] = slot;
        break;
      }
      if (k === a && keyB[slot] === b) {
        countOf[slot]!++;
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
  const width = model.languages.length;
  const distances = new Float64Array(width);
  let unknown = 0;
  for (let d = 0; d < distinct; d++) {
    const slot = used[d]!;
    const count = countOf[slot]!;
    const row = rowOf(model.rows, keyA[slot]!, keyB[slot]!);
    if (row < 0) {
      unknown++;
      continue;
    }
    const base = row * width;
    if (count === 1) {
      // Most trigrams of a short sample occur once: |1 − rank − 1| = rank, branch-free.
      const costs = model.onceCosts;
      for (let l = 0; l < width; l++) distances[l]! += costs[base + l]!;
      continue;
    }
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
  if (unknown > 0) for (let l = 0; l < width; l++) distances[l]! += unknown * MAX_DIFFERENCE;
  return distances;
}

/**
 * franc-min's answer for `value` (ISO 639-3 code or 'und'), computed as franc computes it:
 * `francMin(v)` equals `franc(v)` from the franc-min package.
 */
export function francMin(value: string, minLength = 10): string {
  return francMinMargin(value, minLength).language;
}

/**
 * francMin's answer and how clear it was: `margin` is the smaller of the script's lead (characters
 * of the top script minus those of the next, over the top's) and the language's (distance of the
 * runner-up minus the winner's, over the winner's); 1 when there was nothing to choose between.
 */
export function francMinMargin(value: string, minLength = 10): { readonly language: string; readonly margin: number } {
  if (value.length < minLength) return { language: 'und', margin: 1 };
  const sample = value.length > FRANC_MAX_LENGTH ? value.slice(0, FRANC_MAX_LENGTH) : value;
  const [script, count, second] = topScript(sample);
  const scriptMargin = count === 0 ? 1 : (count - second) / count;
  const model = modelFor(script);
  if (model === undefined) return { language: script === '' || count === 0 ? 'und' : script, margin: scriptMargin };
  const distances = francDistances(sample, model);
  let best = 0;
  for (let l = 1; l < distances.length; l++) if (distances[l]! < distances[best]!) best = l;
  let runnerUp = Number.POSITIVE_INFINITY;
  for (let l = 0; l < distances.length; l++) if (l !== best && distances[l]! < runnerUp) runnerUp = distances[l]!;
  const languageMargin = Number.isFinite(runnerUp) && distances[best]! > 0 ? (runnerUp - distances[best]!) / distances[best]! : 1;
  return { language: model.languages[best]!, margin: Math.min(scriptMargin, languageMargin) };
}

// ---------------------------------------------------------------- refinements

/**
 * Languages franc-min confuses with a language we handle: Catalan (absent from franc-min) is read
 * as another Romance language, and short Russian samples often as Bulgarian or Ukrainian.
 * target → { language franc may report → that language's stopwords-iso code }
 */
const CONFUSIONS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  cat: { spa: 'es', por: 'pt', ita: 'it', fra: 'fr', ron: 'ro' },
  rus: { bul: 'bg', ukr: 'uk' },
};
const TARGET_CODES: Readonly<Record<string, string>> = { cat: 'ca', rus: 'ru' };

function stopSet(code: string): Set<string> {
  const words = (stopwordsIso as Record<string, string[]>)[code] ?? [];
  return new Set(words.filter((w) => tokenize(w).length === 1 && tokenize(w)[0] === w));
}

type Evidence = readonly [target: string, targetOnly: ReadonlySet<string>, otherOnly: ReadonlySet<string>];

/**
 * franc's answer → [target, target-only stop words, answer-only stop words], built on the first
 * answer that needs it (an English text never does). At most one entry per language of
 * CONFUSIONS, each immutable once built.
 */
const EVIDENCE = new Map<string, Evidence>();

function evidenceFor(lang: string): Evidence | undefined {
  let evidence = EVIDENCE.get(lang);
  if (evidence !== undefined) return evidence;
  for (const [target, confusions] of Object.entries(CONFUSIONS)) {
    const code = Object.hasOwn(confusions, lang) ? confusions[lang] : undefined;
    if (code === undefined) continue;
    const own = stopSet(TARGET_CODES[target]!);
    const other = stopSet(code);
    evidence = [target, new Set([...own].filter((w) => !other.has(w))), new Set([...other].filter((w) => !own.has(w)))];
    EVIDENCE.set(lang, evidence);
    return evidence;
  }
  return undefined;
}

/**
 * The target language against the one franc chose: whichever has more of its own stop words (the
 * ones the other's stopwords-iso list lacks) among the sample's words.
 */
function refine(lang: string, sample: string): string {
  const evidence = evidenceFor(lang);
  if (evidence === undefined) return lang;
  const [target, targetOnly, otherOnly] = evidence;
  let forTarget = 0;
  let forOther = 0;
  for (const token of tokenize(sample.toLowerCase())) {
    if (targetOnly.has(token)) forTarget++;
    else if (otherOnly.has(token)) forOther++;
  }
  return forTarget > forOther ? target : lang;
}

/**
 * The sample language detection reads: the tokens joined by one space, up to `maxChars` characters
 * (a token cut at the limit is cut, not dropped). It depends on the token sequence alone, so texts
 * that differ only in spacing, punctuation, case or line breaks give the same sample — and so the
 * same language, stop words, stems and fingerprint (the normaliser's invariant).
 */
export function languageSample(tokens: ArrayLike<string>, maxChars = 256): string {
  let sample = '';
  for (let i = 0; i < tokens.length && sample.length < maxChars; i++) sample += i === 0 ? tokens[i]! : ` ${tokens[i]!}`;
  if (sample.length > maxChars) sample = sample.slice(0, maxChars);
  // Never end the sample on half a surrogate pair.
  const last = sample.charCodeAt(sample.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) sample = sample.slice(0, -1);
  return sample;
}

/**
 * ISO 639-3 code of the language of a token sequence ('und' when unknown or too short): franc-min on
 * languageSample(tokens), with Catalan told apart from Spanish, Portuguese, Italian, French and
 * Romanian, and Russian from Bulgarian and Ukrainian, by distinctive stop words.
 */
export function detectTokenLanguage(tokens: ArrayLike<string>, options: DetectLanguageOptions = {}): string {
  const sample = languageSample(tokens, options.maxChars ?? 256);
  return refine(francMin(sample, options.minLength ?? 10), sample);
}

/**
 * A sample spread over the whole text, which reordering cannot change: short runs of running text
 * (an anchor token and the next SAMPLE_WINDOW − 1 tokens of its paragraph) at the anchors whose token
 * hash (FNV-1a of the token's characters, unseeded) is smallest, ordered by
 * the hashes of their tokens, joined until `maxChars` characters. A run never crosses a paragraph
 * end, so the runs, and their order, are the same whatever the order of the paragraphs; an appended
 * block or an edit changes the sample only by the share of anchors it brings. Runs of running text,
 * not distinct words, because franc's trigram models are built on running text (frequent words
 * weigh): a bag of distinct words read English pages of dragnet-train as French 30 times in 966.
 * Issue 25: the first 256 characters flipped the language of 54 in 4,000 shuffled or appended
 * copies of multilingual documents, and with it their stop words and stems.
 *
 * Cost: one pass over the token positions, then a sort of the few anchors below a threshold (hashes
 * are uniform, so the m smallest of n lie below ~m/n · 2³²; the threshold doubles when too few do).
 */
export function spreadTokenSample(table: TokenTable, maxChars = 256): string[] {
  const { count, ids, spans, paragraphEnds, distinct, text } = table;
  // A fixed hash of each distinct token (the table's own span hash is seeded per thread, and the
  // sample must be the same in every thread and run).
  const tokenHash = new Uint32Array(distinct);
  for (let id = 0; id < distinct; id++) {
    let h = 0x811c9dc5;
    for (let i = spans[id * 3]!, end = spans[id * 3 + 1]!; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    tokenHash[id] = (h ^ (h >>> 12)) >>> 0;
  }
  const hashOf = (position: number) => tokenHash[ids[position]!]!;
  const want = Math.ceil(maxChars / (3 * SAMPLE_WINDOW)) + 4;
  let threshold = count <= 2 * want ? TWO_32 : Math.ceil((2 * want / count) * TWO_32);
  const anchors: number[] = [];
  const ends: number[] = [];
  for (;;) {
    anchors.length = 0;
    ends.length = 0;
    let paragraph = 0;
    for (let k = 0; k < count; k++) {
      while (paragraphEnds[paragraph]! <= k) paragraph++;
      if (hashOf(k) < threshold) {
        anchors.push(k);
        ends.push(Math.min(paragraphEnds[paragraph]!, k + SAMPLE_WINDOW));
      }
    }
    const order = anchors.map((_, a) => a);
    order.sort((x, y) => {
      const px = anchors[x]!;
      const py = anchors[y]!;
      const lx = ends[x]! - px;
      const ly = ends[y]! - py;
      for (let j = 0; j < lx && j < ly; j++) {
        const d = hashOf(px + j) - hashOf(py + j);
        if (d !== 0) return d;
        const ix = ids[px + j]!;
        const iy = ids[py + j]!;
        if (ix !== iy) return tokenString(table, ix) < tokenString(table, iy) ? -1 : 1; // a hash collision: by the characters
      }
      return lx - ly;
    });
    const out: string[] = [];
    let chars = 0;
    for (let a = 0; a < order.length && chars < maxChars; a++) {
      for (let k = anchors[order[a]!]!; k < ends[order[a]!]!; k++) {
        const token = tokenString(table, ids[k]!);
        out.push(token);
        chars += token.length + 1;
      }
    }
    if (chars >= maxChars || threshold >= TWO_32) return out;
    threshold = Math.min(TWO_32, 2 * threshold);
  }
}

/** Tokens of running text per anchor in spreadTokenSample. */
const SAMPLE_WINDOW = 4;
const TWO_32 = 2 ** 32;

/**
 * Characters of a document's spread sample. Measured on issue 25's corpus (3,000 edited, shuffled or
 * appended copies of documents mixing 6–12 articles, several languages): copies whose language
 * differed from their base's at 256 / 512 / 1,024 / 2,048 characters: 32 / 12 / 7 / 3, at 0.079 /
 * 0.106 / 0.185 / 0.328 ms a document (sample and franc). 512: most of the gain for a third more time.
 */
const DOCUMENT_SAMPLE_CHARS = 512;
/**
 * A margin below which detectDocumentLanguage decides again on a 4× sample. On issue 25's corpus
 * (3,000 edited, shuffled or appended copies of multilingual documents; language differing from the
 * base's / ms a document for sample and franc): never 12 / 0.111–0.123; below 0.01 13 / 0.119; 0.02
 * 5 / 0.126; 0.03 4 / 0.137; 0.05 3 / 0.188; 0.1 3 / 0.420. A clear text (one language) never rechecks.
 */
const RECHECK_BELOW = 0.03;

/**
 * The language of a whole document (the analysis's): detectTokenLanguage of spreadTokenSample(table)
 * (512 characters unless `maxChars` says otherwise),
 * so that a shuffle of its paragraphs, an appended block or a moved first paragraph keeps it.
 */
export function detectDocumentLanguage(table: TokenTable, options: DocumentLanguageOptions = {}): string {
  if (table.count === 0) return 'und';
  const maxChars = options.maxChars ?? DOCUMENT_SAMPLE_CHARS;
  const minLength = options.minLength ?? 10;
  let sample = languageSample(spreadTokenSample(table, maxChars), maxChars);
  let { language, margin } = francMinMargin(sample, minLength);
  // A close call (a document of several languages or scripts): decide on a sample four times larger,
  // where a few words more or less (an edit, an appended block) move the scores far less.
  if (margin < (options.recheckBelow ?? RECHECK_BELOW) && table.count > 0) {
    const wider = languageSample(spreadTokenSample(table, 4 * maxChars), 4 * maxChars);
    if (wider.length > sample.length) {
      sample = wider;
      language = francMin(sample, minLength);
    }
  }
  return refine(SAME_ANALYSIS[language] ?? language, sample);
}

/**
 * Languages a document is analysed as another's: franc-min tells Standard Malay from Indonesian by a
 * hair on most texts (the dev set's two Indonesian pages flipped between them with the sample), and
 * a flip changed every stop word and so every feature of a copy. Both are analysed as Indonesian.
 */
const SAME_ANALYSIS: Readonly<Record<string, string>> = { zlm: 'ind' };

/** Options of detectDocumentLanguage. */
export interface DocumentLanguageOptions extends DetectLanguageOptions {
  /** A margin (francMinMargin) below this decides again on a sample four times larger. @default RECHECK_BELOW */
  readonly recheckBelow?: number;
}

/**
 * The language of a text's beginning (search results' snippets: filter/), decided from its leading
 * tokens (detectTokenLanguage of tokenize(text)), never from
 * its characters: extra spaces or commas do not change the answer.
 */
export function detectLanguage(text: string, options: DetectLanguageOptions = {}): string {
  return detectTokenLanguage(leadingTokensOf(text, options.maxChars ?? 256), options);
}

/**
 * Enough of the text's first tokens for languageSample(…, maxChars): tokenises growing prefixes
 * rather than the whole text (a prefix's last token may be cut, so it is dropped unless the prefix
 * is the whole text).
 */
function leadingTokensOf(text: string, maxChars: number): string[] {
  for (let length = 4 * maxChars + 64; ; length *= 4) {
    if (length >= text.length) return tokenize(text);
    const tokens = tokenize(text.slice(0, length));
    tokens.pop();
    let chars = 0;
    for (const token of tokens) chars += token.length + 1;
    if (chars > maxChars) return tokens;
  }
}
