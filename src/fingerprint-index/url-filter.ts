/**
 * A Bloom filter over the URL keys of every document, so that judging a new URL (the common case)
 * does not have to read a url_index page from disk to learn that it is not there (at 10M documents
 * that read is a random page, a system call and a B-tree descent per document).
 *
 * "No" is certain; "maybe" (about 2% of new URLs at 9 bits per key and 4 probes, more once the
 * filter holds more keys than it was sized for) costs the lookup it saves otherwise. The owner
 * rebuilds it, larger, once it holds more keys than planned (`full`).
 */

/** Bits per planned key: 9 bits and 4 probes give about 1.8% false "maybe"s. */
const BITS_PER_KEY = 9;
const PROBES = 4;

export class UrlFilter {
  readonly #bits: Uint32Array;
  readonly #size: number;
  readonly #plannedKeys: number;
  #keys = 0;

  /** A filter for about `plannedKeys` keys (at least 65,536). */
  constructor(plannedKeys: number) {
    this.#plannedKeys = Math.max(65_536, Math.ceil(plannedKeys));
    this.#size = Math.ceil((this.#plannedKeys * BITS_PER_KEY) / 32) * 32;
    this.#bits = new Uint32Array(this.#size / 32);
  }

  get byteLength(): number {
    return this.#bits.byteLength;
  }

  /** More keys than planned: false "maybe"s grow from here; time to rebuild a larger filter. */
  get full(): boolean {
    return this.#keys > this.#plannedKeys;
  }

  /** Adds a key: the low 32 bits of a URL key (url-key.ts), already a hash. */
  add(key: number): void {
    const bits = this.#bits;
    const size = this.#size;
    let h1 = key >>> 0;
    const h2 = Math.imul(h1 ^ (h1 >>> 16), 0x85ebca6b) | 1;
    for (let i = 0; i < PROBES; i++) {
      h1 = Math.imul(h1 ^ (h1 >>> 15), 0x2c1b3c6d) + h2;
      const bit = Math.floor(((h1 >>> 0) / 2 ** 32) * size);
      bits[bit >>> 5]! |= 1 << (bit & 31);
    }
    this.#keys++;
  }

  /** False when the key was certainly never added. */
  mayHave(key: number): boolean {
    const bits = this.#bits;
    const size = this.#size;
    let h1 = key >>> 0;
    const h2 = Math.imul(h1 ^ (h1 >>> 16), 0x85ebca6b) | 1;
    for (let i = 0; i < PROBES; i++) {
      h1 = Math.imul(h1 ^ (h1 >>> 15), 0x2c1b3c6d) + h2;
      const bit = Math.floor(((h1 >>> 0) / 2 ** 32) * size);
      if ((bits[bit >>> 5]! & (1 << (bit & 31))) === 0) return false;
    }
    return true;
  }
}
