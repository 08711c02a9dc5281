/** src/cascade/compiled-flag.ts attributeByContainment: each paragraph to the candidate holding most of its shingles. */
import { describe, expect, it } from 'vitest';
import type { CascadeRecord } from '../../src/cascade/cascade-record.js';
import { attributeByContainment } from '../../src/cascade/compiled-flag.js';
import { seededRandom } from '../helpers/seeded-random.js';

const u = (...xs: number[]) => Uint32Array.from(xs).sort();

function record(paragraphs: Uint32Array[]): CascadeRecord {
  const all = u(...new Set(paragraphs.flatMap((p) => [...p])));
  return {
    language: 'eng', words: 10 * paragraphs.length, stems: [], wordSketch: all, shingles: all, terms: new Uint32Array(0), tagSketch: null,
    paragraphs: paragraphs.map((shingles) => ({ words: 10, shingles, terms: new Uint32Array(0) })),
  };
}

const candidate = (id: number, shingles: Uint32Array) => ({ page: { id, url: `u${id}`, record: record([shingles]) }, shingles });

describe('attributeByContainment', () => {
  // Hashes across the uint32 range (high bit set too), a shingle (0xfffffff0) in two paragraphs.
  const p0 = u(1, 0x80000001, 0xfffffff0, 77);
  const p1 = u(0xfffffff0, 5, 0x9e3779b9, 6);
  const p2 = u(7, 0xdeadbeef);

  it('attributes a paragraph to the candidate holding at least half of it, the later on a tie, counting a shared shingle for each paragraph', () => {
    const a = candidate(1, u(1, 0x80000001, 0xfffffff0, 77, 5));
    const b = candidate(2, u(0xfffffff0, 5, 0x9e3779b9, 6, 7, 0xdeadbeef, 123));
    expect(attributeByContainment(record([p0, p1, p2]), [a, b])).toEqual([0, 1, 1]);
    // Half of p1 (its repeated shingle and 5) is enough when no other candidate holds more.
    expect(attributeByContainment(record([p0, p1, p2]), [a])).toEqual([0, 0, -1]);
  });

  it('attributes nothing under half, nor without candidates', () => {
    const c = candidate(3, u(1, 5, 7, 999));
    expect(attributeByContainment(record([p0, p1, p2]), [c])).toEqual([-1, -1, 0]);
    expect(attributeByContainment(record([p0, p1, p2]), [])).toEqual([-1, -1, -1]);
  });
  it('attributes as a direct count of each paragraph\'s shingles in each candidate does, on large random pages', () => {
    const random = seededRandom(5);
    const hash = () => (random() * 2 ** 32) >>> 0;
    const outcomes = { attributed: 0, none: 0 };
    for (let trial = 0; trial < 20; trial++) {
      // 2–30 paragraphs of 0–60 shingles; candidates made of parts of them (and other shingles).
      const paragraphs = Array.from({ length: 2 + Math.floor(random() * 29) }, () => u(...Array.from({ length: Math.floor(random() * 61) }, hash)));
      const candidates = Array.from({ length: 1 + Math.floor(random() * 10) }, (_, i) => {
        const taken = paragraphs.flatMap((p) => {
          const rate = random() < 0.3 ? 0.8 : 0.3; // of this paragraph's shingles in the candidate
          return [...p].filter(() => random() < rate);
        });
        return candidate(i, u(...new Set([...taken, ...Array.from({ length: 200 }, hash)])));
      });
      const expected = paragraphs.map((p) => {
        let best = -1;
        let bestShare = 0.5;
        candidates.forEach((c, ci) => {
          const held = new Set(c.shingles);
          const shared = [...p].filter((s) => held.has(s)).length;
          if (shared > 0 && shared / p.length >= bestShare) [best, bestShare] = [ci, shared / p.length];
        });
        return best;
      });
      expect(attributeByContainment(record(paragraphs), candidates)).toEqual(expected);
      for (const c of expected) outcomes[c >= 0 ? 'attributed' : 'none']++;
    }
    // Both outcomes occur many times (the test can tell a wrong attribution from a right one).
    expect(Math.min(outcomes.attributed, outcomes.none)).toBeGreaterThan(20);
  });
});
