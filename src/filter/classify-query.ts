/**
 * A rule-based query classifier for English and Russian. Every rule has a name (reported with the
 * class, so a decision can be explained) and votes for an intent or a style:
 *
 * intent rules, most specific first (the first intent with a matching rule wins):
 *   service        `operator`        a search operator: site:, url:, inurl:, intitle:, filetype:, ...,
 *                                    an excluded or forced word (-word, +word, !word), OR / AND / |
 *   exact-phrase   `quoted-phrase`   text inside quotes "…", “…”, «…», „…“
 *   multimedia     `media-word`      photo, video, mp3, wallpaper, фото, видео, смотреть, ...
 *   transactional  `transaction-word` buy, price, download, order, купить, цена, скачать, ...
 *   navigational   `url`, `site-name`, `navigation-word`  a domain or URL, a known site or brand,
 *                                    official site / login / вход / личный кабинет
 *   informational  `question-word`, `information-word`   what / how / почему, definition / история
 *   general        (no intent rule matched)
 * Service and exact phrase come first because they are instructions to the engine, not guesses
 * about intent; a media word names the kind of result wanted even on a brand's site ("youtube
 * cat video"); buying outranks the shop's name ("buy kindle amazon": many shops are wanted);
 * a site name outranks a question ("how to log in to gmail" wants the site).
 *
 * style rules, for the four intents that have two styles:
 *   natural        `question-mark` (ends with ?), `question-start` (starts with a question word),
 *                  `function-words` (three or more words, one of them a function word: a, the, of,
 *                  to, is, в, на, для, ...)
 *   telegraphic    (none of these)
 */
import { normalizeText } from '../text/normalize-text.js';
import { tokenize } from '../text/tokenize.js';
import { stemEnglish } from '../text/english-stemmer.js';
import { stemRussian } from '../text/russian-stemmer.js';
import type { QueryClass } from './query-class.js';
import {
  FUNCTION_WORDS, INFORMATION_WORDS, MEDIA_WORDS, NAVIGATION_WORDS, QUESTION_WORDS, SITE_NAMES, TRANSACTION_WORDS,
} from './query-lexicon.js';

export const QUERY_INTENTS = ['service', 'exact-phrase', 'multimedia', 'transactional', 'navigational', 'informational', 'general'] as const;
export type QueryIntent = (typeof QUERY_INTENTS)[number];

export interface QueryClassification {
  readonly class: QueryClass;
  readonly intent: QueryIntent;
  readonly style: 'natural' | 'telegraphic';
  /** Names of every rule that matched, intent rules first (the winner's among them). */
  readonly rules: readonly string[];
}

const CYRILLIC = /\p{Script=Cyrillic}/u;

/** A word's stem for matching: Russian stemmer for Cyrillic words, English for the rest. */
function stemOf(word: string): string {
  return CYRILLIC.test(word) ? stemRussian(word) : stemEnglish(word);
}

/**
 * A lexicon entry's tokens. Not normalizeText: its look-alike folding would turn a short all-look-alike
 * Russian word (со, о, у) into Latin letters, while in a Russian query it stays Cyrillic.
 */
function entryTokens(entry: string): string[] {
  return tokenize(entry.normalize('NFKC').toLowerCase());
}

/** Lexicon entries as stem sequences; built once at load, never changed. */
function phrases(entries: readonly string[]): readonly (readonly string[])[] {
  return Object.freeze(entries.map((e) => Object.freeze(entryTokens(e).map(stemOf))).filter((p) => p.length > 0));
}

const LEXICON = Object.freeze({
  question: new Set(QUESTION_WORDS.flatMap(entryTokens).map(stemOf)),
  function: new Set(FUNCTION_WORDS.flatMap(entryTokens).map(stemOf)),
  transaction: phrases(TRANSACTION_WORDS),
  navigation: phrases(NAVIGATION_WORDS),
  site: phrases(SITE_NAMES),
  information: phrases(INFORMATION_WORDS),
  media: phrases(MEDIA_WORDS),
});

const OPERATOR = /(?:^|\s)(?:site|url|inurl|allinurl|intitle|allintitle|intext|allintext|inanchor|filetype|ext|cache|related|info|link|host|rhost|domain|mime|lang|date|title|inbody|before|after):\S/iu;
const WORD_OPERATOR = /(?:^|\s)[-+!]\p{L}|\s(?:OR|AND)\s|\s\|\s?|\s~\s/u;
const QUOTED = /["“”«»„][^"“”«»„]*\p{L}[^"“”«»„]*["“”«»„]/u;
const URL_LIKE = /(?:https?:\/\/|www\.)\S|(?:^|[\s(])[\p{L}\d-]+(?:\.[\p{L}\d-]+)*\.(?:com|org|net|ru|рф|su|ua|by|kz|info|io|gov|edu|co|uk|de|fr|es|it|tv|me|app|dev|ai|biz|us|ca|au|in)(?:[\s/:?#)]|$)/iu;

function containsPhrase(stems: readonly string[], list: readonly (readonly string[])[]): boolean {
  for (const phrase of list) {
    outer: for (let i = 0; i + phrase.length <= stems.length; i++) {
      for (let k = 0; k < phrase.length; k++) if (stems[i + k] !== phrase[k]) continue outer;
      return true;
    }
  }
  return false;
}

/** Intent rules, most specific intent first: [rule name, intent, test]. */
const INTENT_RULES: readonly (readonly [string, QueryIntent, (raw: string, stems: readonly string[]) => boolean])[] = [
  ['operator', 'service', (raw) => OPERATOR.test(raw) || WORD_OPERATOR.test(` ${raw}`)],
  ['quoted-phrase', 'exact-phrase', (raw) => QUOTED.test(raw)],
  ['media-word', 'multimedia', (_, s) => containsPhrase(s, LEXICON.media)],
  ['transaction-word', 'transactional', (_, s) => containsPhrase(s, LEXICON.transaction)],
  ['url', 'navigational', (raw) => URL_LIKE.test(raw)],
  ['site-name', 'navigational', (_, s) => containsPhrase(s, LEXICON.site)],
  ['navigation-word', 'navigational', (_, s) => containsPhrase(s, LEXICON.navigation)],
  ['question-word', 'informational', (_, s) => s.some((w) => LEXICON.question.has(w))],
  ['information-word', 'informational', (_, s) => containsPhrase(s, LEXICON.information)],
];

function styleRules(raw: string, stems: readonly string[]): string[] {
  const rules: string[] = [];
  if (/\?\s*$/u.test(raw)) rules.push('question-mark');
  if (stems.length > 0 && LEXICON.question.has(stems[0]!)) rules.push('question-start');
  if (stems.length >= 3 && stems.some((w) => LEXICON.function.has(w))) rules.push('function-words');
  return rules;
}

/** The class of a search query, with the names of the rules that decided it. */
export function classifyQuery(query: string): QueryClassification {
  if (typeof query !== 'string') throw new TypeError(`Expected query to be a string, got ${typeof query}`);
  const raw = query.normalize('NFKC');
  const stems = tokenize(normalizeText(raw)).map(stemOf);
  const rules: string[] = [];
  let intent: QueryIntent | undefined;
  for (const [name, ruleIntent, test] of INTENT_RULES) {
    if (!test(raw, stems)) continue;
    rules.push(name);
    intent ??= ruleIntent;
  }
  intent ??= 'general';
  const style = styleRules(raw, stems);
  rules.push(...style);
  const natural = style.length > 0 ? 'natural' : 'telegraphic';
  const cls = intent === 'service' || intent === 'exact-phrase' || intent === 'multimedia' ? intent : (`${intent}-${natural}` as QueryClass);
  return { class: cls, intent, style: natural, rules };
}
