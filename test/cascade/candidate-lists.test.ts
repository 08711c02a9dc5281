/**
 * src/cascade/candidate-lists.ts: the ranked candidates a `compiled` judgement keeps per page, and
 * judging a page again from them and the pages stored since (CascadeCommitter's re-judging) as a new
 * count over the store would.
 */
import { describe, expect, it } from 'vitest';
import { CandidateLists, MAX_CANDIDATES, mergeRanked } from '../../src/cascade/candidate-lists.js';
import { cascadeRecord } from '../../src/cascade/cascade-record.js';
import { compiledFlag, type CompiledJudgement } from '../../src/cascade/compiled-flag.js';
import { IndexedCascadeStore } from '../../src/cascade/indexed-cascade-store.js';
import { defaultConfig } from '../../src/config.js';
import { compilePage } from '../../scripts/cascade-variants.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { devTexts } from './dev-texts.js';

describe('mergeRanked', () => {
  it('ranks by shared shingles, ties to the smaller id, an entrant replacing its old entry, at most MAX_CANDIDATES', () => {
    const ranked = [{ id: 4, shared: 9 }, { id: 2, shared: 5 }, { id: 7, shared: 5 }];
    expect(mergeRanked(ranked, [{ id: 9, shared: 5 }, { id: 2, shared: 12 }])).toEqual([
      { id: 2, shared: 12 }, { id: 4, shared: 9 }, { id: 7, shared: 5 }, { id: 9, shared: 5 },
    ]);
    const many = Array.from({ length: MAX_CANDIDATES }, (_, i) => ({ id: i, shared: 100 - i }));
    expect(mergeRanked(many, [{ id: 50, shared: 1 }])).toEqual(many);
    expect(mergeRanked(many, [{ id: 50, shared: 95 }]).map((c) => c.id)).toEqual([0, 1, 2, 3, 4, 5, 50, 6, 7, 8]);
  });
});

describe('CandidateLists', () => {
  it('keeps each page\'s list by id, tells a page judged with no candidates from one not known, and saturates counts', () => {
    const lists = new CandidateLists();
    expect(lists.get(3)).toBeUndefined();
    lists.set(3, []);
    expect(lists.get(3)).toEqual([]);
    lists.set(100_000, [{ id: 5, shared: 70_000 }, { id: 8, shared: 3 }]);
    expect(lists.get(100_000)).toEqual([{ id: 5, shared: 0xffff }, { id: 8, shared: 3 }]);
    expect(lists.get(3)).toEqual([]);
    expect(lists.get(99_999)).toBeUndefined();
    lists.set(3, [{ id: 1, shared: 2 }]);
    expect(lists.get(3)).toEqual([{ id: 1, shared: 2 }]);
    lists.clear();
    expect([lists.get(3), lists.get(100_000)]).toEqual([undefined, undefined]);
  });
});

describe('judging a page again from its kept candidates', () => {
  it('gives the flag a new count over the store gives, as pages come after it', () => {
    const options = { ...defaultConfig().cascade.compiled, test: 'containment' as const };
    const random = seededRandom(11);
    const sources = devTexts.map((t) => t.text);
    const compiled = (picks: number[]) => compilePage(picks.map((k) => sources[k]!), 600, random);
    // Compiled pages first (each from 3 of the sources), then the sources, then more compiled pages.
    const texts = [compiled([0, 1, 2]), compiled([3, 4, 5]), compiled([6, 7, 8]), ...sources, compiled([0, 4, 8]), compiled([9, 2, 6])];
    const store = new IndexedCascadeStore();
    const lists = new CandidateLists();
    const judgement: CompiledJudgement = { entryBar: 0, ranked: [] };
    let flagged = 0;
    texts.forEach((text, id) => {
      const record = cascadeRecord(text, 'eng');
      compiledFlag(record, store, options, { judgement });
      lists.set(id, judgement.ranked);
      store.add({ id, url: `u${id}`, record });
      for (const entrant of store.pagesSharing(record.shingles, MAX_CANDIDATES + 1, options.minSourceShare / 2, new Int32Array(0))) {
        if (entrant.id === id) continue;
        const page = store.get(entrant.id)!;
        const again = compiledFlag(page.record, store, options, { self: page.id, judgement, ranked: mergeRanked(lists.get(page.id)!, [{ id, shared: entrant.shared }]) });
        expect(judgement.ranked).toEqual((lists.set(page.id, judgement.ranked), lists.get(page.id)));
        const recounted = compiledFlag(page.record, store, options, { self: page.id });
        expect(again).toEqual(recounted);
        if (again !== null) flagged++;
      }
    });
    // The compiled pages stored before their sources were flagged on the way.
    expect(flagged).toBeGreaterThan(0);
  });
});
