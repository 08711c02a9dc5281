/**
 * Synonym classes for comparing words: a word (normalised and stemmed the way neardup normalises
 * text: NFKC, look-alike letters, lower case, Snowball stem) maps to the ids of the classes it
 * belongs to. Two words "count as equal" when they share a class id.
 *
 * Shipped tables (src/synonyms/data/, made by scripts/build-synonyms.ts): English from WordNet 3.0,
 * Russian from the LibreOffice thesaurus th_ru_RU_v2; users add their own classes from a file.
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
import { InputError, ValidationError } from '../errors.js';
import { normalizeText } from '../text/normalize-text.js';
import { tokenize } from '../text/tokenize.js';
import { stopWordsFor } from '../text/language-resources.js';
import { stemmerFor } from '../text/remove-stop-words-and-stem.js';
import { parseSynonymClasses, type SynonymClassLine } from './parse-synonym-classes.js';

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

export interface SynonymDictionary {
  /** Languages (ISO 639-3) with at least one class source. */
  readonly languages: readonly string[];
  /** Ids (ascending) of the classes of a normalised, stemmed word in `language`; empty when none. */
  classesOf(language: string, stem: string): readonly number[];
  /** The words of a class as written in its source (e.g. for showing or for making test data). */
  wordsOf(language: string, classId: number): readonly string[];
  /** Number of classes of a language (builds its table). */
  classCount(language: string): number;
}

/** One language's table: stem → class ids, and each class's words. */
interface LanguageTable {
  readonly byStem: Map<string, readonly number[]>;
  readonly classes: readonly (readonly string[])[];
}

const CYRILLIC = /\p{Script=Cyrillic}/u;

function readTable(file: string): string {
  const path = fileURLToPath(new URL(`./data/${file}`, import.meta.url));
  const bytes = readFileSync(path);
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

/** Letters (with their marks) only: exactly one token, whatever the tokeniser (tokenize is far dearer per call). */
const ONE_WORD = /^[\p{L}\p{M}]+$/u;

/**
 * An entry's stem in `language`, or null for a stop word or an entry of several tokens; memoised
 * in `memo` (entries repeat across classes).
 */
function entryStem(word: string, stopWords: ReadonlySet<string>, stem: (w: string) => string, memo: Map<string, string | null>): string | null {
  let out = memo.get(word);
  if (out !== undefined) return out;
  const normalised = normalizeText(word);
  const token = ONE_WORD.test(normalised) ? normalised : singleToken(normalised);
  out = token === null || stopWords.has(token) ? null : stem(token);
  memo.set(word, out);
  return out;
}

function singleToken(text: string): string | null {
  const tokens = tokenize(text);
  return tokens.length === 1 ? tokens[0]! : null;
}

function buildTable(language: string, sources: readonly (readonly string[])[]): LanguageTable {
  const stem = stemmerFor(language, {});
  const stopWords = stopWordsFor(language);
  const memo = new Map<string, string | null>();
  const byStem = new Map<string, number[]>();
  const classes: (readonly string[])[] = [];
  for (const words of sources) {
    const stems: string[] = [];
    for (const word of words) {
      const s = entryStem(word, stopWords, stem, memo);
      if (s !== null && !stems.includes(s)) stems.push(s);
    }
    // A class whose words share one stem (run, running) equates nothing.
    if (stems.length < 2) continue;
    const id = classes.length;
    classes.push(words);
    for (const s of stems) {
      const ids = byStem.get(s);
      if (ids === undefined) byStem.set(s, [id]);
      else ids.push(id); // ids grow, so each list stays ascending
    }
  }
  return { byStem, classes };
}

function userSources(options: SynonymDictionaryOptions): Map<string, (readonly string[])[]> {
  const lines: (readonly string[])[] = [];
  if (options.userFile !== undefined) for (const c of readUserFile(options.userFile)) lines.push(c.words);
  for (const [i, words] of (options.userClasses ?? []).entries()) {
    if (!Array.isArray(words) || words.length < 2 || words.some((w) => typeof w !== 'string')) {
      throw new ValidationError(`Expected user synonym class ${i} to be an array of at least two strings, got ${JSON.stringify(words)}`);
    }
    lines.push(words);
  }
  const byLanguage = new Map<string, (readonly string[])[]>();
  for (const words of lines) {
    if (options.userLanguage !== undefined) {
      (byLanguage.get(options.userLanguage) ?? byLanguage.set(options.userLanguage, []).get(options.userLanguage)!).push(words);
      continue;
    }
    // A class may mix scripts (a loanword and its spelling); each language gets its own words.
    for (const language of ['rus', 'eng']) {
      const part = words.filter((w) => CYRILLIC.test(w) === (language === 'rus'));
      if (part.length >= 2) (byLanguage.get(language) ?? byLanguage.set(language, []).get(language)!).push(part);
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
  const tables = new Map<string, LanguageTable>();
  const tableFor = (language: string): LanguageTable | undefined => {
    if (!languages.has(language)) return undefined;
    let table = tables.get(language);
    if (table === undefined) {
      const sources: (readonly string[])[] = [];
      const file = builtIn ? BUILT_IN_SYNONYM_TABLES[language] : undefined;
      if (file !== undefined) for (const c of parseSynonymClasses(readTable(file), file)) sources.push(c.words);
      sources.push(...(user.get(language) ?? []));
      table = buildTable(language, sources);
      tables.set(language, table);
    }
    return table;
  };
  return {
    languages: Object.freeze([...languages].sort()),
    classesOf: (language, stem) => tableFor(language)?.byStem.get(stem) ?? NO_CLASSES,
    wordsOf: (language, classId) => tableFor(language)?.classes[classId] ?? NO_CLASSES as unknown as readonly string[],
    classCount: (language) => tableFor(language)?.classes.length ?? 0,
  };
}
