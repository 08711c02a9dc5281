/**
 * Part-of-speech tags of a text, for the `synonymised` stage's grammatical fingerprint: a synonym
 * put in for a word keeps its part of speech, so a spun copy keeps its tag sequence while its words
 * change. English only, with wink-nlp and its English lite model (Universal POS tags); other
 * languages give null (no openly licensed Russian morphological analyser was adopted, see
 * NOTES-cascade.md).
 */
import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

/** Languages (ISO 639-3) with a tagger. */
export const TAGGED_LANGUAGES: readonly string[] = Object.freeze(['eng']);

/** The tagger, made once at load (its model is read-only after loading). */
const NLP = winkNLP(model, ['pos']);

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
  const doc = NLP.readDoc(text);
  const values = doc.tokens().out(NLP.its.value) as string[];
  const pos = doc.tokens().out(NLP.its.pos) as string[];
  const words: string[] = [];
  const tags: string[] = [];
  for (let i = 0; i < values.length; i++) {
    if (SKIPPED_TAGS.has(pos[i]!)) continue;
    words.push(values[i]!.toLowerCase());
    tags.push(pos[i]!);
  }
  return { words, tags };
}
