/**
 * Features of a text: its shingles (runs of `size` consecutive words, joined by one space), in
 * order, repeats included. Shingles do not cross paragraphs, so reordering paragraphs leaves the
 * features unchanged; a paragraph shorter than `size` is one feature of all its words. A text
 * with fewer than `size` words in all gives its words, one feature each; an empty text none.
 *
 * The fingerprint's hot path never builds these strings (see fingerprint-words.ts); it hashes the
 * same features from per-word values. These functions are the reference for what a feature is.
 */

/** Position of a feature in the flattened word list: words start..start+count-1. */
export interface FeatureSpan {
  readonly start: number;
  readonly count: number;
}

function assertSize(size: number): void {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`Expected \`shingleSize\` to be a positive integer, got ${String(size)}`);
}

/**
 * Calls `each(start, count)` for every feature of the paragraphs, with positions in the
 * concatenation of all paragraphs; returns the number of features.
 */
export function forEachFeature(paragraphLengths: readonly number[], size: number, each: (start: number, count: number) => void): number {
  assertSize(size);
  let total = 0;
  for (const length of paragraphLengths) total += length;
  if (total < size) {
    for (let i = 0; i < total; i++) each(i, 1);
    return total;
  }
  let features = 0;
  let offset = 0;
  for (const length of paragraphLengths) {
    if (length >= size) {
      for (let k = 0; k + size <= length; k++) each(offset + k, size);
      features += length - size + 1;
    } else if (length > 0) {
      each(offset, length);
      features++;
    }
    offset += length;
  }
  return features;
}

/** Features of a text given as paragraphs of words. */
export function paragraphShingles(paragraphs: readonly (readonly string[])[], size: number): string[] {
  const words = paragraphs.flat();
  const out: string[] = [];
  forEachFeature(paragraphs.map((p) => p.length), size, (start, count) => out.push(words.slice(start, start + count).join(' ')));
  return out;
}

/** Features of one paragraph of words. */
export function shingles(words: readonly string[], size: number): string[] {
  return paragraphShingles([words], size);
}
