/**
 * franc-min's trigram models and algorithm, computed fast: franc compares the text's trigrams with
 * each language's model through one object lookup per trigram *per language* (~45 Latin-script
 * languages). Here every trigram is looked up once, in a typed-array hash table, and yields its rank
 * in all of the script's models at once (one row of an Int16Array), which gives franc's exact scores
 * several times faster. The tests check that the result equals `franc()`.
 */
import { data } from 'franc-min/data.js';
import { expressions } from 'franc-min/expressions.js';

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

/**
 * Trigram → row of a script model; built once. Slot s is slots[4s .. 4s + 3): a (-1: empty), b (as
 * int32), row, unused — one cache line per probe rather than one per array.
 */
interface TrigramTable {
  readonly mask: number;
  readonly slots: Int32Array;
}

/** The row of trigram (a, b) in the table, or -1. */
function rowOf(table: TrigramTable, a: number, b: number): number {
  const { mask, slots } = table;
  const key = b | 0;
  let slot = trigramSlot(a, b, mask);
  for (let k = slots[4 * slot]!; k !== -1; k = slots[4 * slot]!) {
    if (k === a && slots[4 * slot + 1] === key) return slots[4 * slot + 2]!;
    slot = (slot + 1) & mask;
  }
  return -1;
}

interface ScriptModel {
  readonly languages: readonly string[];
  /** trigram → row */
  readonly rows: TrigramTable;
  /**
   * The languages whose model holds a row's trigram, with its rank there (language · 65536 + rank):
   * entries rowStart[row] .. rowStart[row + 1] of `present` (a trigram is in a few of the script's
   * models, so a lookup touches those only, not every language).
   */
  readonly rowStart: Int32Array;
  readonly present: Int32Array;
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
  const slots = new Int32Array(4 * capacity);
  for (let slot = 0; slot < capacity; slot++) slots[4 * slot] = -1;
  const rowOfEntry = new Int32Array(total);
  let rowCount = 0;
  let k = 0;
  for (const list of lists) {
    for (const t of list) {
      const a = t.charCodeAt(0);
      const b = ((t.charCodeAt(1) << 16) | t.charCodeAt(2)) >>> 0;
      let slot = trigramSlot(a, b, mask);
      while (slots[4 * slot] !== -1 && (slots[4 * slot] !== a || slots[4 * slot + 1] !== (b | 0))) slot = (slot + 1) & mask;
      if (slots[4 * slot] === -1) {
        slots[4 * slot] = a;
        slots[4 * slot + 1] = b | 0;
        slots[4 * slot + 2] = rowCount++;
      }
      rowOfEntry[k++] = slots[4 * slot + 2]!;
    }
  }
  const ranks = new Int16Array(rowCount * width).fill(-1);
  k = 0;
  lists.forEach((list, l) => {
    for (let rank = 0; rank < list.length; rank++) ranks[rowOfEntry[k++]! * width + l] = rank;
  });
  return { languages, rows: { mask, slots }, ...presentLists(ranks, rowCount, width) };
}

/** The sparse form of `ranks` (rows × languages, -1 absent): per row, its languages and ranks, in language order. */
function presentLists(ranks: Int16Array, rowCount: number, width: number): Pick<ScriptModel, 'rowStart' | 'present'> {
  if (width > 0x7fff) throw new RangeError(`Expected at most 32,767 languages in a script, got ${width}`);
  let present = 0;
  for (let i = 0; i < ranks.length; i++) if (ranks[i]! >= 0) present++;
  const rowStart = new Int32Array(rowCount + 1);
  const entries = new Int32Array(present);
  let p = 0;
  for (let r = 0; r < rowCount; r++) {
    rowStart[r] = p;
    for (let l = 0; l < width; l++) {
      const rank = ranks[r * width + l]!;
      if (rank < 0) continue;
      entries[p++] = l * 65536 + rank; // ranks are Int16 and ≥ 0 here
    }
  }
  rowStart[rowCount] = p;
  return { rowStart, present: entries };
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
  // One pass for franc's two: a run of ASCII punctuation or digits became one space, and then every
  // run of white space (those spaces included) one space — so a maximal run of either is one space.
  return value.replace(/[\s\u0021-\u0040]+/g, ' ').trim().toLowerCase();
}

/**
 * The sample's distinct trigrams with their counts (franc's asTuples): a per-thread open-addressing
 * table, grown as needed and emptied after each call (only the slots used are reset).
 */
let tupleKeyA = new Int32Array(1024).fill(-1);
let tupleKeyB = new Uint32Array(1024);
let tupleCount = new Int32Array(1024);
let tupleUsed = new Int32Array(512);

/** Distinct trigrams of `padded` counted into the tuple table (slots listed in tupleUsed); returns how many. */
function countTrigrams(padded: string): number {
  const positions = Math.max(0, padded.length - 2);
  if (tupleKeyA.length < positions * 2) {
    let capacity = tupleKeyA.length;
    while (capacity < positions * 2) capacity *= 2;
    tupleKeyA = new Int32Array(capacity).fill(-1);
    tupleKeyB = new Uint32Array(capacity);
    tupleCount = new Int32Array(capacity);
    tupleUsed = new Int32Array(capacity >>> 1);
  }
  const mask = tupleKeyA.length - 1;
  const keyA = tupleKeyA;
  const keyB = tupleKeyB;
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
        tupleCount[slot] = 1;
        tupleUsed[distinct++] = slot;
        break;
      }
      if (k === a && keyB[slot] === b) {
        tupleCount[slot]!++;
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
  return distinct;
}

/**
 * franc's distance of the sample to each language of the script: per distinct trigram of count c,
 * |c − rank − 1| in a language whose model ranks it, MAX_DIFFERENCE in one that lacks it. Computed as
 * MAX_DIFFERENCE per trigram minus, for the languages that hold it, MAX_DIFFERENCE − |c − rank − 1|:
 * the same integers (so the same sums, exactly), touching only the languages that hold a trigram.
 */
function francDistances(value: string, model: ScriptModel): Float64Array {
  const distinct = countTrigrams(` ${cleanForTrigrams(value)} `);
  const width = model.languages.length;
  const saved = new Int32Array(width);
  const { rowStart, present } = model;
  // Locals: the module's tables are `let` (they grow), read once here rather than per trigram.
  const used = tupleUsed;
  const counts = tupleCount;
  const keyA = tupleKeyA;
  const keyB = tupleKeyB;
  for (let d = 0; d < distinct; d++) {
    const slot = used[d]!;
    const row = rowOf(model.rows, keyA[slot]!, keyB[slot]!);
    keyA[slot] = -1; // emptied for the next call
    if (row < 0) continue;
    const count = counts[slot]!;
    for (let p = rowStart[row]!, end = rowStart[row + 1]!; p < end; p++) {
      const entry = present[p]!;
      const difference = count - (entry & 0xffff) - 1;
      saved[entry >>> 16]! += MAX_DIFFERENCE - (difference < 0 ? -difference : difference);
    }
  }
  const distances = new Float64Array(width);
  for (let l = 0; l < width; l++) distances[l] = distinct * MAX_DIFFERENCE - saved[l]!;
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
