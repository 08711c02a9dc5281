import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdList } from '../../src/fingerprint-index/id-list.js';
import { SketchKeyTable } from '../../src/fingerprint-index/sketch-key-table.js';
import { popcount32 } from '../../src/fingerprint/fingerprint-codec.js';

const sketch = (...values: number[]) => Uint32Array.from(values.sort((a, b) => a - b));
function lookup(table: SketchKeyTable, s: Uint32Array): number[] {
  const out = new IdList();
  table.candidates(s, out);
  return [...out.ids.subarray(0, out.count)].sort((a, b) => a - b);
}

describe('SketchKeyTable', () => {
  it('lists the documents sharing one of the query\'s first `keys` values, and only those (minShared 1)', () => {
    const table = new SketchKeyTable({ keys: 2, minShared: 1 });
    table.add(1, sketch(10, 20, 30));
    table.add(2, sketch(20, 40, 50));
    table.add(3, sketch(5, 30, 60)); // filed under 5 and 30
    expect(lookup(table, sketch(20, 99))).toEqual([1, 2]);
    expect(lookup(table, sketch(30, 1000))).toEqual([3]); // 30 is not among document 1's first two
    expect(lookup(table, sketch(60, 70))).toEqual([]); // 60 is document 3's third value
    expect(lookup(table, sketch())).toEqual([]);
    expect(table.size).toBe(3);
  });

  it('finds every document of a crowded key, the first filed too (issue 25: the 32 newest were read)', () => {
    for (const minShared of [1, 2]) {
      const table = new SketchKeyTable({ keys: 2, minShared });
      for (let id = 1; id <= 500; id++) table.add(id, sketch(7, 8, 100 + id));
      expect(lookup(table, sketch(7, 8))).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
    }
  });

  it('agrees with a brute-force scan over many documents (growing and rehashing)', () => {
    fc.assert(fc.property(
      fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 3000 }), { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 600 }),
      fc.uniqueArray(fc.integer({ min: 0, max: 3000 }), { minLength: 1, maxLength: 12 }),
      (docs, query) => {
        const table = new SketchKeyTable({ keys: 4, minShared: 1 });
        const sketches = docs.map((d) => sketch(...d));
        sketches.forEach((s, i) => table.add(i + 1, s));
        const q = sketch(...query);
        const keysOf = (s: Uint32Array) => new Set(s.subarray(0, 4));
        const qKeys = keysOf(q);
        const expected = sketches.flatMap((s, i) => ([...keysOf(s)].some((k) => qKeys.has(k)) ? [i + 1] : []));
        expect(lookup(table, q)).toEqual(expected);
      },
    ), { numRuns: 60 });
  });

  it.each([[{ keys: 0 }, /`keys`/], [{ minShared: 1.5 }, /`minShared`/], [{ minShared: 0 }, /`minShared`/]])('refuses %j', (options, message) => {
    expect(() => new SketchKeyTable(options)).toThrow(message);
  });
});

describe('SketchKeyTable with minShared', () => {
  it('lists only documents sharing that many keys (fewer when the query is shorter)', () => {
    const table = new SketchKeyTable({ keys: 4 });
    table.add(1, sketch(1, 2, 3, 4));
    table.add(2, sketch(1, 50, 60, 70));
    table.add(3, sketch(2, 3, 80, 90));
    const out = new IdList();
    table.candidates(sketch(1, 2, 3, 99), out, 2);
    expect([...out.ids.subarray(0, out.count)].sort()).toEqual([1, 3]);
    out.clear();
    // Filed by pairs: a one-value query meets the one-value documents with its value only (a
    // document of more values has a Jaccard of at most 1/2 with it anyway).
    table.add(4, sketch(1));
    table.candidates(sketch(1), out, 2);
    expect([...out.ids.subarray(0, out.count)].sort()).toEqual([4]);
  });
});

describe('SketchKeyTable with fingerprints', () => {
  it('drops the documents whose fingerprint lies beyond maxDistance of the query', () => {
    const table = new SketchKeyTable({ keys: 4 });
    table.add(1, sketch(1, 2, 3, 4), 0, 0);
    table.add(2, sketch(1, 2, 3, 4), 0x0000000f, 0); // 4 bits from 0/0
    table.add(3, sketch(1, 2, 3, 4), 0xffffffff, 0x1); // 33 bits
    const out = new IdList();
    table.candidates(sketch(1, 2, 3, 4), out, 2, 0, 0, 4);
    expect([...out.ids.subarray(0, out.count)].sort()).toEqual([1, 2]);
    out.clear();
    table.candidates(sketch(1, 2, 3, 4), out, 2, 0, 0, 3);
    expect([...out.ids.subarray(0, out.count)]).toEqual([1]);
    out.clear();
    table.candidates(sketch(1, 2, 3, 4), out, 2); // no distance given: any
    expect([...out.ids.subarray(0, out.count)].sort()).toEqual([1, 2, 3]);
  });

  it('agrees with a brute-force scan for any minShared and distance, reserved or grown', () => {
    const doc = fc.record({
      keys: fc.uniqueArray(fc.integer({ min: 0, max: 200 }), { minLength: 1, maxLength: 6 }),
      hi: fc.integer({ min: 0, max: 0xffffffff }),
      lo: fc.integer({ min: 0, max: 0xffffffff }),
    });
    fc.assert(fc.property(
      fc.array(doc, { minLength: 1, maxLength: 400 }), doc, fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 64 }), fc.boolean(),
      (docs, query, minShared, maxDistance, reserve) => {
        const table = new SketchKeyTable({ keys: 4, minShared });
        if (reserve) table.reserve(docs.length);
        docs.forEach((d, i) => table.add(i + 1, sketch(...d.keys), d.hi >>> 0, d.lo >>> 0));
        const q = sketch(...query.keys);
        const qKeys = new Set(q.subarray(0, 4));
        const need = Math.min(minShared, qKeys.size);
        const expected = docs.flatMap((d, i) => {
          const s = sketch(...d.keys);
          const shared = [...s.subarray(0, 4)].filter((k) => qKeys.has(k)).length;
          const distance = popcount32((d.hi ^ query.hi) >>> 0) + popcount32((d.lo ^ query.lo) >>> 0);
          // By pairs (minShared ≥ 2), a one-value query meets only one-value documents.
          const met = minShared >= 2 && need === 1 ? s.length === 1 && shared === 1 : shared >= need && shared >= 1;
          return met && distance <= maxDistance ? [i + 1] : [];
        });
        const out = new IdList();
        table.candidates(q, out, minShared, query.hi >>> 0, query.lo >>> 0, maxDistance);
        expect([...out.ids.subarray(0, out.count)].sort((a, b) => a - b)).toEqual(expected);
      },
    ), { numRuns: 100 });
  });
});
