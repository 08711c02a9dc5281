/**
 * What a caller keeps across documents (one per thread): the analysis's per-token memos
 * (token-memo.ts: word hash, stop flag, stem and stem hash of every token met, per language, which
 * spare a document's known tokens all their per-token work), and the stems of the languages stemmed
 * by snowball-stemmers for the other stemming paths (0.4–2 µs per word on fast-snowball.ts's
 * runtime, 4–20 µs on the package's own). Words repeat from page to page, so both hit.
 * Bounded: when `maxEntries` entries are held in all, everything starts over empty. Without one,
 * each call memoises its own document.
 */
import { ownCopy } from './own-copy.js';
import { TokenMemo } from './token-memo.js';

export interface StemCacheOptions {
  /** Words remembered (all languages together) before the cache starts over. @default 200000 */
  readonly maxEntries?: number;
}

export class StemCache {
  readonly maxEntries: number;
  #byLanguage = new Map<string, Map<string, string>>();
  #memos = new Map<string, TokenMemo>();
  #size = 0;
  readonly #reserve = (): void => {
    if (this.#size >= this.maxEntries) this.#clear();
    this.#size++;
  };

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

  /**
   * The analysis's per-token memo for one language (token-memo.ts): its entries count against
   * `maxEntries` with the stems.
   */
  tokenMemo(language: string): TokenMemo {
    let memo = this.#memos.get(language);
    if (memo === undefined) {
      memo = new TokenMemo(this.#reserve);
      this.#memos.set(language, memo);
    }
    return memo;
  }

  /** Records a stem, starting over when the cache is full. */
  remember(memo: Map<string, string>, word: string, stem: string): void {
    this.#reserve();
    memo.set(ownCopy(word), ownCopy(stem));
  }

  #clear(): void {
    for (const m of this.#byLanguage.values()) m.clear();
    for (const m of this.#memos.values()) m.clear();
    this.#size = 0;
  }

  get size(): number {
    return this.#size;
  }
}
