/**
 * Features of a word sequence: its shingles (runs of `size` consecutive words, joined by one
 * space), in order, repeats included. A sequence shorter than `size` gives its words; an empty one
 * gives no feature.
 *
 * The fingerprint's hot path never builds these strings (see fingerprint-words.ts); it hashes the
 * same features from per-word values. This function is the reference for what a feature is.
 */
export function shingles(words: readonly string[], size: number): string[] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`Expected \`shingleSize\` to be a positive integer, got ${String(size)}`);
  if (words.length < size) return [...words];
  const out: string[] = [];
  for (let i = 0; i + size <= words.length; i++) out.push(words.slice(i, i + size).join(' '));
  return out;
}
