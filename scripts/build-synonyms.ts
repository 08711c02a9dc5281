/**
 * Derives the compact synonym tables shipped in src/synonyms/data/ from system packages, so that
 * no system package is needed at run time:
 * - English: WordNet 3.0 (Debian `wordnet-base`, /usr/share/wordnet): one synset a class, its
 *   single-word lemmas; only synsets with at least one sense attested in WordNet's sense-tagged
 *   corpus (cntlist.rev tag count > 0), which keeps the table small and drops the rare senses that
 *   would make unrelated common words "synonyms".
 * - Russian: the LibreOffice/OpenOffice thesaurus (Debian `mythes-ru`, th_ru_RU_v2.dat): a head
 *   word with its `(синоним)` lists, single words only.
 * A class is one line of lower-case words separated by a space; classes of fewer than two words
 * and repeated classes are dropped; lines are sorted, so the output is reproducible.
 * Beside each table its stem table (src/synonyms/synonym-stems.ts: the entries' stems, so that the
 * dictionary does not stem them at every load); `--stems-only` remakes only those, from the tables
 * in `--out` (no system package needed: after a change to normalisation, stop words or stemmers).
 *
 *   apt-get update && apt-get install -y wordnet-base mythes-ru
 *   npm run build:synonyms [-- --wordnet /usr/share/wordnet --mythes /usr/share/mythes/th_ru_RU_v2.dat --out src/synonyms/data]
 *   npm run build:synonyms -- --stems-only
 */
import { existsSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { parseSynonymClasses } from '../src/synonyms/parse-synonym-classes.js';
import { BUILT_IN_SYNONYM_TABLES } from '../src/synonyms/synonym-dictionary.js';
import { classStemsOf, formatStemTable, stemTableName } from '../src/synonyms/synonym-stems.js';

const { values } = parseArgs({
  options: {
    wordnet: { type: 'string', default: '/usr/share/wordnet' },
    mythes: { type: 'string', default: '/usr/share/mythes/th_ru_RU_v2.dat' },
    out: { type: 'string', default: 'src/synonyms/data' },
    'all-senses': { type: 'boolean', default: false },
    'stems-only': { type: 'boolean', default: false },
  },
});

const SS_TYPE_NUMBER: Readonly<Record<string, string>> = { n: '1', v: '2', a: '3', r: '4', s: '5' };
/**
 * The thesaurus lists a head word's synonyms closest first, and long lists drift far from the
 * head (20+ words); a class keeps the head and its first synonyms.
 */
const MAX_RUSSIAN_CLASS = 8;
/** A word of letters only (hyphens inside allowed): multi-word lemmas never match one token. */
const SINGLE_WORD = /^\p{L}+(?:-\p{L}+)*$/u;

/** Sense keys (without the head-word part) whose tag count in the sense-tagged corpus is > 0. */
function attestedSenses(dir: string): Set<string> {
  const keys = new Set<string>();
  for (const line of readFileSync(join(dir, 'cntlist.rev'), 'utf8').split('\n')) {
    const [key, , count] = line.split(' ');
    if (key === undefined || count === undefined || Number(count) <= 0) continue;
    keys.add(key.split(':').slice(0, 3).join(':'));
  }
  return keys;
}

function wordnetClasses(dir: string, allSenses: boolean): string[][] {
  const attested = allSenses ? null : attestedSenses(dir);
  const classes: string[][] = [];
  for (const pos of ['noun', 'verb', 'adj', 'adv']) {
    for (const line of readFileSync(join(dir, `data.${pos}`), 'utf8').split('\n')) {
      if (line === '' || line.startsWith('  ')) continue; // licence header
      const fields = line.split(' ');
      const lexFile = fields[1]!;
      const ssType = fields[2]!;
      const count = parseInt(fields[3]!, 16);
      const words: string[] = [];
      let seen = attested === null;
      for (let i = 0; i < count; i++) {
        const raw = fields[4 + i * 2]!.replace(/\((a|p|ip)\)$/, '');
        const lexId = fields[5 + i * 2]!;
        const lemma = raw.toLowerCase();
        const key = `${lemma}%${SS_TYPE_NUMBER[ssType]}:${lexFile}:${lexId.padStart(2, '0')}`;
        if (attested?.has(key) === true) seen = true;
        // Proper nouns (capitalised lemmas) and multi-word lemmas are left out.
        if (raw !== lemma || !SINGLE_WORD.test(lemma)) continue;
        if (!words.includes(lemma)) words.push(lemma);
      }
      if (seen && words.length >= 2) classes.push(words);
    }
  }
  return classes;
}

function mythesClasses(file: string): string[][] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const classes: string[][] = [];
  let i = 1; // line 0 names the encoding (UTF-8)
  while (i < lines.length) {
    const [head, n] = lines[i]!.split('|');
    i++;
    if (head === undefined || n === undefined) continue;
    const count = Number(n);
    for (let k = 0; k < count && i < lines.length; k++, i++) {
      const [kind, ...synonyms] = lines[i]!.split('|');
      if (kind !== '(синоним)') continue;
      const words: string[] = [];
      for (const w of [head, ...synonyms].map((s) => s.trim().toLowerCase())) {
        if (SINGLE_WORD.test(w) && !words.includes(w)) words.push(w);
      }
      if (words.length >= 2) classes.push(words.slice(0, MAX_RUSSIAN_CLASS));
    }
  }
  return withoutSubsets(classes);
}

/**
 * Classes whose words all belong to one larger class say nothing more (a head word's list is
 * often repeated, shorter, under each of its synonyms); they are dropped.
 */
function withoutSubsets(classes: string[][]): string[][] {
  const byWord = new Map<string, number[]>();
  classes.forEach((words, i) => { for (const w of words) (byWord.get(w) ?? byWord.set(w, []).get(w)!).push(i); });
  return classes.filter((words, i) => {
    const candidates = byWord.get(words[0]!)!;
    return !candidates.some((j) => j !== i && (classes[j]!.length > words.length || (classes[j]!.length === words.length && j < i))
      && words.every((w) => classes[j]!.includes(w)));
  });
}

function writeTable(path: string, header: string, classes: string[][]): void {
  const unique = new Map<string, string>();
  for (const words of classes) {
    const line = words.join(' ');
    const key = [...words].sort().join(' ');
    if (!unique.has(key)) unique.set(key, line);
  }
  const lines = [...unique.values()].sort();
  const text = `${header}\n${lines.join('\n')}\n`;
  // Cyrillic takes two bytes a letter: the Russian table is shipped gzipped (mtime 0: reproducible).
  const bytes = path.endsWith('.gz') ? gzipSync(text, { level: 9 }) : Buffer.from(text);
  writeFileSync(path, bytes);
  const words = new Set(lines.flatMap((l) => l.split(' '))).size;
  console.log(`${path}: ${lines.length} classes, ${words} distinct words, ${(bytes.length / 1024).toFixed(0)} KiB`);
}

/**
 * Debian's copyright file puts dictionaries/ru_RU/* under A. I. Lebedev's BSD-style licence, while
 * Fedora and ALT package the same th_ru_RU_v2 as LGPL-2.1+: the table keeps both statements and
 * the LGPL text, and is to be taken under the stricter one (LGPL-2.1+).
 */
function writeRussianLicence(path: string): void {
  const copyright = readFileSync('/usr/share/doc/mythes-ru/copyright', 'utf8');
  const stanza = copyright.slice(copyright.indexOf('Files: dictionaries/ru_RU/*'));
  const end = stanza.indexOf('\nFiles: ', 10);
  const lgpl = existsSync('/usr/share/common-licenses/LGPL-2.1') ? readFileSync('/usr/share/common-licenses/LGPL-2.1', 'utf8') : '';
  writeFileSync(path, [
    'mythes-ru.txt.gz is derived (single-word synonym lists, modified: see scripts/build-synonyms.ts)',
    'from th_ru_RU_v2.dat, the Russian thesaurus of LibreOffice, as packaged by Debian (mythes-ru).',
    'Debian states its licence as below; other distributions (Fedora, ALT) package the same',
    'thesaurus as LGPL-2.1+. Take the derived table under the GNU LGPL 2.1 or later (text at the end).',
    '',
    stanza.slice(0, end === -1 ? undefined : end).trim(),
    '',
    '----------------------------------------------------------------------',
    lgpl,
  ].join('\n'));
}

/** Licence file of each shipped table (its stem table is derived from it, under the same terms). */
const LICENCES: Readonly<Record<string, string>> = { 'wordnet-en.txt': 'LICENSE-wordnet.txt', 'mythes-ru.txt.gz': 'LICENSE-mythes-ru.txt' };

/** Writes the stem table of every shipped table found in `dir`. */
function writeStemTables(dir: string): void {
  for (const [language, file] of Object.entries(BUILT_IN_SYNONYM_TABLES)) {
    const path = join(dir, file);
    if (!existsSync(path)) continue;
    const bytes = readFileSync(path);
    const text = file.endsWith('.gz') ? gunzipSync(bytes).toString('utf8') : bytes.toString('utf8');
    const stems = classStemsOf(language, parseSynonymClasses(text, file).map((c) => c.words));
    const out = join(dir, stemTableName(file));
    const stemBytes = formatStemTable(file, bytes, stems, LICENCES[file] ?? 'as the table');
    writeFileSync(out, stemBytes);
    console.log(`${out}: stems of ${stems.length} classes, ${(stemBytes.length / 1024).toFixed(0)} KiB`);
  }
}

if (values['stems-only'] === true) {
  writeStemTables(values.out!);
  process.exit(0);
}

const wordnetDir = values.wordnet!;
if (!existsSync(join(wordnetDir, 'data.noun'))) {
  console.error(`WordNet not found in ${wordnetDir}: apt-get update && apt-get install -y wordnet-base`);
  process.exit(1);
}
writeTable(
  join(values.out!, 'wordnet-en.txt'),
  '# WordNet 3.0 synsets (single-word lemmas, attested senses), one class a line; licence: LICENSE-wordnet.txt',
  wordnetClasses(wordnetDir, values['all-senses'] === true),
);
copyFileSync('/usr/share/doc/wordnet-base/copyright', join(values.out!, 'LICENSE-wordnet.txt'));

if (existsSync(values.mythes!)) {
  writeTable(
    join(values.out!, 'mythes-ru.txt.gz'),
    '# Russian thesaurus th_ru_RU_v2 (LibreOffice, Debian mythes-ru), synonym lists of single words, one class a line; licence: LICENSE-mythes-ru.txt',
    mythesClasses(values.mythes!),
  );
  writeRussianLicence(join(values.out!, 'LICENSE-mythes-ru.txt'));
} else {
  console.log(`Russian thesaurus not found at ${values.mythes}: (apt-get install -y mythes-ru); Russian table not rebuilt`);
}
writeStemTables(values.out!);
