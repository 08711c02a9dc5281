/**
 * The key of the URL index: a 53-bit hash of the URL, so that the index holds 8-byte integers rather
 * than whole URLs (at 10M pages that is ~180 MB of index instead of ~500 MB). A hit is confirmed by
 * comparing the URL itself, so a collision costs one extra row read, never a wrong answer.
 * The value is stored in databases: changing it needs a new `URL_KEY_VERSION` (and a migration).
 */

/** Recorded in each database's meta table. */
export const URL_KEY_VERSION = 'fnv1a32+murmur-mix/53bit/1';

/** A 53-bit hash of a string (UTF-16 code units), as a non-negative safe integer. */
export function urlKey(url: string): number {
  let h1 = 0x811c9dc5;
  let h2 = 0x9747b28c;
  for (let i = 0; i < url.length; i++) {
    const c = url.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  // Final avalanche (murmur3 fmix32) on both lanes, with the length folded into the second.
  h1 ^= h1 >>> 16;
  h1 = Math.imul(h1, 0x85ebca6b);
  h1 ^= h1 >>> 13;
  h1 = Math.imul(h1, 0xc2b2ae35);
  h1 ^= h1 >>> 16;
  h2 ^= url.length;
  h2 ^= h2 >>> 16;
  h2 = Math.imul(h2, 0x85ebca6b);
  h2 ^= h2 >>> 13;
  h2 = Math.imul(h2, 0xc2b2ae35);
  h2 ^= h2 >>> 16;
  return (h1 >>> 11) * 2 ** 32 + (h2 >>> 0);
}
