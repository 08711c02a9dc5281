/**
 * The stems of synonym classes' entries, as the dictionary looks words up (synonym-dictionary.ts):
 * normalised the way neardup normalises text (NFKC, look-alike letters, lower case), one token,
 * not a stop word, Snowball-stemmed. Stemming the shipped tables' ~60,000 entries took ~0.2 s a
 * language at every load, and building a map of them most of the rest, so scripts/build-synonyms.ts
 * writes beside each table once its "stem table":
 *
 *   # stems of <table> sha256 <hex of the table's bytes>; ...
 *   <one line per class of the table, in its order: the class's distinct stems, space-separated>
 *   #index
 *   <one line per stem, sorted (UTF-16 code units): the stem, then the ids of its classes>
 *
 * Ids number the classes of two stems or more, in order (a class whose words share one stem equates
 * nothing). The dictionary opens it without building anything per stem (openStemTable: line
 * offsets, then binary search), a table changed since is stemmed at load again (the hash), and a
 * test checks that the shipped stems are the ones this code makes.
 */
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { normalizeText } from '../text/normalize-text.js';
import { tokenize } from '../text/tokenize.js';
import { stopWordsFor } from '../text/language-resources.js';
import { stemmerFor } from '../text/remove-stop-words-and-stem.js';

/** Letters (with their marks) only: exactly one token, whatever the tokeniser (tokenize is far dearer per call). */
const ONE_WORD = /^[\p{L}\p{M}]+$/u;
const HEADER = '# stems of ';
const INDEX = '\n#index\n';
const NO_IDS: readonly number[] = Object.freeze([]);

function singleToken(text: string): string | null {
  const tokens = tokenize(text);
  return tokens.length === 1 ? tokens[0]! : null;
}

/**
 * Per class, the distinct stems of its entries in `language`, in entry order; stop words and
 * entries of several tokens give none. (A class with fewer than two stems equates nothing: the
 * dictionary drops it.)
 */
export function classStemsOf(language: string, classes: readonly (readonly string[])[]): string[][] {
  const stem = stemmerFor(language, {});
  const stopWords = stopWordsFor(language);
  // Entries repeat across classes: each is stemmed once.
  const memo = new Map<string, string | null>();
  const stemOf = (word: string): string | null => {
    let out = memo.get(word);
    if (out !== undefined) return out;
    const normalised = normalizeText(word);
    const token = ONE_WORD.test(normalised) ? normalised : singleToken(normalised);
    out = token === null || stopWords.has(token) ? null : stem(token);
    memo.set(word, out);
    return out;
  };
  return classes.map((words) => {
    const stems: string[] = [];
    for (const word of words) {
      const s = stemOf(word);
      if (s !== null && !stems.includes(s)) stems.push(s);
    }
    return stems;
  });
}

/** The stem table's file name of a table's (`wordnet-en.txt` → `wordnet-en.stems.txt`, `.gz` kept). */
export function stemTableName(tableFile: string): string {
  return tableFile.replace(/\.txt(\.gz)?$/, '.stems.txt$1');
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Ids of the classes of each stem: the classes of two stems or more, numbered in order. */
function stemIndex(stems: readonly (readonly string[])[]): Map<string, number[]> {
  const byStem = new Map<string, number[]>();
  let id = 0;
  for (const classStems of stems) {
    if (classStems.length < 2) continue;
    for (const s of classStems) (byStem.get(s) ?? byStem.set(s, []).get(s)!).push(id);
    id++;
  }
  return byStem;
}

/** A stem table's bytes for a table's bytes (gzipped when its name ends with `.gz`). */
export function formatStemTable(tableFile: string, tableBytes: Uint8Array, stems: readonly (readonly string[])[], licence: string): Uint8Array {
  const index = [...stemIndex(stems)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([s, ids]) => `${s} ${ids.join(' ')}`);
  const text = `${HEADER}${tableFile} sha256 ${sha256(tableBytes)}; one line per class, in its order, then ids per stem (scripts/build-synonyms.ts); licence: ${licence}\n`
    + `${stems.map((s) => s.join(' ')).join('\n')}${INDEX}${index.join('\n')}\n`;
  return tableFile.endsWith('.gz') ? gzipSync(text, { level: 9 }) : Buffer.from(text);
}

/** The text of a stem table made from `tableBytes`, or null (made from other bytes, or no stem table). */
function stemTableText(tableFile: string, tableBytes: Uint8Array, stemBytes: Uint8Array): string | null {
  const text = (tableFile.endsWith('.gz') ? gunzipSync(stemBytes) : Buffer.from(stemBytes.buffer, stemBytes.byteOffset, stemBytes.byteLength)).toString('utf8');
  if (!text.startsWith(`${HEADER}${tableFile} sha256 ${sha256(tableBytes)};`) || !text.includes(INDEX)) return null;
  return text;
}

/** The stems per class of a stem table's bytes, or null when it was made from other table bytes than `tableBytes`. */
export function parseStemTable(tableFile: string, tableBytes: Uint8Array, stemBytes: Uint8Array): string[][] | null {
  const text = stemTableText(tableFile, tableBytes, stemBytes);
  if (text === null) return null;
  const lines = text.slice(text.indexOf('\n') + 1, text.indexOf(INDEX)).split('\n');
  return lines.map((line) => (line === '' ? [] : line.split(' ')));
}

/** A stem table opened for lookups (openStemTable). */
export interface StemTable {
  /** Classes of two stems or more (those with an id). */
  readonly classCount: number;
  /** Ids (ascending) of the classes of a stem; empty when none. */
  classesOf(stem: string): readonly number[];
  /** The stems of class `id` (0 ≤ id < classCount). */
  stemsOf(id: number): readonly string[];
  /** The position among the table's classes of class `id` (0 ≤ id < classCount). */
  classIndexOf(id: number): number;
}

/** Offsets of the lines of text[from, to) (each line's start; `to` closes the last). */
function lineStarts(text: string, from: number, to: number): number[] {
  const starts: number[] = [];
  for (let at = from; at < to; at = text.indexOf('\n', at) + 1) starts.push(at);
  return starts;
}

/** Sign of (the key of the index line at `start`, ended by a space) − `stem`, in UTF-16 code units. */
function compareKey(text: string, start: number, stem: string): number {
  for (let i = 0; ; i++) {
    const c = text.charCodeAt(start + i);
    if (i === stem.length) return c === 32 ? 0 : 1;
    if (c === 32) return -1;
    const d = c - stem.charCodeAt(i);
    if (d !== 0) return d;
  }
}

/**
 * A stem table made from `tableBytes`, opened without a map of its stems: the offsets of its class
 * lines and index lines, a lookup a binary search (its result kept). Null as parseStemTable.
 */
export function openStemTable(tableFile: string, tableBytes: Uint8Array, stemBytes: Uint8Array): StemTable | null {
  const text = stemTableText(tableFile, tableBytes, stemBytes);
  if (text === null) return null;
  const indexAt = text.indexOf(INDEX);
  const classLines = lineStarts(text, text.indexOf('\n') + 1, indexAt + 1);
  // The classes with an id: lines holding a space (two stems or more).
  const kept: number[] = [];
  classLines.forEach((start, k) => {
    const space = text.indexOf(' ', start);
    if (space !== -1 && space < text.indexOf('\n', start)) kept.push(k);
  });
  const entries = lineStarts(text, indexAt + INDEX.length, text.length);
  // Stems found (at most the table's): a miss is searched again (a crawl's vocabulary is unbounded).
  const found = new Map<string, readonly number[]>();
  const stemsOfClass = new Map<number, readonly string[]>();
  const lookUp = (stem: string): readonly number[] => {
    let low = 0;
    let high = entries.length - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const c = compareKey(text, entries[mid]!, stem);
      if (c === 0) return text.slice(entries[mid]! + stem.length + 1, text.indexOf('\n', entries[mid]!)).split(' ').map(Number);
      if (c < 0) low = mid + 1;
      else high = mid - 1;
    }
    return NO_IDS;
  };
  return {
    classCount: kept.length,
    classesOf: (stem) => {
      let ids = found.get(stem);
      if (ids === undefined) {
        ids = lookUp(stem);
        if (ids.length > 0) found.set(stem, ids);
      }
      return ids;
    },
    stemsOf: (id) => {
      let stems = stemsOfClass.get(id);
      if (stems === undefined) {
        const start = classLines[kept[id]!]!;
        stemsOfClass.set(id, (stems = text.slice(start, text.indexOf('\n', start)).split(' ')));
      }
      return stems;
    },
    classIndexOf: (id) => kept[id]!,
  };
}
