/**
 * Part-of-speech tags of a text, for the `synonymised` stage's grammatical fingerprint: a synonym
 * put in for a word keeps its part of speech, so a spun copy keeps its tag sequence while its words
 * change. English only, with wink-nlp and its English lite model (Universal POS tags); other
 * languages give null (no openly licensed Russian morphological analyser was adopted, see
 * NOTES-cascade.md).
 */
import { createRequire } from 'node:module';
import type winkNLPType from 'wink-nlp';
import type { WinkMethods } from 'wink-nlp';
import type modelType from 'wink-eng-lite-web-model';

/** Languages (ISO 639-3) with a tagger. */
export const TAGGED_LANGUAGES: readonly string[] = Object.freeze(['eng']);

const require = createRequire(import.meta.url);

/**
 * The tagger: a constant built on first use rather than at import (reading the model costs ~0.18 s
 * of CPU, and every thread that analyses pages imports this module while the default `shape`
 * grammar never tags). Assigned once, read-only after: it depends on no input, so it is a deferred
 * constant, not a cache. wink-nlp and its model are CommonJS, so they load synchronously here.
 */
let nlp: WinkMethods | undefined;

function tagger(): WinkMethods {
  if (nlp === undefined) {
    const winkNLP = require('wink-nlp') as typeof winkNLPType;
    const model = require('wink-eng-lite-web-model') as typeof modelType;
    nlp = winkNLP(model, ['pos']);
  }
  return nlp;
}

export interface TaggedWords {
  /** Lower-cased words (punctuation, symbols and spaces left out). */
  readonly words: readonly string[];
  /** The Universal POS tag of each word. */
  readonly tags: readonly string[];
}

const SKIPPED_TAGS = new Set(['PUNCT', 'SYM', 'SPACE', 'X']);

/** Tagged words of a text in `language`, or null when the language has no tagger. */
export function posTags(text: string, language: string): TaggedWords | null {
  if (!TAGGED_LANGUAGES.includes(language)) return null;
  const tag = tagger();
  const doc = tag.readDoc(text);
  const values = doc.tokens().out(tag.its.value) as string[];
  const pos = doc.tokens().out(tag.its.pos) as string[];
  const words: string[] = [];
  const tags: string[] = [];
  for (let i = 0; i < values.length; i++) {
    if (SKIPPED_TAGS.has(pos[i]!)) continue;
    words.push(values[i]!.toLowerCase());
    tags.push(pos[i]!);
  }
  return { words, tags };
}
