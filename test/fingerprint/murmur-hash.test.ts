import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { murmur64, murmurWordInto } from '../../src/fingerprint/murmur-hash.js';

/** Textbook MurmurHash3_x86_32 over bytes. */
function murmur3(bytes: Uint8Array, seed: number): number {
  const c1 = 0xcc9e2d51;
  const c2 = 0x1b873593;
  let h = seed | 0;
  const blocks = bytes.length >> 2;
  for (let i = 0; i < blocks; i++) {
    let k = bytes[4 * i]! | (bytes[4 * i + 1]! << 8) | (bytes[4 * i + 2]! << 16) | (bytes[4 * i + 3]! << 24);
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  let k = 0;
  const tail = blocks * 4;
  switch (bytes.length & 3) {
    case 3: k ^= bytes[tail + 2]! << 16; // falls through
    case 2: k ^= bytes[tail + 1]! << 8; // falls through
    case 1:
      k ^= bytes[tail]!;
      k = Math.imul(k, c1);
      k = (k << 15) | (k >>> 17);
      k = Math.imul(k, c2);
      h ^= k;
  }
  h ^= bytes.length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

describe('murmur word hash', () => {
  it('reference implementation matches the published test vector', () => {
    expect(murmur3(new TextEncoder().encode('The quick brown fox jumps over the lazy dog'), 0)).toBe(0x2e4ff723);
    expect(murmur3(new Uint8Array(0), 0)).toBe(0);
  });

  it('is MurmurHash3_x86_32 of the UTF-16LE bytes under the two seeds', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (word) => {
      const a = new Uint32Array(1);
      const b = new Uint32Array(1);
      murmurWordInto(word, 0, word.length, a, b, 0);
      const bytes = new Uint8Array(Buffer.from(word, 'utf16le'));
      expect(a[0]).toBe(murmur3(bytes, 0x9747b28c));
      expect(b[0]).toBe(murmur3(bytes, 0x5bd1e995));
    }), { numRuns: 300 });
  });
});

describe('murmur64', () => {
  it('depends on every word and on their order', () => {
    const base = murmur64('detec docu near');
    for (const other of ['detec docu nea', 'docu detec near', 'detec docu near x', 'detec  docu near']) {
      expect(murmur64(other)).not.toEqual(base);
    }
    expect(murmur64('detec docu near')).toEqual(base);
  });

  it('has balanced, independent-looking bits over many features', () => {
    const ones = new Array<number>(64).fill(0);
    const n = 4000;
    for (let i = 0; i < n; i++) {
      const { hi, lo } = murmur64(`word${i} other${i % 7} third`);
      for (let b = 0; b < 32; b++) {
        ones[b]! += (lo >>> b) & 1;
        ones[32 + b]! += (hi >>> b) & 1;
      }
    }
    // Each bit is set with probability 1/2: 5 standard deviations is about ±160 of 4000.
    for (const count of ones) expect(Math.abs(count - n / 2)).toBeLessThan(160);
  });
});
