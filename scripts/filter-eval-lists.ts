/**
 * Result lists for evaluating `neardup filter`, built from the article benchmark's dev pages
 * (MIT; the folder is given by the caller, never read from inside the repository):
 * for each article A, a list led by A (its title and a first passage as the snippet), holding
 * - `passage` duplicates: A's title with other passages of A (the same page reached through
 *   another URL, whose engine picked another snippet);
 * - `synonym` duplicates: A's first result with a share of its words replaced by a synonym from
 *   the dictionary (a spun copy), at two rates;
 * - `topic` negatives: results of the articles nearest to A by word overlap (same subject, other
 *   text), each with the passage of its own most like A's snippet.
 * Every duplicate belongs under A's first result; every negative belongs on its own.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { extractHtml } from '../src/extract/extract-page.js';
import { detectLanguage } from '../src/text/detect-language.js';
import { normalizeText } from '../src/text/normalize-text.js';
import { tokenize } from '../src/text/tokenize.js';
import { removeStopWordsAndStem, stemmerFor } from '../src/text/remove-stop-words-and-stem.js';
import { stopWordsFor } from '../src/text/language-resources.js';
import type { SynonymDictionary } from '../src/synonyms/synonym-dictionary.js';
import type { SearchResult } from '../src/filter/filter-results.js';
import { seededRandom } from '../test/helpers/seeded-random.js';

export type ResultKind = 'original' | 'passage' | 'synonym-light' | 'synonym-heavy' | 'topic';

export interface LabelledResult extends SearchResult {
  readonly kind: ResultKind;
  /** The url of the result it should be collapsed under; null for one that should be kept. */
  readonly goldHead: string | null;
}

export interface EvalList {
  readonly query: string;
  readonly language: string;
  readonly results: readonly LabelledResult[];
}

interface Article {
  readonly id: string;
  readonly title: string;
  readonly language: string;
  readonly passages: readonly string[];
  readonly stems: ReadonlySet<string>;
}

/** Words in a snippet: about what engines show (150–200 characters). */
const SNIPPET_WORDS = 28;
/** Share of a snippet's words replaced in a light and in a heavy synonym copy. */
export const SYNONYM_RATES = { 'synonym-light': 0.2, 'synonym-heavy': 0.4 } as const;
const NEIGHBOURS = 3;

/** Passages of SNIPPET_WORDS words, taken from evenly spaced places in the body. */
function passagesOf(body: string, count: number): string[] {
  const words = body.split(/\s+/).filter((w) => w !== '');
  const out: string[] = [];
  const step = Math.floor(words.length / count);
  if (step < SNIPPET_WORDS) return out;
  for (let i = 0; i < count; i++) out.push(words.slice(i * step, i * step + SNIPPET_WORDS).join(' '));
  return out;
}

export function loadArticles(folder: string): Article[] {
  const truth = JSON.parse(readFileSync(join(folder, 'ground-truth.json'), 'utf8')) as Record<string, { articleBody: string }>;
  const articles: Article[] = [];
  for (const file of readdirSync(join(folder, 'html')).sort()) {
    const id = file.replace(/\.html\.gz$/, '');
    const body = truth[id]?.articleBody;
    if (body === undefined) continue;
    const title = extractHtml(gunzipSync(readFileSync(join(folder, 'html', file))).toString('utf8')).title ?? '';
    const passages = passagesOf(body, 4);
    if (title.trim() === '' || passages.length < 4) continue;
    const language = detectLanguage(body);
    const stems = new Set(removeStopWordsAndStem(tokenize(normalizeText(body)), language));
    articles.push({ id, title: title.trim(), language, passages, stems });
  }
  return articles;
}

function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let common = 0;
  for (const w of a) if (b.has(w)) common++;
  return common / (a.size + b.size - common);
}

/**
 * `text` with about `rate` of its words that have a synonym of another stem replaced by one
 * (drawn with `random`); the words keep their place, so only the replaced ones differ.
 */
export function spin(text: string, language: string, rate: number, dictionary: SynonymDictionary, random: () => number): string {
  const stem = stemmerFor(language, {});
  const stopWords = stopWordsFor(language);
  const parts = text.split(/(\s+)/);
  const candidates: number[] = [];
  const choices = new Map<number, string[]>();
  parts.forEach((part, i) => {
    const token = tokenize(normalizeText(part));
    if (token.length !== 1 || stopWords.has(token[0]!)) return;
    const own = stem(token[0]!);
    const options = dictionary.classesOf(language, own).flatMap((c) => dictionary.wordsOf(language, c))
      .filter((w) => !stopWords.has(w) && stem(w) !== own);
    if (options.length > 0) {
      candidates.push(i);
      choices.set(i, options);
    }
  });
  const content = parts.filter((p) => { const t = tokenize(normalizeText(p)); return t.length === 1 && !stopWords.has(t[0]!); }).length;
  let toReplace = Math.min(candidates.length, Math.round(content * rate));
  while (toReplace > 0) {
    const pick = Math.floor(random() * candidates.length);
    const i = candidates.splice(pick, 1)[0]!;
    const options = choices.get(i)!;
    parts[i] = parts[i]!.replace(/[\p{L}\p{M}'-]+/u, options[Math.floor(random() * options.length)]!);
    toReplace--;
  }
  return parts.join('');
}

function neighboursOf(article: Article, articles: readonly Article[]): Article[] {
  return articles
    .filter((o) => o.id !== article.id && o.language === article.language)
    .map((o) => ({ o, s: overlap(article.stems, o.stems) }))
    .sort((x, y) => y.s - x.s)
    .slice(0, NEIGHBOURS)
    .map((x) => x.o);
}

function closestPassage(snippet: string, article: Article): string {
  const target = new Set(removeStopWordsAndStem(tokenize(normalizeText(snippet)), article.language));
  let best = article.passages[0]!;
  let bestScore = -1;
  for (const p of article.passages) {
    const score = overlap(target, new Set(removeStopWordsAndStem(tokenize(normalizeText(p)), article.language)));
    if (score > bestScore) [best, bestScore] = [p, score];
  }
  return best;
}

/** One list per article with a synonym dictionary for its language (see the module comment). */
export function buildEvalLists(articles: readonly Article[], dictionary: SynonymDictionary, seed = 15): EvalList[] {
  const random = seededRandom(seed);
  const lists: EvalList[] = [];
  for (const a of articles) {
    if (dictionary.classCount(a.language) === 0) continue;
    const head = `https://original.example/${a.id}`;
    const dup = (kind: ResultKind, n: number, title: string, snippet: string): LabelledResult =>
      ({ url: `https://${kind}-${n}.example/${a.id}`, title, snippet, kind, goldHead: head });
    const topic = neighboursOf(a, articles).map((o, n): LabelledResult =>
      ({ url: `https://topic-${n}.example/${o.id}`, title: o.title, snippet: closestPassage(a.passages[0]!, o), kind: 'topic', goldHead: null }));
    const spun = (kind: keyof typeof SYNONYM_RATES) => dup(kind, 0,
      spin(a.title, a.language, SYNONYM_RATES[kind], dictionary, random), spin(a.passages[0]!, a.language, SYNONYM_RATES[kind], dictionary, random));
    const results: LabelledResult[] = [
      { url: head, title: a.title, snippet: a.passages[0]!, kind: 'original' as const, goldHead: null },
      topic[0]!, dup('passage', 1, a.title, a.passages[1]!), spun('synonym-light'),
      topic[1]!, dup('passage', 2, a.title, a.passages[2]!), spun('synonym-heavy'),
      topic[2]!, dup('passage', 3, a.title, a.passages[3]!),
    ].filter((r) => r !== undefined);
    lists.push({ query: a.title, language: a.language, results });
  }
  return lists;
}
