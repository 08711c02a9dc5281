import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fingerprintParagraphs, fingerprintWords, hashFeatures } from '../../src/fingerprint/fingerprint-words.js';
import { hash64 } from '../../src/fingerprint/hash64.js';
import { simhashFeatures, simhashFromHashes } from '../../src/fingerprint/simhash.js';
import { paragraphShingles, shingles } from '../../src/text/shingles.js';
import type { FeatureWeighting, Fingerprint } from '../../src/types.js';

/** Charikar's simhash with 64 plain counters. */
function naiveSimhash(hashes: readonly Fingerprint[], weighting: FeatureWeighting): Fingerprint | null {
  if (hashes.length === 0) return null;
  const counts = new Map<string, { fp: Fingerprint; n: number }>();
  for (const fp of hashes) {
    const key = `${fp.hi}:${fp.lo}`;
    const entry = counts.get(key);
    if (entry === undefined) counts.set(key, { fp, n: 1 });
    else entry.n++;
  }
  const v = new Array<number>(64).fill(0);
  for (const { fp, n } of counts.values()) {
    const w = weighting === 'count' ? n : 1;
    for (let i = 0; i < 32; i++) {
      v[i]! += ((fp.lo >>> i) & 1) === 1 ? w : -w;
      v[32 + i]! += ((fp.hi >>> i) & 1) === 1 ? w : -w;
    }
  }
  let hi = 0;
  let lo = 0;
  for (let i = 0; i < 32; i++) {
    if (v[i]! > 0) lo |= 1 << i;
    if (v[32 + i]! > 0) hi |= 1 << i;
  }
  return { hi: hi >>> 0, lo: lo >>> 0 };
}

const uint32 = fc.integer({ min: 0, max: 0xffffffff });
const fingerprint = fc.record({ hi: uint32, lo: uint32 });

describe('simhashFromHashes', () => {
  it('equals the 64-counter simhash, for both weightings', () => {
    fc.assert(fc.property(
      fc.array(fingerprint, { maxLength: 200 }),
      fc.array(fc.nat(5), { maxLength: 200 }),
      fc.constantFrom<FeatureWeighting>('unit', 'count'),
      (base, repeats, weighting) => {
        // Repeats make the weightings differ.
        const hashes = base.flatMap((fp, i) => new Array<Fingerprint>(1 + (repeats[i] ?? 0)).fill(fp));
        const hi = Uint32Array.from(hashes, (h) => h.hi);
        const lo = Uint32Array.from(hashes, (h) => h.lo);
        expect(simhashFromHashes(hi, lo, hashes.length, weighting)).toEqual(naiveSimhash(hashes, weighting));
      },
    ), { numRuns: 300 });
  });

  it('is null without features', () => {
    expect(simhashFromHashes(new Uint32Array(0), new Uint32Array(0))).toBeNull();
  });

  it('of one feature is that feature’s hash', () => {
    expect(simhashFromHashes(Uint32Array.of(0xdeadbeef), Uint32Array.of(0x12345678))).toEqual({ hi: 0xdeadbeef, lo: 0x12345678 });
  });

  it('weighs repeated features only with count weighting', () => {
    const hi = Uint32Array.of(0xffffffff, 0xffffffff, 0xffffffff, 0, 0);
    const lo = Uint32Array.of(0xffffffff, 0xffffffff, 0xffffffff, 0, 1);
    // unit: three distinct features, only bit 0 of the low half is in two of them.
    expect(simhashFromHashes(hi, lo, 5, 'unit')).toEqual({ hi: 0, lo: 1 });
    expect(simhashFromHashes(hi, lo, 5, 'count')).toEqual({ hi: 0xffffffff, lo: 0xffffffff });
  });
});

describe('fingerprintWords', () => {
  const word = fc.stringMatching(/^[a-zа-я0-9中]{1,8}$/);
  it('equals simhashFeatures(shingles(words)) for both hashes and any shingle size', () => {
    fc.assert(fc.property(
      fc.array(word, { maxLength: 60 }),
      fc.integer({ min: 1, max: 5 }),
      fc.constantFrom('rabin' as const, 'murmur' as const),
      fc.constantFrom<FeatureWeighting>('unit', 'count'),
      (words, shingleSize, hash, weighting) => {
        const fast = fingerprintWords(words, { shingleSize, hash, weighting });
        expect(fast.fingerprint).toEqual(simhashFeatures(shingles(words, shingleSize), hash, weighting));
        expect(fast.featureCount).toBe(shingles(words, shingleSize).length);
      },
    ), { numRuns: 300 });
  });

  it('equals simhashFeatures(paragraphShingles(paragraphs)) for text in paragraphs', () => {
    fc.assert(fc.property(
      fc.array(fc.array(word, { maxLength: 12 }), { maxLength: 8 }),
      fc.integer({ min: 1, max: 4 }),
      fc.constantFrom('rabin' as const, 'murmur' as const),
      (paragraphs, shingleSize, hash) => {
        const fast = fingerprintParagraphs(paragraphs, { shingleSize, hash, weighting: 'unit' });
        expect(fast.fingerprint).toEqual(simhashFeatures(paragraphShingles(paragraphs, shingleSize), hash, 'unit'));
      },
    ), { numRuns: 200 });
  });

  it('hashes each feature as hash64 does', () => {
    const words = ['detec', 'docu', 'near', 'duplicat'];
    for (const hash of ['rabin', 'murmur'] as const) {
      const { hi, lo } = hashFeatures([words], 3, hash);
      expect([{ hi: hi[0], lo: lo[0] }, { hi: hi[1], lo: lo[1] }]).toEqual([hash64('detec docu near', hash), hash64('docu near duplicat', hash)]);
    }
  });

  it('rejects an unknown hash', () => {
    expect(() => hash64('a', 'xxh64' as 'rabin')).toThrow(/Expected `hash` to be one of rabin\|murmur/);
  });
});
