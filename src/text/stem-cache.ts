/**
 * A stem cache a caller may keep across documents (one per thread), since the Snowball stemmers of
 * snowball-stemmers still cost 0.4–2 µs per word on fast-snowball.ts's runtime (4–20 µs on the
 * package's own) and the words of one site or language repeat from page to page. Used for the languages stemmed by snowball-stemmers; English, Russian and German
 * have string stemmers cheaper than a lookup in a large map, and are memoised per document only.
 * Bounded: when full, it starts over empty. Without one, each call memoises its own document.
 */
export interface StemCacheOptions {
  /** Words remembered (all languages together) before the cache starts over. @default 200000 */
  readonly maxEntries?: number;
}

export class StemCache {
  readonly maxEntries: number;
  #byLanguage = new Map<string, Map<string, string>>();
  #size = 0;

  constructor(options: StemCacheOptions = {}) {
    const max = options.maxEntries ?? 200_000;
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`Expected \`maxEntries\` to be a positive integer, got ${String(max)}`);
    this.maxEntries = max;
  }

  /** The memo for one language (ISO 639-3); entries added through `remember`. */
  memoFor(language: string): Map<string, string> {
    let memo = this.#byLanguage.get(language);
    if (memo === undefined) {
      memo = new Map();
      this.#byLanguage.set(language, memo);
    }
    return memo;
  }

  /** Records a stem, starting over when the cache is full. */
  remember(memo: Map<string, string>, word: string, stem: string): void {
    if (this.#size >= this.maxEntries) {
      for (const m of this.#byLanguage.values()) m.clear();
      this.#size = 0;
    }
    memo.set(ownCopy(word), ownCopy(stem));
    this.#size++;
  }

  get size(): number {
    return this.#size;
  }
}

/**
 * A copy of `s` that does not share its parent's memory. Tokens are slices of their document, and V8
 * makes a slice of 13 code units or more a view of the parent string: cached as is, one word would
 * keep its whole document alive until the cache starts over. (Shorter slices are copied by V8.)
 */
function ownCopy(s: string): string {
  return s.length < 13 ? s : Buffer.from(s, 'utf16le').toString('utf16le');
}
