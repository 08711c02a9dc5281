import { describe, expect, it } from 'vitest';
import { hammingDistance } from '../../src/fingerprint/fingerprint-codec.js';
import { blockLayout } from '../../src/fingerprint-index/block-layout.js';
import { BlockTable } from '../../src/fingerprint-index/block-table.js';
import { buildCandidateTable } from '../../src/fingerprint-index/build-candidate-table.js';
import type { CandidateTable } from '../../src/fingerprint-index/candidate-table.js';
import { IdList } from '../../src/fingerprint-index/id-list.js';
import { LinearTable } from '../../src/fingerprint-index/linear-table.js';
import { PairedBlockTable, suitsPairedTable } from '../../src/fingerprint-index/paired-block-table.js';
import { bucketCountsLength, countRows } from '../../src/fingerprint-index/bucket-counts.js';
import { growPlane } from '../../src/fingerprint-index/growable-plane.js';
import { BucketCountsMismatchError } from '../../src/errors.js';
import type { Fingerprint } from '../../src/types.js';
import { flipBits, prng, randomFingerprint, randomPositions } from './index-test-helpers.js';

/** A stored-row feed that gives one more row on its second pass (a table built from it must refuse it). */
function feedChangingOnSecondPass(): (visit: (id: number, hi: number, lo: number) => void) => void {
  let pass = 0;
  return (visit) => {
    pass++;
    visit(1, 1, 1);
    if (pass === 2) visit(2, 1, 1);
  };
}

interface Entry {
  id: number;
  fp: Fingerprint;
}

/** Random fingerprints, a third of them near copies (1..k + 1 flips) of earlier ones. */
function makeEntries(count: number, k: number, seed: number, firstId = 1): Entry[] {
  const next = prng(seed);
  const out: Entry[] = [];
  for (let i = 0; i < count; i++) {
    const fp = i > 0 && next() % 3 === 0
      ? flipBits(out[next() % out.length]!.fp, randomPositions(next, 1 + (next() % (k + 1))))
      : randomFingerprint(next);
    out.push({ id: firstId + i * 3, fp });
  }
  return out;
}

/** Every stored id within k of each query must be among the candidates. */
function expectNoMisses(table: CandidateTable, entries: readonly Entry[], queries: readonly Fingerprint[], k: number): number {
  const list = new IdList();
  let matches = 0;
  for (const q of queries) {
    list.clear();
    table.candidates(q.hi, q.lo, list);
    const got = new Set(Array.from(list.ids.subarray(0, list.count)));
    for (const e of entries) {
      if (hammingDistance(e.fp, q) <= k) {
        matches++;
        expect(got.has(e.id), `id ${e.id} at distance ${hammingDistance(e.fp, q)} missing`).toBe(true);
      }
    }
  }
  return matches;
}

function queriesNear(entries: readonly Entry[], k: number, seed: number, count: number): Fingerprint[] {
  const next = prng(seed);
  const out: Fingerprint[] = [];
  for (let i = 0; i < count; i++) {
    if (i % 4 === 3) out.push(randomFingerprint(next));
    else out.push(flipBits(entries[next() % entries.length]!.fp, randomPositions(next, next() % (k + 2))));
  }
  return out;
}

function feedOf(entries: readonly Entry[]) {
  return (visit: (id: number, hi: number, lo: number) => void) => {
    for (const e of entries) visit(e.id, e.fp.hi, e.fp.lo);
  };
}

describe('BlockTable', () => {
  it.each([1, 2, 3, 5, 7])('never misses a stored fingerprint within k = %i (built, then added through merges)', (k) => {
    const layout = blockLayout(k);
    const entries = makeEntries(12_000, k, 100 + k);
    const built = entries.slice(0, 3000);
    const table = BlockTable.build(layout, feedOf(built), 3 * 3000 + 1);
    // 9,000 additions overflow the 4,096-entry delta area twice, so merges are exercised.
    for (const e of entries.slice(3000)) table.add(e.id, e.fp.hi, e.fp.lo);
    expect(table.size).toBe(entries.length);
    const matches = expectNoMisses(table, entries, queriesNear(entries, k, 7, 400), k);
    expect(matches).toBeGreaterThan(200);
  });

  it('keeps ids of 2^24 and above (third id plane)', () => {
    const layout = blockLayout(3);
    const entries = makeEntries(5000, 3, 9, 2 ** 24 - 6000);
    const table = BlockTable.build(layout, feedOf(entries.slice(0, 1000)), 2 ** 24);
    for (const e of entries.slice(1000)) table.add(e.id, e.fp.hi, e.fp.lo);
    expect(entries.at(-1)!.id).toBeGreaterThan(2 ** 24);
    expectNoMisses(table, entries, queriesNear(entries, 3, 11, 300), 3);
  });

  it('finds nothing in an empty table and fills from empty', () => {
    const table = BlockTable.build(blockLayout(3), () => {}, 0);
    const list = new IdList();
    table.candidates(1, 2, list);
    expect(list.count).toBe(0);
    table.add(1, 1, 2);
    table.candidates(1, 3, list);
    expect(Array.from(list.ids.subarray(0, list.count))).toEqual([1]);
  });

  it('refuses a feed whose two passes differ', () => {
    const feed = feedChangingOnSecondPass();
    expect(() => BlockTable.build(blockLayout(3), feed, 2)).toThrow(/changed between the two passes/);
  });

  it('costs about 18 bytes per further fingerprint at k = 3 (3 per block, 4 of fold, a sixteenth of headroom and delta)', () => {
    const entries = makeEntries(300_000, 3, 5).map((e, i) => ({ ...e, id: i + 1 }));
    const small = BlockTable.build(blockLayout(3), feedOf(entries.slice(0, 100_000)), 100_000);
    const large = BlockTable.build(blockLayout(3), feedOf(entries), 300_000);
    expect((large.byteLength - small.byteLength) / 200_000).toBeLessThan(19);
  });
});

describe('PairedBlockTable', () => {
  it('serves k = 0, 1, 3 only', () => {
    expect([0, 1, 2, 3, 4, 5, 7].filter((k) => suitsPairedTable(blockLayout(k)))).toEqual([0, 1, 3]);
    expect(() => new PairedBlockTable(blockLayout(5))).toThrow(/blocks of 16 or 32 bits/);
  });

  it.each([0, 1, 3])('never misses a stored fingerprint within k = %i (built, then added through merges)', (k) => {
    const layout = blockLayout(k);
    const entries = makeEntries(14_000, k, 300 + k);
    const table = PairedBlockTable.build(layout, feedOf(entries.slice(0, 4000)), { minDeltaCapacity: 4096 });
    // 10,000 additions overflow the 4,096-entry delta area twice, so merges (and a regrowth) are exercised.
    for (const e of entries.slice(4000)) table.add(e.id, e.fp.hi, e.fp.lo);
    expect(table.size).toBe(entries.length);
    const matches = expectNoMisses(table, entries, queriesNear(entries, k, 17, 400), k);
    expect(matches).toBeGreaterThan(100);
  });

  it('builds buckets in the same order whatever order the rows come in', () => {
    const layout = blockLayout(3);
    const entries = makeEntries(20_000, 3, 23).map((e, i) => ({ ...e, id: i + 1 }));
    const forward = PairedBlockTable.build(layout, feedOf(entries));
    const backward = PairedBlockTable.build(layout, feedOf([...entries].reverse()));
    const list = new IdList();
    for (const q of queriesNear(entries, 3, 29, 300)) {
      list.clear();
      forward.candidates(q.hi, q.lo, list);
      const a = Array.from(list.ids.subarray(0, list.count)).sort((x, y) => x - y);
      list.clear();
      backward.candidates(q.hi, q.lo, list);
      expect(Array.from(list.ids.subarray(0, list.count)).sort((x, y) => x - y)).toEqual(a);
    }
  });

  it('keeps ids of 2^24 and above', () => {
    const entries = makeEntries(6000, 3, 31, 2 ** 24 - 9000);
    const table = PairedBlockTable.build(blockLayout(3), feedOf(entries.slice(0, 1500)), { minDeltaCapacity: 4096 });
    for (const e of entries.slice(1500)) table.add(e.id, e.fp.hi, e.fp.lo);
    expect(entries.at(-1)!.id).toBeGreaterThan(2 ** 24);
    expectNoMisses(table, entries, queriesNear(entries, 3, 37, 300), 3);
  });

  it('lists few ids that are not matches (the 24-bit filter and the partner test)', () => {
    const entries = makeEntries(100_000, 3, 41).map((e, i) => ({ ...e, id: i + 1 }));
    const table = PairedBlockTable.build(blockLayout(3), feedOf(entries));
    const list = new IdList();
    let listed = 0;
    const next = prng(43);
    for (let q = 0; q < 2000; q++) {
      list.clear();
      table.candidates(next(), next(), list);
      listed += list.count;
    }
    // Random queries: true matches are vanishingly rare, so nearly everything listed is a false pass.
    expect(listed / 2000).toBeLessThan(0.05);
  });

  it('costs about 13 bytes per further fingerprint at k = 3 (12 per entry, room for two delta areas, the delta area)', () => {
    const entries = makeEntries(300_000, 3, 5).map((e, i) => ({ ...e, id: i + 1 }));
    const small = PairedBlockTable.build(blockLayout(3), feedOf(entries.slice(0, 100_000)), { minDeltaCapacity: 4096 });
    const large = PairedBlockTable.build(blockLayout(3), feedOf(entries), { minDeltaCapacity: 4096 });
    expect((large.byteLength - small.byteLength) / 200_000).toBeLessThan(14);
  });

  it.each([0, 1, 3])('finds a match at distance k whichever block it agrees on (k = %i, every spread of the flips)', (k) => {
    // Stored fingerprints at distance exactly k from a query, with the k flipped bits spread over the
    // blocks in every way that leaves at least one block untouched: the match is reached through the
    // primary bucket or through a secondary block and the primary bucket of its partner value.
    const layout = blockLayout(k);
    const next = prng(50 + k);
    const spreads: number[][] = [];
    const walk = (prefix: number[], left: number) => {
      if (prefix.length === layout.count) {
        if (left === 0 && prefix.includes(0)) spreads.push(prefix);
        return;
      }
      for (let c = 0; c <= left; c++) walk([...prefix, c], left - c);
    };
    walk([], k);
    const entries: Entry[] = [];
    const targets: { query: Fingerprint; id: number }[] = [];
    for (let i = 0; i < 2000; i++) entries.push({ id: i + 1, fp: randomFingerprint(next) });
    for (const spread of spreads) {
      for (let rep = 0; rep < 20; rep++) {
        const query = randomFingerprint(next);
        const positions: number[] = [];
        spread.forEach((flips, b) => {
          const used = new Set<number>();
          while (used.size < flips) used.add(layout.starts[b]! + (next() % layout.widths[b]!));
          positions.push(...used);
        });
        const id = entries.length + 1;
        entries.push({ id, fp: flipBits(query, positions) });
        targets.push({ query, id });
      }
    }
    const half = entries.length >>> 1;
    const table = PairedBlockTable.build(layout, feedOf(entries.slice(0, half)), { minDeltaCapacity: 4096 });
    for (const e of entries.slice(half)) table.add(e.id, e.fp.hi, e.fp.lo);
    const merged = PairedBlockTable.build(layout, feedOf(entries), { minDeltaCapacity: 4096 });
    const list = new IdList();
    for (const t of [table, merged]) {
      for (const { query, id } of targets) {
        list.clear();
        t.candidates(query.hi, query.lo, list);
        expect(Array.from(list.ids.subarray(0, list.count))).toContain(id);
      }
    }
    expect(spreads.length).toBeGreaterThan(0);
  });
});

describe('PairedBlockTable bucket counts (one-pass builds)', () => {
  it.each([1, 3])('builds from saved counts in one pass, the same table as two passes (k = %i)', (k) => {
    const layout = blockLayout(k);
    const entries = makeEntries(12_000, k, 60 + k);
    // Counts saved from a table that was built from the first part and then grew through merges.
    const grown = PairedBlockTable.build(layout, feedOf(entries.slice(0, 3000)), { minDeltaCapacity: 4096 });
    for (const e of entries.slice(3000)) grown.add(e.id, e.fp.hi, e.fp.lo);
    const saved = grown.bucketCounts();
    const counted = new Uint32Array(bucketCountsLength(layout));
    countRows(layout, feedOf(entries), counted);
    expect(Array.from(saved)).toEqual(Array.from(counted));
    let passes = 0;
    const feed = feedOf(entries);
    const onePass = PairedBlockTable.build(layout, (visit) => {
      passes++;
      feed(visit);
    }, { counts: saved });
    expect(passes).toBe(1);
    expect(onePass.size).toBe(entries.length);
    const twoPass = PairedBlockTable.build(layout, feedOf(entries));
    const list = new IdList();
    for (const q of queriesNear(entries, k, 61, 300)) {
      list.clear();
      onePass.candidates(q.hi, q.lo, list);
      const a = Array.from(list.ids.subarray(0, list.count)).sort((x, y) => x - y);
      list.clear();
      twoPass.candidates(q.hi, q.lo, list);
      expect(a).toEqual(Array.from(list.ids.subarray(0, list.count)).sort((x, y) => x - y));
    }
    expectNoMisses(onePass, entries, queriesNear(entries, k, 62, 200), k);
  });

  it('refuses counts that do not match the rows', () => {
    const layout = blockLayout(3);
    const entries = makeEntries(2000, 3, 70);
    const counts = new Uint32Array(bucketCountsLength(layout));
    countRows(layout, feedOf(entries.slice(1)), counts);
    // One row more than counted, one fewer, counts moved to another bucket, a wrong length.
    expect(() => PairedBlockTable.build(layout, feedOf(entries), { counts })).toThrow(BucketCountsMismatchError);
    expect(() => PairedBlockTable.build(layout, feedOf(entries.slice(2)), { counts })).toThrow(BucketCountsMismatchError);
    const moved = counts.slice();
    const from = moved.findIndex((c) => c > 0);
    moved[from]!--;
    moved[(from + 1) % 65536]!++;
    expect(() => PairedBlockTable.build(layout, feedOf(entries.slice(1)), { counts: moved })).toThrow(BucketCountsMismatchError);
    expect(() => PairedBlockTable.build(layout, feedOf(entries.slice(1)), { counts: counts.subarray(1) })).toThrow(BucketCountsMismatchError);
    expect(PairedBlockTable.build(layout, feedOf(entries.slice(1)), { counts }).size).toBe(1999);
  });

  it('refuses a feed whose two passes differ', () => {
    const feed = feedChangingOnSecondPass();
    expect(() => PairedBlockTable.build(blockLayout(3), feed)).toThrow(BucketCountsMismatchError);
  });
});

describe('growPlane', () => {
  it('grows a plane in place within its reserved room, keeping the entries, and copies beyond it', () => {
    const first = growPlane(null, Uint16Array, 1000, 0);
    for (let i = 0; i < 1000; i++) first[i] = i * 7;
    const grown = growPlane(first, Uint16Array, 50_000, 1000);
    expect(grown.buffer).toBe(first.buffer);
    expect(grown.length).toBe(50_000);
    expect(Array.from(grown.subarray(0, 1000))).toEqual(Array.from(first));
    expect(grown[1000]).toBe(0);
    // Beyond the 64 MiB reserved by the first plane: a new buffer, with the kept entries copied.
    const moved = growPlane(grown, Uint16Array, 40_000_000, 1000);
    expect(moved.buffer).not.toBe(first.buffer);
    expect(Array.from(moved.subarray(0, 1000))).toEqual(Array.from(first));
    expect(moved[39_999_999]).toBe(0);
  });
});

describe('LinearTable and the table choice', () => {
  it('k ≥ 8 uses a linear scan, which never misses either', () => {
    const layout = blockLayout(10);
    const entries = makeEntries(2000, 10, 3);
    const table = buildCandidateTable(layout, feedOf(entries), 6001);
    expect(table).toBeInstanceOf(LinearTable);
    expectNoMisses(table, entries, queriesNear(entries, 10, 4, 100), 10);
  });

  it('k = 0, 1, 3 use the paired table, the other k ≤ 7 the block table', () => {
    for (const k of [0, 1, 3]) expect(buildCandidateTable(blockLayout(k), () => {}, 0)).toBeInstanceOf(PairedBlockTable);
    for (const k of [2, 4, 5, 7]) expect(buildCandidateTable(blockLayout(k), () => {}, 0)).toBeInstanceOf(BlockTable);
  });
});
