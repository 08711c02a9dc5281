/**
 * The stems of synonym classes' entries, as the dictionary looks words up (synonym-dictionary.ts):
 * normalised the way neardup normalises text (NFKC, look-alike letters, lower case), one token,
 * not a stop word, Snowball-stemmed. Stemming the shipped tables' ~60,000 entries took ~0.3 s at
 * every load, so scripts/build-synonyms.ts writes them beside each table once (a "stem table": one
 * line per class of the table, in its order, the class's distinct stems separated by a space), with
 * the SHA-256 of the table's bytes in its header: a table changed since is stemmed at load again,
 * and a test checks that the shipped stems are the ones this code makes.
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

/** A stem table's bytes for a table's bytes (gzipped when its name ends with `.gz`). */
export function formatStemTable(tableFile: string, tableBytes: Uint8Array, stems: readonly (readonly string[])[], licence: string): Uint8Array {
  const text = `${HEADER}${tableFile} sha256 ${sha256(tableBytes)}; one line per class, in its order (scripts/build-synonyms.ts); licence: ${licence}\n${stems.map((s) => s.join(' ')).join('\n')}\n`;
  return tableFile.endsWith('.gz') ? gzipSync(text, { level: 9 }) : Buffer.from(text);
}

/**
 * The stems per class of a stem table's bytes, or null when it was made from other table bytes
 * than `tableBytes` (or is no stem table).
 */
export function parseStemTable(tableFile: string, tableBytes: Uint8Array, stemBytes: Uint8Array): string[][] | null {
  const text = (tableFile.endsWith('.gz') ? gunzipSync(stemBytes) : Buffer.from(stemBytes.buffer, stemBytes.byteOffset, stemBytes.byteLength)).toString('utf8');
  const headerEnd = text.indexOf('\n');
  if (!text.startsWith(`${HEADER}${tableFile} sha256 ${sha256(tableBytes)};`) || headerEnd < 0) return null;
  const lines = text.slice(headerEnd + 1).split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => (line === '' ? [] : line.split(' ')));
}
