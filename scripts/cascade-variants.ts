/**
 * Made copies for the cascade's evaluation: synonymised (spun) copies with replacements drawn from
 * the synonym dictionary (src/synonyms/, WordNet for English), look-alike-letter copies, and
 * pages compiled from paragraphs of several texts.
 */
import type { SynonymDictionary } from '../src/synonyms/synonym-dictionary.js';
import { stopWordsFor } from '../src/text/language-resources.js';
import { normalizeText } from '../src/text/normalize-text.js';
import { stemmerFor } from '../src/text/remove-stop-words-and-stem.js';

type Random = () => number;

const WORD = /\p{L}[\p{L}\p{M}]*/gu;
const PLAIN_WORD = /^\p{L}+$/u;

function matchCase(replacement: string, original: string): string {
  if (original === original.toUpperCase() && original.length > 1) return replacement.toUpperCase();
  if (original[0] === original[0]!.toUpperCase()) return replacement.charAt(0).toUpperCase() + replacement.slice(1);
  return replacement;
}

/**
 * Replaces `share` of the text's content words (not stop words) by a synonym from the dictionary
 * (another one-word member of one of the word's classes, with another stem); words without one
 * stay. Returns the text and the share of content words actually replaced.
 */
/** How a spinner writes its replacements. */
export interface SpinStyle {
  /** Give a synonym the replaced word's ending (plural -s, -ed, -ing), as a spinner that inflects does. @default false */
  readonly keepForm?: boolean;
  /** Share of the function words also swapped for another (the ↔ a, this ↔ that, in ↔ on, ...). @default 0 */
  readonly functionSwaps?: number;
  /** Take multi-word members of a class too ("look for" for "seek"). @default false */
  readonly multiWord?: boolean;
}

const FUNCTION_SWAPS: Readonly<Record<string, string>> = {
  the: 'a', a: 'the', this: 'that', that: 'this', these: 'those', those: 'these', in: 'on', on: 'in', at: 'in',
  but: 'however', also: 'too', very: 'really', which: 'that', will: 'would', can: 'could', is: 'was', are: 'were',
};

/** The synonym with the replaced word's ending when it has none of its own. */
function inflectLike(synonym: string, original: string): string {
  const word = original.toLowerCase();
  for (const ending of ['ing', 'ed', 's']) {
    if (!word.endsWith(ending) || word.length <= ending.length + 2 || synonym.endsWith(ending)) continue;
    if (ending === 's' && word.endsWith('ss')) continue;
    const base = ending !== 's' && synonym.endsWith('e') ? synonym.slice(0, -1) : synonym;
    return base + ending;
  }
  return synonym;
}

export function spinText(text: string, language: string, dictionary: SynonymDictionary, share: number, random: Random, style: SpinStyle = {}): { text: string; replaced: number } {
  const stop = stopWordsFor(language);
  const stem = stemmerFor(language, {});
  const matches = [...text.matchAll(WORD)];
  const content = matches.filter((m) => !stop.has(normalizeText(m[0])));
  const options = new Map<number, string[]>();
  for (const m of content) {
    const word = normalizeText(m[0]);
    const own = stem(word);
    const choices = new Set<string>();
    for (const id of dictionary.classesOf(language, own)) {
      for (const w of dictionary.wordsOf(language, id)) {
        const n = normalizeText(w);
        const plain = PLAIN_WORD.test(n) || (style.multiWord === true && /^\p{L}+([ _-]\p{L}+)+$/u.test(n));
        if (plain && stem(n) !== own && !stop.has(n)) choices.add(n.replace(/_/g, ' '));
      }
    }
    if (choices.size > 0) options.set(m.index!, [...choices].sort());
  }
  const eligible = content.filter((m) => options.has(m.index!));
  const wanted = Math.round(share * content.length);
  // Random eligible words, as many as wanted (all of them when there are fewer).
  const order = eligible.map((m) => ({ m, r: random() })).sort((a, b) => a.r - b.r).slice(0, wanted);
  const chosen = new Map(order.map(({ m }) => {
    const list = options.get(m.index!)!;
    const synonym = list[Math.floor(random() * list.length)]!;
    return [m.index!, matchCase(style.keepForm === true ? inflectLike(synonym, m[0]) : synonym, m[0])] as const;
  }));
  const swaps = style.functionSwaps ?? 0;
  if (swaps > 0) {
    for (const m of matches) {
      const swap = FUNCTION_SWAPS[m[0].toLowerCase()];
      if (swap !== undefined && !chosen.has(m.index!) && random() < swaps) chosen.set(m.index!, matchCase(swap, m[0]));
    }
  }
  let out = '';
  let last = 0;
  for (const m of matches) {
    const replacement = chosen.get(m.index!);
    if (replacement === undefined) continue;
    out += text.slice(last, m.index!) + replacement;
    last = m.index! + m[0].length;
  }
  out += text.slice(last);
  return { text: out, replaced: content.length === 0 ? 0 : order.length / content.length };
}

const LATIN_TO_CYRILLIC: Record<string, string> = { a: 'а', e: 'е', o: 'о', p: 'р', c: 'с', x: 'х', y: 'у', A: 'А', E: 'Е', O: 'О', P: 'Р', C: 'С', H: 'Н', K: 'К', M: 'М', T: 'Т' };
const CYRILLIC_TO_LATIN: Record<string, string> = Object.fromEntries(Object.entries(LATIN_TO_CYRILLIC).map(([l, c]) => [c, l]));

/** Swaps `share` of the look-alike letters for the other script's (Latin ↔ Cyrillic, by the text's majority). */
export function homoglyphCopy(text: string, share: number, random: Random): string {
  const cyrillic = (text.match(/[\u0400-\u04ff]/g) ?? []).length;
  const latin = (text.match(/[A-Za-z]/g) ?? []).length;
  const table = cyrillic > latin ? CYRILLIC_TO_LATIN : LATIN_TO_CYRILLIC;
  let out = '';
  for (const ch of text) out += table[ch] !== undefined && random() < share ? table[ch] : ch;
  return out;
}

export const paragraphsOf = (text: string): string[] => text.split(/\n\s*\n|\n/).map((p) => p.trim()).filter((p) => p !== '');

/**
 * A page compiled from several texts: from each, a run of consecutive paragraphs of about an equal
 * share of `words` words, the runs interleaved paragraph by paragraph.
 */
export function compilePage(sources: readonly string[], words: number, random: Random): string {
  const per = Math.ceil(words / sources.length);
  const runs = sources.map((text) => {
    const paras = paragraphsOf(text);
    const start = Math.floor(random() * Math.max(1, paras.length - 2));
    const run: string[] = [];
    let count = 0;
    for (let i = start; i < paras.length && count < per; i++) {
      run.push(paras[i]!);
      count += paras[i]!.split(/\s+/).length;
    }
    return run;
  });
  const out: string[] = [];
  for (let i = 0; runs.some((r) => i < r.length); i++) for (const r of runs) if (i < r.length) out.push(r[i]!);
  return out.join('\n\n');
}
