/**
 * The words of a result's annotation (title and snippet) as neardup's fingerprint sees a text:
 * NFKC, look-alike letters folded, lower case, tokens, stop words removed, stems. Each distinct
 * stem of a result list gets a small integer id, so a result is a sorted Int32Array of ids.
 */
import { normalizeText } from '../text/normalize-text.js';
import { tokenize } from '../text/tokenize.js';
import { stemmerFor } from '../text/remove-stop-words-and-stem.js';
import { stopWordsFor } from '../text/language-resources.js';

/** A result's annotation: its title and snippet (either may be missing). */
export interface Annotation {
  readonly title?: string | undefined;
  readonly snippet?: string | undefined;
}

export interface AnnotationWordSets {
  /** Per result, its distinct word ids, ascending. */
  readonly sets: readonly Int32Array[];
  /** The stem of each word id. */
  readonly stems: readonly string[];
}

/** Title and snippet as one text; the blank line keeps them apart as two paragraphs. */
export function annotationText(result: Annotation): string {
  return `${result.title ?? ''}\n\n${result.snippet ?? ''}`;
}

/**
 * The word sets of a list's annotations, stemmed for `language` (ISO 639-3; 'und' = no stems).
 * The same words as removeStopWordsAndStem gives each annotation (an annotation of stop words
 * only keeps them, stemmed), but each distinct token of the list is looked up and stemmed once:
 * the results of one list share most of their words.
 */
export function annotationWordSets(results: readonly Annotation[], language: string): AnnotationWordSets {
  const stem = stemmerFor(language, {});
  const stopWords = stopWordsFor(language);
  const stemIds = new Map<string, number>();
  const stems: string[] = [];
  /** token → word id, or -1 for a stop word */
  const tokenIds = new Map<string, number>();
  const idOfStem = (word: string): number => {
    let id = stemIds.get(word);
    if (id === undefined) {
      id = stems.length;
      stemIds.set(word, id);
      stems.push(word);
    }
    return id;
  };
  const sets: Int32Array[] = [];
  for (const result of results) {
    const tokens = tokenize(normalizeText(annotationText(result)));
    let set = new Int32Array(tokens.length);
    let n = 0;
    for (const token of tokens) {
      let id = tokenIds.get(token);
      if (id === undefined) {
        id = stopWords.has(token) ? -1 : idOfStem(stem(token));
        tokenIds.set(token, id);
      }
      if (id >= 0) set[n++] = id;
    }
    if (n === 0) for (const token of tokens) set[n++] = idOfStem(stem(token));
    set = set.subarray(0, n).sort();
    sets.push(distinctSorted(set));
  }
  return { sets, stems };
}

/** The distinct values of a sorted array, as a new array of their own. */
function distinctSorted(sorted: Int32Array): Int32Array {
  let m = 0;
  for (let k = 0; k < sorted.length; k++) if (m === 0 || sorted[m - 1] !== sorted[k]) sorted[m++] = sorted[k]!;
  return sorted.slice(0, m);
}
