/**
 * Programs that make unnatural text from natural texts, as page generators do: a word-level
 * Markov chain (order 1, 2 or 3), sentences shuffled together from several texts, word salad
 * (words drawn by their frequency), content-word salad (the same without function words: a list
 * of keywords dressed as sentences), template fill (real sentences whose content words are
 * replaced by others drawn from the texts: the grammar of a person, the words of a program), and
 * stitched sentences (each sentence the head of one source sentence and the tail of another, from
 * several texts). The `generated` trees are trained against them (scripts/train-generated.ts) and
 * the cascade's evaluation uses them (scripts/eval-cascade.ts).
 *
 * Tokens are the texts' whitespace-separated words with their punctuation, so output keeps the
 * look of text (capitals, commas, full stops); a token ending in `.`, `!` or `?` ends a sentence.
 * Every generator takes a seeded `random` (0 ≤ x < 1) and is deterministic for it.
 */
import { splitSentences } from './sentences.js';
import { stopWordsFor } from '../text/language-resources.js';

export type Random = () => number;

export const GENERATOR_NAMES = ['markov1', 'markov2', 'markov3', 'shuffled', 'salad', 'contentSalad', 'template', 'stitched'] as const;
export type GeneratorName = (typeof GENERATOR_NAMES)[number];

const SENTENCE_FINAL = /[.!?]["'”’)]*$/;

function pick<T>(items: readonly T[], random: Random): T {
  return items[Math.floor(random() * items.length)]!;
}

function tokensOf(text: string): string[] {
  return text.split(/\s+/).filter((t) => t !== '');
}

/** Breaks generated sentences into paragraphs of about `perParagraph` sentences. */
function layout(sentences: readonly string[], perParagraph: number): string {
  const paragraphs: string[] = [];
  for (let i = 0; i < sentences.length; i += perParagraph) paragraphs.push(sentences.slice(i, i + perParagraph).join(' '));
  return paragraphs.join('\n\n');
}

/** Collects sentences until they hold `words` words. */
function untilWords(words: number, next: () => string): string[] {
  const out: string[] = [];
  let count = 0;
  while (count < words) {
    const sentence = next();
    out.push(sentence);
    count += tokensOf(sentence).length;
  }
  return out;
}

/** A word-level Markov chain of order 1, 2 or 3 over the tokens of `texts`. */
export interface MarkovChain {
  readonly order: number;
  /** Context (the last `order` tokens joined by a space) → the tokens seen after it. */
  readonly next: ReadonlyMap<string, readonly string[]>;
  /** Contexts that open a sentence. */
  readonly starts: readonly string[];
}

export function trainMarkov(texts: readonly string[], order: 1 | 2 | 3): MarkovChain {
  const next = new Map<string, string[]>();
  const starts: string[] = [];
  for (const text of texts) {
    for (const sentence of splitSentences(text)) {
      const tokens = tokensOf(sentence);
      if (tokens.length <= order) continue;
      starts.push(tokens.slice(0, order).join(' '));
      for (let i = order; i < tokens.length; i++) {
        const key = tokens.slice(i - order, i).join(' ');
        const list = next.get(key);
        if (list === undefined) next.set(key, [tokens[i]!]);
        else list.push(tokens[i]!);
      }
    }
  }
  return { order, next, starts };
}

/** One sentence walked from the chain (at most 80 tokens, closed with a full stop if cut). */
function markovSentence(chain: MarkovChain, random: Random): string {
  const tokens = pick(chain.starts, random).split(' ');
  while (tokens.length < 80 && !SENTENCE_FINAL.test(tokens[tokens.length - 1]!)) {
    const options = chain.next.get(tokens.slice(-chain.order).join(' '));
    if (options === undefined) break;
    tokens.push(pick(options, random));
  }
  if (!SENTENCE_FINAL.test(tokens[tokens.length - 1]!)) tokens[tokens.length - 1] = `${tokens[tokens.length - 1]!.replace(/[,;:]$/, '')}.`;
  return tokens.join(' ');
}

/** About `words` words of Markov text from `chain`. */
export function markovText(chain: MarkovChain, words: number, random: Random, perParagraph = 4): string {
  if (chain.starts.length === 0) throw new RangeError('Expected a Markov chain trained on at least one sentence, got none');
  return layout(untilWords(words, () => markovSentence(chain, random)), perParagraph);
}

/** About `words` words of sentences drawn from `texts` at random and laid out in a random order. */
export function shuffledSentences(texts: readonly string[], words: number, random: Random, perParagraph = 4, prepared?: Prepared): string {
  const pool = prepared?.sentences() ?? texts.flatMap((t) => splitSentences(t));
  if (pool.length === 0) throw new RangeError('Expected texts with at least one sentence, got none');
  return layout(untilWords(words, () => pick(pool, random)), perParagraph);
}

/** A length drawn from the sentence lengths (in tokens) of the texts. */
function sentenceLengths(texts: readonly string[]): number[] {
  return texts.flatMap((t) => splitSentences(t).map((s) => tokensOf(s).length));
}

/**
 * About `words` words drawn one by one by their frequency in `texts` (punctuation stripped), in
 * sentences as long as the texts' sentences, each capitalised and closed with a full stop.
 */
export function wordSalad(texts: readonly string[], words: number, random: Random, perParagraph = 4, prepared?: Prepared): string {
  const pool = prepared?.words() ?? texts.flatMap((t) => tokensOf(t).map(bare)).filter((w) => w !== '');
  const lengths = prepared?.lengths() ?? sentenceLengths(texts);
  if (pool.length === 0 || lengths.length === 0) throw new RangeError('Expected texts with at least one word, got none');
  const sentence = (): string => {
    const n = pick(lengths, random);
    const tokens = Array.from({ length: n }, () => pick(pool, random));
    tokens[0] = tokens[0]!.charAt(0).toUpperCase() + tokens[0]!.slice(1);
    return `${tokens.join(' ')}.`;
  };
  return layout(untilWords(words, sentence), perParagraph);
}

/** The sentences of one text in a random order (Fisher–Yates), paragraphs of `perParagraph`. */
export function shuffleOwnSentences(text: string, random: Random, perParagraph = 4): string {
  const sentences = splitSentences(text);
  for (let i = sentences.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [sentences[i], sentences[j]] = [sentences[j]!, sentences[i]!];
  }
  return layout(sentences, perParagraph);
}

/** A token's word, its punctuation around it stripped. */
function bare(token: string): string {
  return token.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
}

/** Whether a token's word is a content word: a letter word of 3+ letters, not a stop word of `stop`. */
function isContent(token: string, stop: ReadonlySet<string>): boolean {
  const word = bare(token);
  return word.length >= 3 && /^\p{L}+$/u.test(word) && !stop.has(word.toLowerCase());
}

/** The texts' content-word tokens (punctuation stripped), by frequency (one entry per occurrence). */
function contentPool(texts: readonly string[], stop: ReadonlySet<string>): string[] {
  return texts.flatMap((t) => tokensOf(t).filter((w) => isContent(w, stop)).map(bare));
}

/**
 * Word salad of content words only (no function words): keyword stuffing dressed as sentences, as
 * long as the texts' sentences, each capitalised and closed with a full stop.
 */
export function contentWordSalad(texts: readonly string[], words: number, random: Random, perParagraph = 4, language = 'eng', prepared?: Prepared): string {
  const pool = prepared?.content() ?? contentPool(texts, stopWordsFor(language));
  const lengths = prepared?.lengths() ?? sentenceLengths(texts);
  if (pool.length === 0 || lengths.length === 0) throw new RangeError('Expected texts with at least one content word, got none');
  const sentence = (): string => {
    const n = Math.max(3, Math.round(pick(lengths, random) * 0.6));
    const tokens = Array.from({ length: n }, () => pick(pool, random));
    tokens[0] = tokens[0]!.charAt(0).toUpperCase() + tokens[0]!.slice(1);
    return `${tokens.join(' ')}.`;
  };
  return layout(untilWords(words, sentence), perParagraph);
}

/**
 * Template fill: sentences of the texts with each content word replaced by a content word drawn
 * from the texts (its punctuation and capital kept), so that the function words and the sentence
 * shapes are a person's and the words a program's.
 */
export function templateFill(texts: readonly string[], words: number, random: Random, perParagraph = 4, language = 'eng', prepared?: Prepared): string {
  const stop = stopWordsFor(language);
  const pool = prepared?.content() ?? contentPool(texts, stop);
  const sentences = prepared?.sentences() ?? texts.flatMap((t) => splitSentences(t));
  if (pool.length === 0 || sentences.length === 0) throw new RangeError('Expected texts with at least one sentence, got none');
  const fill = (): string => tokensOf(pick(sentences, random)).map((token) => {
    if (!isContent(token, stop)) return token;
    const word = bare(token);
    let drawn = pick(pool, random);
    if (word.charAt(0) !== word.charAt(0).toLowerCase()) drawn = drawn.charAt(0).toUpperCase() + drawn.slice(1);
    else drawn = drawn.toLowerCase();
    return token.replace(word, drawn);
  }).join(' ');
  return layout(untilWords(words, fill), perParagraph);
}

/**
 * Sentences stitched from several sources: each the first part of one source sentence (cut at a
 * random word) and the last part of another, drawn from all the texts.
 */
export function stitchedSentences(texts: readonly string[], words: number, random: Random, perParagraph = 4, prepared?: Prepared): string {
  const pool = prepared?.sentenceTokens() ?? texts.flatMap((t) => splitSentences(t)).map(tokensOf).filter((s) => s.length >= 4);
  if (pool.length === 0) throw new RangeError('Expected texts with at least one sentence of 4 words, got none');
  const stitch = (): string => {
    const head = pick(pool, random);
    const tail = pick(pool, random);
    const a = head.slice(0, 1 + Math.floor(random() * (head.length - 1))).map((t, i, all) => (i === all.length - 1 ? t.replace(/[.!?]["'”’)]*$/, '') : t));
    const b = tail.slice(1 + Math.floor(random() * (tail.length - 1)));
    return [...a, ...b].join(' ');
  };
  return layout(untilWords(words, stitch), perParagraph);
}

/**
 * What the generators draw from, made once for many generated texts (each part on first use): the
 * Markov chains, the sentences, the word pools.
 */
export interface GeneratorSource extends Prepared {
  readonly texts: readonly string[];
  readonly language: string;
  chain(order: 1 | 2 | 3): MarkovChain;
}

/** The pools of a GeneratorSource (each made on first use). */
interface Prepared {
  sentences(): string[];
  sentenceTokens(): string[][];
  words(): string[];
  content(): string[];
  lengths(): number[];
}

/** A function that computes `make()` on its first call and returns that value afterwards. */
function once<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

/** A GeneratorSource of `texts` in `language` (ISO 639-3). */
export function generatorSource(texts: readonly string[], language = 'eng'): GeneratorSource {
  const chains = new Map<number, MarkovChain>();
  const sentences = once(() => texts.flatMap((t) => splitSentences(t)));
  return {
    texts,
    language,
    sentences,
    sentenceTokens: once(() => sentences().map(tokensOf).filter((x) => x.length >= 4)),
    words: once(() => texts.flatMap((t) => tokensOf(t).map(bare)).filter((w) => w !== '')),
    content: once(() => contentPool(texts, stopWordsFor(language))),
    lengths: once(() => sentences().map((x) => tokensOf(x).length)),
    chain(order) {
      let chain = chains.get(order);
      if (chain === undefined) chains.set(order, (chain = trainMarkov(texts, order)));
      return chain;
    },
  };
}

/** Text made by generator `name` from a GeneratorSource (texts other than the one it stands in for). */
export function generateFrom(name: GeneratorName, source: GeneratorSource, words: number, random: Random, perParagraph = 4): string {
  const { texts, language } = source;
  switch (name) {
    case 'markov1':
      return markovText(source.chain(1), words, random, perParagraph);
    case 'markov2':
      return markovText(source.chain(2), words, random, perParagraph);
    case 'markov3':
      return markovText(source.chain(3), words, random, perParagraph);
    case 'shuffled':
      return shuffledSentences(texts, words, random, perParagraph, source);
    case 'salad':
      return wordSalad(texts, words, random, perParagraph, source);
    case 'contentSalad':
      return contentWordSalad(texts, words, random, perParagraph, language, source);
    case 'template':
      return templateFill(texts, words, random, perParagraph, language, source);
    case 'stitched':
      return stitchedSentences(texts, words, random, perParagraph, source);
  }
}

/**
 * Text made by generator `name` from `others` (texts other than the one it stands in for), in
 * `language` (ISO 639-3: the stop words of the generators that tell content words apart).
 */
export function generateText(name: GeneratorName, others: readonly string[], words: number, random: Random, perParagraph = 4, language = 'eng'): string {
  return generateFrom(name, generatorSource(others, language), words, random, perParagraph);
}
