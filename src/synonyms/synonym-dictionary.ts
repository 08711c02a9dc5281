/**
 * Synonym classes for comparing words: a word (normalised and stemmed the way neardup normalises
 * text: NFKC, look-alike letters, lower case, Snowball stem) maps to the ids of the classes it
 * belongs to. Two words "count as equal" when they share a class id.
 *
 * Shipped tables (src/synonyms/data/, made by scripts/build-synonyms.ts): English from WordNet 3.0,
 * Russian from the LibreOffice thesaurus th_ru_RU_v2, each with its entries' stems made at build
 * time (synonym-stems.ts); users add their own classes from a file (stemmed at load).
 * A language's lookup table is built on its first lookup (a Russian table costs nothing to an
 * English-only user); it lives in the dictionary object, never in a module-global cache.
 *
 * Class ids are unique within one language (classes of two languages are never compared).
 * Entries that are stop words, or that tokenise to more than one word (phrases), are left out:
 * annotations are compared word by word.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { InputError, ValidationError, describeValue } from '../errors.js';
import { parseSynonymClasses, type SynonymClassLine } from './parse-synonym-classes.js';
import { classStemsOf, openStemTable, stemTableName, type StemTable } from './synonym-stems.js';

/** The shipped tables by language (ISO 639-3). */
export const BUILT_IN_SYNONYM_TABLES: Readonly<Record<string, string>> = Object.freeze({
  eng: 'wordnet-en.txt',
  rus: 'mythes-ru.txt.gz',
});

export interface SynonymDictionaryOptions {
  /** Use the shipped tables (English WordNet, Russian thesaurus). @default true */
  readonly builtIn?: boolean;
  /** A user file of classes, one a line (see parseSynonymClasses), added to the shipped ones. */
  readonly userFile?: string | undefined;
  /** User classes given directly (the same format as a file's lines). */
  readonly userClasses?: readonly (readonly string[])[] | undefined;
  /**
   * Language (ISO 639-3) the user's words are stemmed for. @default by script: a word with a
   * Cyrillic letter is Russian ('rus'), any other English ('eng')
   */
  readonly userLanguage?: string | undefined;
}

const NO_CLASSES: readonly number[] = Object.freeze([]);
const NO_WORDS: readonly string[] = Object.freeze([]);

export interface SynonymDictionary {
  /** Languages (ISO 639-3) with at least one class source. */
  readonly languages: readonly string[];
  /** Ids (ascending) of the classes of a normalised, stemmed word in `language`; empty when none. */
  classesOf(language: string, stem: string): readonly number[];
  /** The words of a class as written in its source (e.g. for showing or for making test data). */
  wordsOf(language: string, classId: number): readonly string[];
  /** The distinct stems of a class (those classesOf finds it by), in the order of its words; empty for an unknown id. */
  stemsOf(language: string, classId: number): readonly string[];
  /** Number of classes of a language (builds its table). */
  classCount(language: string): number;
}

/** One language's classes: ids by stem, each class's stems and words (words read on first use). */
interface ClassTable {
  readonly classCount: number;
  classesOf(stem: string): readonly number[];
  stemsOf(classId: number): readonly string[] | undefined;
  wordsOf(classId: number): readonly string[] | undefined;
}

const CYRILLIC = /\p{Script=Cyrillic}/u;

function dataPath(file: string): string {
  return fileURLToPath(new URL(`./data/${file}`, import.meta.url));
}

function tableText(file: string, bytes: Buffer): string {
  return file.endsWith('.gz') ? gunzipSync(bytes).toString('utf8') : bytes.toString('utf8');
}

function readUserFile(path: string): SynonymClassLine[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new InputError(`Cannot read synonym file \`${path}\`: ${(error as Error).message}`, { cause: error });
  }
  return parseSynonymClasses(text, `synonym file \`${path}\``);
}

/**
 * Classes given by their stems (`stems[i]`, words `wordsAt(i)`), in a map stem → ids: a class whose
 * words share one stem (run, running) equates nothing and gets no id; ids follow the order of the
 * rest, from `firstId`.
 */
function mapTable(stems: readonly (readonly string[])[], wordsAt: (i: number) => readonly string[], firstId = 0): ClassTable {
  const byStem = new Map<string, number[]>();
  const sourceOf: number[] = [];
  for (let i = 0; i < stems.length; i++) {
    const classStems = stems[i]!;
    if (classStems.length < 2) continue;
    const id = firstId + sourceOf.length;
    sourceOf.push(i);
    for (const s of classStems) {
      const ids = byStem.get(s);
      if (ids === undefined) byStem.set(s, [id]);
      else ids.push(id); // ids grow, so each list stays ascending
    }
  }
  const source = (id: number) => (Number.isInteger(id) && id >= firstId && id < firstId + sourceOf.length ? sourceOf[id - firstId]! : -1);
  return {
    classCount: sourceOf.length,
    classesOf: (stem) => byStem.get(stem) ?? NO_CLASSES,
    stemsOf: (id) => (source(id) < 0 ? undefined : stems[source(id)]),
    wordsOf: (id) => (source(id) < 0 ? undefined : wordsAt(source(id))),
  };
}

/** A shipped table's classes: from its stem table when that matches the table, else stemmed now. */
function shippedTable(language: string, file: string): ClassTable {
  const bytes = readFileSync(dataPath(file));
  let words: (readonly string[])[] | null = null;
  const wordsOf = () => (words ??= parseSynonymClasses(tableText(file, bytes), file).map((c) => c.words));
  let stems: StemTable | null = null;
  try {
    stems = openStemTable(file, bytes, readFileSync(dataPath(stemTableName(file))));
  } catch {
    stems = null; // no stem table: the entries are stemmed below
  }
  if (stems === null) return mapTable(classStemsOf(language, wordsOf()), (i) => wordsOf()[i]!);
  const table = stems;
  const valid = (id: number) => Number.isInteger(id) && id >= 0 && id < table.classCount;
  return {
    classCount: table.classCount,
    classesOf: (stem) => table.classesOf(stem),
    stemsOf: (id) => (valid(id) ? table.stemsOf(id) : undefined),
    wordsOf: (id) => (valid(id) ? wordsOf()[table.classIndexOf(id)] : undefined),
  };
}

/** A language's classes: its shipped ones (when `file` is given), then the user's (ids after them). */
function languageTable(language: string, file: string | undefined, user: readonly (readonly string[])[]): ClassTable {
  const shipped = file === undefined ? null : shippedTable(language, file);
  const first = shipped?.classCount ?? 0;
  const own = mapTable(classStemsOf(language, user), (i) => user[i]!, first);
  if (shipped === null) return own;
  if (own.classCount === 0) return shipped;
  return {
    classCount: first + own.classCount,
    classesOf: (stem) => {
      const a = shipped.classesOf(stem);
      const b = own.classesOf(stem);
      return b.length === 0 ? a : a.length === 0 ? b : [...a, ...b];
    },
    stemsOf: (id) => (id < first ? shipped.stemsOf(id) : own.stemsOf(id)),
    wordsOf: (id) => (id < first ? shipped.wordsOf(id) : own.wordsOf(id)),
  };
}

function userSources(options: SynonymDictionaryOptions): Map<string, (readonly string[])[]> {
  if (options.userLanguage !== undefined && !/^[a-z]{3}$/.test(options.userLanguage)) {
    throw new ValidationError(`Expected \`userLanguage\` to be an ISO 639-3 code (eng, rus, ...), got ${describeValue(options.userLanguage)}`);
  }
  const lines: (readonly string[])[] = [];
  if (options.userFile !== undefined) for (const c of readUserFile(options.userFile)) lines.push(c.words);
  for (const [i, words] of (options.userClasses ?? []).entries()) {
    if (!Array.isArray(words) || words.length < 2 || words.some((w) => typeof w !== 'string')) {
      throw new ValidationError(`Expected user synonym class ${i} to be an array of at least two strings, got ${JSON.stringify(words)}`);
    }
    lines.push(words);
  }
  const byLanguage = new Map<string, (readonly string[])[]>();
  const add = (language: string, words: readonly string[]) => {
    const list = byLanguage.get(language);
    if (list === undefined) byLanguage.set(language, [words]);
    else list.push(words);
  };
  for (const words of lines) {
    if (options.userLanguage !== undefined) {
      add(options.userLanguage, words);
      continue;
    }
    // A class may mix scripts (a loanword and its spelling); each language gets its own words.
    for (const language of ['rus', 'eng']) {
      const part = words.filter((w) => CYRILLIC.test(w) === (language === 'rus'));
      if (part.length >= 2) add(language, part);
    }
  }
  return byLanguage;
}

/** Loads the synonym dictionary: the shipped tables (unless `builtIn: false`) plus the user's classes. */
export function loadSynonymDictionary(options: SynonymDictionaryOptions = {}): SynonymDictionary {
  const builtIn = options.builtIn ?? true;
  const user = userSources(options);
  const languages = new Set<string>(user.keys());
  if (builtIn) for (const language of Object.keys(BUILT_IN_SYNONYM_TABLES)) languages.add(language);
  const tables = new Map<string, ClassTable>();
  const tableFor = (language: string): ClassTable | undefined => {
    if (!languages.has(language)) return undefined;
    let table = tables.get(language);
    if (table === undefined) {
      table = languageTable(language, builtIn ? BUILT_IN_SYNONYM_TABLES[language] : undefined, user.get(language) ?? []);
      tables.set(language, table);
    }
    return table;
  };
  return {
    languages: Object.freeze([...languages].sort()),
    classesOf: (language, stem) => tableFor(language)?.classesOf(stem) ?? NO_CLASSES,
    wordsOf: (language, classId) => tableFor(language)?.wordsOf(classId) ?? NO_WORDS,
    stemsOf: (language, classId) => tableFor(language)?.stemsOf(classId) ?? NO_WORDS,
    classCount: (language) => tableFor(language)?.classCount ?? 0,
  };
}
