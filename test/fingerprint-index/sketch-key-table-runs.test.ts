import { describe, expect, it } from 'vitest';
import { IdList } from '../../src/fingerprint-index/id-list.js';
import { PREFIX, SketchKeyTable, pairKey } from '../../src/fingerprint-index/sketch-key-table.js';
import { popcount32 } from '../../src/fingerprint/fingerprint-codec.js';
import { maxSlack, prefixMayBeSimilar } from '../../src/fingerprint/sketch-prefix-bound.js';
import type { VerifyThresholds } from '../../src/fingerprint/verify-similar.js';

/** A small deterministic generator (xorshift32). */
function random(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x;
  };
}

interface Doc { readonly id: number; readonly sketch: Uint32Array; readonly hi: number; readonly lo: number }

/**
 * The table's rule, straightforwardly: a map from each key to its documents (oldest first), read
 * newest first for the query's keys in order, a document listed when its count reaches the need
 * within the distance and the bound lets it through. The order of the list is the order it is met.
 */
class Reference {
  readonly #lists = new Map<number, Doc[]>();
  readonly #verify: VerifyThresholds | undefined;
  readonly #slack: Int32Array;
  constructor(readonly keys: number, readonly minShared: number, verify?: VerifyThresholds) {
    this.#verify = verify;
    this.#slack = verify === undefined ? new Int32Array(0) : Int32Array.from({ length: verify.sketchSize + 1 }, (_, n) => maxSlack(verify.containment, n));
  }
  #keysOf(s: Uint32Array): number[] {
    const n = Math.min(this.keys, s.length);
    if (this.minShared < 2) return [...s.subarray(0, n)];
    if (n === 1) return [pairKey(s[0]!, s[0]!)];
    const keys: number[] = [];
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) keys.push(pairKey(s[i]!, s[j]!));
    return keys;
  }
  add(doc: Doc): void {
    for (const key of this.#keysOf(doc.sketch)) {
      const list = this.#lists.get(key);
      if (list === undefined) this.#lists.set(key, [doc]);
      else list.push(doc);
    }
  }
  candidates(s: Uint32Array, hi: number, lo: number, maxDistance: number): number[] {
    const n = Math.min(this.keys, s.length);
    const need = Math.max(1, Math.min(this.minShared, n));
    const needKeys = this.minShared < 2 ? need : n === 1 ? 1 : need >= 2 ? (need * (need - 1)) / 2 : 1;
    const counts = new Map<number, number>();
    const out: number[] = [];
    for (const key of this.#keysOf(s)) {
      const list = this.#lists.get(key) ?? [];
      for (let k = list.length - 1; k >= 0; k--) {
        const d = list[k]!;
        const count = (counts.get(d.id) ?? 0) + 1;
        counts.set(d.id, count);
        if (count !== needKeys || popcount32((d.hi ^ hi) >>> 0) + popcount32((d.lo ^ lo) >>> 0) > maxDistance) continue;
        const v = this.#verify;
        if (v !== undefined && !prefixMayBeSimilar(s, { values: d.sketch, start: 0, known: Math.min(PREFIX, d.sketch.length), length: d.sketch.length }, v, this.#slack)) continue;
        out.push(d.id);
      }
    }
    return out;
  }
}

const verify: VerifyThresholds = { maxDistance: 24, sketchSize: 64, jaccard: 0.55, containment: 0.95, minContainmentSamples: 32 };

describe('SketchKeyTable runs (recent entries compacted into contiguous runs)', () => {
  it.each([
    ['pairs, bound on', 8, 2, verify, false],
    ['pairs, reserved', 8, 2, undefined, true],
    ['single keys', 4, 1, undefined, false],
    ['pairs of 6, 3 shared', 6, 3, undefined, false],
  ] as const)('lists the same ids in the same order as a straightforward reference, across compactions and rehashes (%s)', (_, keys, minShared, thresholds, reserve) => {
    const next = random(keys * 1000 + minShared);
    const table = new SketchKeyTable({ keys, minShared, verify: thresholds });
    const reference = new Reference(keys, minShared, thresholds);
    if (reserve) table.reserve(500);
    // Documents mixed from a few "articles": small values shared by many, fingerprints near their article's.
    const articles = Array.from({ length: 12 }, () => ({ hi: next(), lo: next() }));
    const out = new IdList();
    let listed = 0;
    for (let id = 1; id <= 2500; id++) {
      const article = articles[next() % articles.length]!;
      const values = new Set<number>();
      const length = 1 + (next() % 64);
      while (values.size < length) values.add(next() % 4 === 0 ? next() >>> 0 : next() % 300);
      const sketch = Uint32Array.from([...values].sort((a, b) => a - b));
      const flip = (x: number) => (x ^ (1 << (next() % 32)) ^ (next() % 3 === 0 ? next() : 0)) >>> 0;
      const doc = { id, sketch, hi: flip(article.hi), lo: flip(article.lo) };
      out.clear();
      const maxDistance = [64, 24, 12][id % 3]!;
      table.candidates(sketch, out, minShared, doc.hi, doc.lo, maxDistance);
      const expected = reference.candidates(sketch, doc.hi, doc.lo, maxDistance);
      expect([...out.ids.subarray(0, out.count)]).toEqual(expected);
      listed += expected.length;
      table.add(id, sketch, doc.hi, doc.lo);
      reference.add(doc);
    }
    expect(listed).toBeGreaterThan(2500); // shared keys: lookups list many documents
    expect(table.size).toBe(2500);
  });
});
