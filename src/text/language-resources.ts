/**
 * Stop words (stopwords-iso) and Snowball stemmers (snowball-stemmers) by ISO 639-3 language code,
 * for the languages the detector can report. Languages without a stemmer still lose their stop
 * words; languages with neither ('und', Korean, ...) go through unchanged.
 */
import stopwordsIso from 'stopwords-iso' with { type: 'json' };
import { stemEnglish } from './english-stemmer.js';
import { fastSnowballStemmer, snowballPackage } from './fast-snowball.js';
import { stemGerman } from './german-stemmer.js';
import { stemRussian } from './russian-stemmer.js';
import { SpanSet } from './span-set.js';
import { tokenize } from './tokenize.js';

/** ISO 639-3 → [stopwords-iso code (ISO 639-1), Snowball algorithm or ''] */
const LANGUAGES: Readonly<Record<string, readonly [string, string]>> = {
  eng: ['en', 'english'],
  rus: ['ru', 'russian'],
  spa: ['es', 'spanish'],
  cat: ['ca', 'catalan'],
  fra: ['fr', 'french'],
  deu: ['de', 'german'],
  por: ['pt', 'portuguese'],
  ita: ['it', 'italian'],
  nld: ['nl', 'dutch'],
  swe: ['sv', 'swedish'],
  hun: ['hu', 'hungarian'],
  tur: ['tr', 'turkish'],
  ron: ['ro', 'romanian'],
  ces: ['cs', 'czech'],
  arb: ['ar', 'arabic'],
  ind: ['id', ''],
  zlm: ['ms', ''],
  pol: ['pl', ''],
  ukr: ['uk', ''],
  bul: ['bg', ''],
  hrv: ['hr', ''],
  vie: ['vi', ''],
  swh: ['sw', ''],
  hau: ['ha', ''],
  yor: ['yo', ''],
  zul: ['zu', ''],
  som: ['so', ''],
  tgl: ['tl', ''],
  pes: ['fa', ''],
  urd: ['ur', ''],
  hin: ['hi', ''],
  mar: ['mr', ''],
  ben: ['bn', ''],
  guj: ['gu', ''],
  ell: ['el', ''],
  tha: ['th', ''],
  cmn: ['zh', ''],
  jpn: ['ja', ''],
  kor: ['ko', ''],
};

/** A word → stem function, or null when the language has no stemmer. */
export type Stemmer = (word: string) => string;

const EMPTY: ReadonlySet<string> = new Set();

/**
 * The stop-word list tokenised like documents: an entry that is one token is kept as is; an entry
 * with an elision (`d'un`, `can't`) adds its parts, since the tokeniser splits at apostrophes;
 * other multi-token entries (`por qué`, Chinese multi-character words) are left out, so that no
 * content character of a CJK text is dropped.
 */
function buildStopSet(code: string): ReadonlySet<string> {
  const words = (stopwordsIso as Record<string, string[]>)[code];
  if (words === undefined) return EMPTY;
  const set = new Set<string>();
  for (const entry of words) {
    const normalised = entry.normalize('NFKC').toLowerCase();
    const parts = tokenize(normalised);
    if (parts.length === 1 || /['’]/.test(normalised)) for (const part of parts) set.add(part);
  }
  return set;
}

/** A language's stop words as a Set and as a SpanSet (the same members). */
interface StopWords {
  readonly set: ReadonlySet<string>;
  readonly spans: SpanSet;
}

const NO_STOP_WORDS: StopWords = { set: EMPTY, spans: new SpanSet([]) };

/**
 * Each language's lists, built on its first use (building all 39 at load took most of a short
 * command's start-up). Only ever holds one entry per key of LANGUAGES, each immutable once built,
 * so the result of a lookup never depends on what was looked up before.
 */
const STOP_WORDS = new Map<string, StopWords>();

function stopWordsOf(language: string): StopWords {
  let entry = STOP_WORDS.get(language);
  if (entry === undefined) {
    const code = LANGUAGES[language]?.[0];
    if (code === undefined) return NO_STOP_WORDS;
    const set = buildStopSet(code);
    entry = set.size === 0 ? NO_STOP_WORDS : { set, spans: new SpanSet(set) };
    STOP_WORDS.set(language, entry);
  }
  return entry;
}

/** Stop words of a language (ISO 639-3) as a SpanSet (the same members as stopWordsFor). */
export function stopWordSpansFor(language: string): SpanSet {
  return stopWordsOf(language).spans;
}

/** Languages with a Snowball stemmer (ISO 639-3). */
export const STEMMED_LANGUAGES: readonly string[] = Object.freeze(
  Object.entries(LANGUAGES).filter(([, [, algorithm]]) => algorithm !== '').map(([lang]) => lang),
);

/**
 * Languages with a stop-word list (ISO 639-3): those stopwords-iso has a list for (every such list
 * keeps at least one entry; the tests check that stopWordsFor is non-empty for exactly these).
 */
export const STOPWORD_LANGUAGES: readonly string[] = Object.freeze(
  Object.entries(LANGUAGES).filter(([, [code]]) => ((stopwordsIso as Record<string, string[]>)[code]?.length ?? 0) > 0).map(([lang]) => lang),
);

/** Stop words of a language (ISO 639-3), empty for a language without a list. */
export function stopWordsFor(language: string): ReadonlySet<string> {
  return stopWordsOf(language).set;
}

/** Whether a language (ISO 639-3) has a Snowball stemmer. */
export function hasStemmer(language: string): boolean {
  const algorithm = LANGUAGES[language]?.[1];
  return algorithm !== undefined && algorithm !== '';
}

/**
 * Whether a language's stemmer is one of ours on plain strings (English, Russian, German): cheap
 * enough that a per-document memo beats a large shared cache.
 */
export function hasFastStemmer(language: string): boolean {
  const algorithm = LANGUAGES[language]?.[1];
  return algorithm === 'english' || algorithm === 'russian' || algorithm === 'german';
}

/**
 * A Snowball stemmer for a language (ISO 639-3), or null. Each call makes its own snowball-stemmers
 * program (run on fast-snowball.ts's runtime; they hold per-word state), so callers never share one across threads or re-entrant
 * calls; English, Russian and German use the stateless stemEnglish, stemRussian and stemGerman.
 */
export function createStemmer(language: string): Stemmer | null {
  const algorithm = LANGUAGES[language]?.[1];
  if (algorithm === undefined || algorithm === '') return null;
  // Same stems as snowball-stemmers, without its per-call overhead (see english-stemmer.ts).
  if (algorithm === 'english') return stemEnglish;
  if (algorithm === 'russian') return stemRussian;
  if (algorithm === 'german') return stemGerman;
  // The package's language code on a fast runtime (same stems; see fast-snowball.ts), else the package.
  const fast = fastSnowballStemmer(algorithm);
  if (fast !== null) return fast;
  const stemmer = snowballPackage().newStemmer(algorithm);
  return (word: string) => stemmer.stem(word);
}
