/**
 * The words of a result's annotation (title and snippet) as neardup's fingerprint sees a text:
 * NFKC, look-alike letters folded, lower case, tokens, stop words removed, stems. Each distinct
 * stem of a result list gets a small integer id, so a result is a sorted Int32Array of ids.
 */
import { normalizeText } from '../text/normalize-text.js';
import { tokenize } from '../text/tokenize.js';
import { removeStopWordsAndStem } from '../text/remove-stop-words-and-stem.js';

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

/** The word sets of a list's annotations, stemmed for `language` (ISO 639-3; 'und' = no stems). */
export function annotationWordSets(results: readonly Annotation[], language: string): AnnotationWordSets {
  const ids = new Map<string, number>();
  const stems: string[] = [];
  const sets: Int32Array[] = [];
  for (const result of results) {
    const words = removeStopWordsAndStem(tokenize(normalizeText(annotationText(result))), language);
    const set = new Int32Array(words.length);
    let n = 0;
    for (const word of words) {
      let id = ids.get(word);
      if (id === undefined) {
        id = stems.length;
        ids.set(word, id);
        stems.push(word);
      }
      set[n++] = id;
    }
    set.sort();
    // Distinct ids in place (the array is sorted).
    let m = 0;
    for (let k = 0; k < n; k++) if (m === 0 || set[m - 1] !== set[k]) set[m++] = set[k]!;
    sets.push(set.slice(0, m));
  }
  return { sets, stems };
}
