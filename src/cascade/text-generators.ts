/**
 * Programs that make unnatural text from natural texts, as page generators do: a word-level
 * Markov chain (order 1 or 2), sentences shuffled together from several texts, and word salad
 * (words drawn by their frequency). The `generated` tree is trained against them
 * (scripts/train-generated.ts) and the cascade's evaluation uses them (scripts/eval-cascade.ts).
 *
 * Tokens are the texts' whitespace-separated words with their punctuation, so output keeps the
 * look of text (capitals, commas, full stops); a token ending in `.`, `!` or `?` ends a sentence.
 * Every generator takes a seeded `random` (0 ≤ x < 1) and is deterministic for it.
 */
import { splitSentences } from './sentences.js';

export type Random = () => number;

export const GENERATOR_NAMES = ['markov1', 'markov2', 'shuffled', 'salad'] as const;
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

/** A word-level Markov chain of order 1 or 2 over the tokens of `texts`. */
export interface MarkovChain {
  readonly order: number;
  /** Context (the last `order` tokens joined by a space) → the tokens seen after it. */
  readonly next: ReadonlyMap<string, readonly string[]>;
  /** Contexts that open a sentence. */
  readonly starts: readonly string[];
}

export function trainMarkov(texts: readonly string[], order: 1 | 2): MarkovChain {
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
export function shuffledSentences(texts: readonly string[], words: number, random: Random, perParagraph = 4): string {
  const pool = texts.flatMap((t) => splitSentences(t));
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
export function wordSalad(texts: readonly string[], words: number, random: Random, perParagraph = 4): string {
  const pool = texts.flatMap((t) => tokensOf(t).map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))).filter((w) => w !== '');
  const lengths = sentenceLengths(texts);
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

/** Text made by generator `name` from `others` (texts other than the one it stands in for). */
export function generateText(name: GeneratorName, others: readonly string[], words: number, random: Random, perParagraph = 4): string {
  switch (name) {
    case 'markov1':
      return markovText(trainMarkov(others, 1), words, random, perParagraph);
    case 'markov2':
      return markovText(trainMarkov(others, 2), words, random, perParagraph);
    case 'shuffled':
      return shuffledSentences(others, words, random, perParagraph);
    case 'salad':
      return wordSalad(others, words, random, perParagraph);
  }
}
