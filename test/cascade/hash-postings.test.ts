/** src/cascade/hash-postings.ts: the compact hash → ids table of the cascade's store. */
import { describe, expect, it } from 'vitest';
import { HashPostings, MAX_IDS_PER_HASH, touchedIds } from '../../src/cascade/hash-postings.js';
import { seededRandom } from '../helpers/seeded-random.js';

function idsOf(p: HashPostings, hash: number): number[] {
  const out: number[] = [];
  p.forEach(hash, (id) => out.push(id));
  return out.sort((a, b) => a - b);
}

describe('HashPostings', () => {
  it('finds every (hash, id) added, once, across growth, with hash 0 and negative int32 values', () => {
    const p = new HashPostings(4);
    const random = seededRandom(5);
    const expected = new Map<number, Set<number>>();
    for (let i = 0; i < 5000; i++) {
      const hash = i % 7 === 0 ? 0 : Math.floor(random() * 0xffffffff) >>> 0;
      const id = Math.floor(random() * 40);
      p.add(hash, id);
      p.add(hash, id);
      (expected.get(hash) ?? expected.set(hash, new Set()).get(hash)!).add(id);
    }
    for (const [hash, ids] of expected) expect(idsOf(p, hash), String(hash)).toEqual([...ids].sort((a, b) => a - b));
    expect(p.size).toBe([...expected.values()].reduce((n, s) => n + s.size, 0));
    expect(idsOf(p, 123456789)).toEqual([]);
  });

  it(`keeps at most ${MAX_IDS_PER_HASH} ids of one hash`, () => {
    const p = new HashPostings();
    for (let id = 0; id < 3 * MAX_IDS_PER_HASH; id++) p.add(0xdeadbeef, id);
    expect(idsOf(p, 0xdeadbeef)).toEqual(Array.from({ length: MAX_IDS_PER_HASH }, (_, i) => i));
  });
});

describe('HashPostings, lists of ids', () => {
  it('keeps every hash with its ids across list moves and arena compaction, interleaved', () => {
    const p = new HashPostings(16);
    const random = seededRandom(11);
    const expected = new Map<number, number[]>();
    const hashes = Array.from({ length: 300 }, () => Math.floor(random() * 0xffffffff) >>> 0);
    for (let id = 0; id < 100; id++) {
      for (const hash of hashes) {
        if (random() < 0.5) continue;
        p.add(hash, id);
        const ids = expected.get(hash) ?? expected.set(hash, []).get(hash)!;
        if (ids.length < MAX_IDS_PER_HASH) ids.push(id);
      }
    }
    for (const [hash, ids] of expected) expect(idsOf(p, hash), String(hash)).toEqual(ids);
    expect(p.size).toBe([...expected.values()].reduce((n, ids) => n + ids.length, 0));
  });

  it('counts hits per id and lists the ids touched first', () => {
    const p = new HashPostings();
    p.add(1, 3);
    p.add(2, 3);
    p.add(2, 5);
    p.add(2, 7);
    const counts = new Int32Array(10);
    const touched = touchedIds(2);
    for (const h of [1, 2, 9]) p.countHits(h, counts, touched);
    expect([...touched.ids.subarray(0, touched.count)]).toEqual([3, 5, 7]);
    expect([...counts]).toEqual([0, 0, 0, 2, 0, 1, 0, 1, 0, 0]);
  });

  it('counts the sampled hashes of an array in passes as countHits does one by one', () => {
    const random = seededRandom(11);
    const p = new HashPostings(16);
    const hashes: number[] = [];
    for (let i = 0; i < 3000; i++) {
      // A third of the hashes with many ids (lists), the rest with one; 0 and high-bit hashes too.
      const hash = i === 0 ? 0 : (random() * 2 ** 32) >>> 0;
      hashes.push(hash);
      const ids = i % 3 === 0 ? 1 + Math.floor(random() * 80) : 1;
      for (let k = 0; k < ids; k++) p.add(hash, Math.floor(random() * 500));
    }
    for (let i = 0; i < 500; i++) hashes.push((random() * 2 ** 32) >>> 0); // not held
    const query = Uint32Array.from(hashes.sort(() => random() - 0.5));
    const one = { counts: new Int32Array(500), touched: touchedIds() };
    for (const h of query) if ((h & 7) === 0) p.countHits(h, one.counts, one.touched);
    const all = { counts: new Int32Array(500), touched: touchedIds(4) };
    p.countHitsOfAll(query, 7, all.counts, all.touched, new Int32Array(2 * query.length));
    expect(one.touched.count).toBeGreaterThan(100);
    expect([...all.touched.ids.subarray(0, all.touched.count)]).toEqual([...one.touched.ids.subarray(0, one.touched.count)]);
    expect([...all.counts]).toEqual([...one.counts]);
  });
});

describe('HashPostings, ids not ascending', () => {
  it('adds no pair twice when ids come in any order (a page indexed again, catching up)', () => {
    const p = new HashPostings();
    const order = [5, 9, 3, 9, 5, 12, 3, 1, 12, 20, 1];
    for (const id of order) p.add(77, id);
    for (const id of [30, 31, 30, 2, 31]) p.add(78, id);
    expect(idsOf(p, 77)).toEqual([1, 3, 5, 9, 12, 20]);
    expect(idsOf(p, 78)).toEqual([2, 30, 31]);
    expect(p.size).toBe(9);
  });
});
