/**
 * The `compiled` stage: a page built from paragraphs of two or more stored pages. Each paragraph is
 * attributed to at most one stored page, by one of two tests:
 * - `hypergeometric` (the method's): the paragraph's content terms against a candidate's, as a draw
 *   from the vocabulary of the page and its candidates; attributed to the candidate whose overlap is
 *   least likely by chance, when that chance is below `alpha` divided by the number of tests made
 *   (Bonferroni). It counts a paragraph whose words were edited or reordered.
 * - `containment`: the share of the paragraph's word 3-shingles found in the candidate, ≥ 0.5.
 * Sources are the candidates with paragraphs attributed to them, each with the share of the page's
 * words those paragraphs hold; the page is flagged when at least `minSources` sources each cover
 * `minSourceShare`, together `minCovered`, and none `maxSingleShare` alone (that is a copy).
 */
import type { CompiledFlag, CompiledSource } from '../types.js';
import type { CascadeOptions } from './cascade-options.js';
import type { CascadeRecord } from './cascade-record.js';
import type { CascadeStore, StoredCascadePage } from './cascade-store.js';
import { hypergeometricUpperTail } from './hypergeometric.js';
import { sharedCount } from '../fingerprint/shared-count.js';
import { sortedDistinct } from './shingle-sketch.js';
import { MAX_CANDIDATES, type RankedCandidate } from './candidate-lists.js';
import { evidenceFigure } from './evidence-figure.js';

/** Paragraph share of shingles a candidate must hold under the containment test. */
const CONTAINMENT = 0.5;

/**
 * A stored page considered as a source. Its record's `terms` are read only by the hypergeometric
 * test (a stored record makes them on demand).
 */
interface Candidate {
  readonly page: StoredCascadePage;
  readonly shingles: Uint32Array;
}

function candidateOf(page: StoredCascadePage): Candidate {
  return { page, shingles: page.record.shingles };
}

function union(arrays: readonly Uint32Array[]): Uint32Array {
  let total = 0;
  for (const a of arrays) total += a.length;
  const out = new Uint32Array(total);
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return sortedDistinct(out);
}

/**
 * What a judgement tells of the pages stored after it (CascadeCommitter's re-judging):
 * `ranked`, its candidates: the MAX_CANDIDATES stored pages (a compiled page has 2–4 sources, each
 * sharing far more shingles than pages that share a stock phrase) sharing the most shingles with the
 * page, ties to the smaller (earlier) id; and `entryBar`, the shingles a page stored later must share
 * with the judged page to be among its kept candidates — a later page sharing fewer changes nothing,
 * and the page's flag would be judged the same.
 */
export interface CompiledJudgement {
  entryBar: number;
  ranked: readonly RankedCandidate[];
}

/**
 * How a page is judged: `self`, the page's own id when it is in the store already (judged again
 * from its stored record), left out of its candidates; `judgement`, filled in (CompiledJudgement);
 * `ranked`, the page's candidates when the caller has them (a page judged again: its last
 * judgement's, with the pages stored since merged in), else counted in the store.
 */
export interface CompiledJudging {
  readonly self?: number | null;
  readonly judgement?: CompiledJudgement | undefined;
  readonly ranked?: readonly RankedCandidate[] | undefined;
}

/**
 * Stored pages sharing enough of the page's shingles to cover `minShare` of it (halved: a source's
 * paragraphs may be edited), at most MAX_CANDIDATES. Pages sharing only stock phrases drop out.
 */
function candidatesOf(record: CascadeRecord, store: CascadeStore, minShare: number, withVocabulary: boolean, judging: CompiledJudging): { kept: Candidate[]; vocabulary: number } {
  const { self = null, judgement, ranked } = judging;
  const needed = Math.max(2, (minShare / 2) * record.shingles.length);
  const all = ranked ?? store.shingleCandidates(record.shingles, MAX_CANDIDATES + (self === null ? 0 : 1), needed).filter(({ id }) => id !== self).slice(0, MAX_CANDIDATES);
  const kept = pagesOf(all.filter(({ shared }) => shared >= needed), store).map(candidateOf);
  if (judgement !== undefined) {
    judgement.ranked = all;
    judgement.entryBar = Math.ceil(all.length < MAX_CANDIDATES ? needed : Math.max(needed, all[MAX_CANDIDATES - 1]!.shared + 1));
  }
  // The hypergeometric population: the terms of the page and of every page sharing a shingle with
  // it (pruned or not), so that it does not shrink to the page and its few likely sources.
  const vocabulary = kept.length === 0 || !withVocabulary ? 0 : union([record.terms, ...pagesOf(all, store).map((page) => page.record.terms)]).length;
  return { kept, vocabulary };
}

/** The stored pages of `ranked` (their records read), in its order; pages no longer stored left out. */
function pagesOf(ranked: readonly RankedCandidate[], store: CascadeStore): StoredCascadePage[] {
  const pages: StoredCascadePage[] = [];
  for (const { id } of ranked) {
    const page = store.get(id);
    if (page !== undefined) pages.push(page);
  }
  return pages;
}

/**
 * The paragraph(s) of each of the page's shingles, by shingle: an open-addressing table at most a
 * quarter full (short probes, also for the values it does not hold, the most probed), key and value
 * side by side (one cache line a probe). Value: 0 for an empty slot (a new table needs no filling),
 * k + 1 for paragraph k, or -(k + 1) for a shingle that later paragraphs hold too (rare: a repeated
 * phrase), listed in `more` by the key's index.
 */
interface ParagraphTable {
  readonly slots: Int32Array;
  readonly more: Map<number, number[]>;
  readonly shift: number;
  /**
   * A bit per FILTER_SLOTS-th of the hash range (by top bits), set when a shingle of the page lies in
   * it: 16 bits or more a shingle, so that ~15 of 16 shingles the page does not hold (most of a
   * candidate's) are passed over by one bit test of a small array, read in ascending order, instead
   * of a probe of the table.
   */
  readonly filter: Int32Array;
  readonly filterShift: number;
}

/**
 * A shingle's first slot, as an index of a key in `slots`: its high bits (shingle hashes are mixed,
 * fmix32), so that a candidate's ascending shingles probe the table in ascending order (memory read
 * ahead, not at random).
 */
function homeOf(value: number, shift: number): number {
  return (value >>> shift) << 1;
}

function paragraphTable(record: CascadeRecord): ParagraphTable {
  const bits = Math.max(4, 32 - Math.clz32(4 * record.shingles.length));
  const shift = 32 - bits;
  const slots = new Int32Array(2 << bits);
  const wrap = slots.length - 1;
  const more = new Map<number, number[]>();
  const filterShift = shift - 2;
  const filter = new Int32Array(1 << Math.max(0, bits + 2 - 5));
  const paragraphs = record.paragraphs;
  for (let k = 0; k < paragraphs.length; k++) {
    const shingles = paragraphs[k]!.shingles;
    for (let x = 0; x < shingles.length; x++) {
      const v = shingles[x]! | 0;
      const f = shingles[x]! >>> filterShift;
      filter[f >>> 5]! |= 1 << (f & 31);
      let at = homeOf(v, shift);
      while (slots[at + 1] !== 0 && slots[at] !== v) at = (at + 2) & wrap;
      const value = slots[at + 1]!;
      if (value === 0) {
        slots[at] = v;
        slots[at + 1] = k + 1;
      } else {
        if (value > 0) slots[at + 1] = -value;
        (more.get(at) ?? more.set(at, []).get(at)!).push(k);
      }
    }
  }
  return { slots, more, shift, filter, filterShift };
}

/**
 * Counts in `shared[k]`, per paragraph k, the candidate's shingles (`b`) the paragraph holds: each
 * whose filter bit is set looked up in the page's table (one probe a shingle, no merge of the two
 * arrays).
 */
function countShared(b: Uint32Array, table: ParagraphTable, shared: Int32Array): void {
  const { slots, shift, filter, filterShift } = table;
  const wrap = slots.length - 1;
  for (let j = 0; j < b.length; j++) {
    const f = b[j]! >>> filterShift;
    if ((filter[f >>> 5]! & (1 << (f & 31))) === 0) continue;
    const v = b[j]! | 0;
    let at = homeOf(v, shift);
    let k = slots[at + 1]!;
    while (k !== 0 && slots[at] !== v) {
      at = (at + 2) & wrap;
      k = slots[at + 1]!;
    }
    if (k > 0) {
      shared[k - 1]!++;
    } else if (k < 0) {
      shared[-k - 1]!++;
      for (const m of table.more.get(at)!) shared[m]!++;
    }
  }
}

/**
 * Index of the candidate each paragraph is attributed to (-1: none), by the containment test. Per
 * candidate one pass over its shingles, each shared shingle counted for its paragraph(s): not one
 * merge per paragraph and candidate.
 */
export function attributeByContainment(record: CascadeRecord, candidates: readonly Candidate[]): number[] {
  const paragraphs = record.paragraphs.length;
  const best = new Array<number>(paragraphs).fill(-1);
  const bestShare = new Array<number>(paragraphs).fill(CONTAINMENT);
  if (candidates.length === 0) return best;
  const table = paragraphTable(record);
  const sizes = record.paragraphs.map((p) => p.shingles.length);
  const shared = new Int32Array(paragraphs);
  for (let ci = 0; ci < candidates.length; ci++) {
    shared.fill(0);
    countShared(candidates[ci]!.shingles, table, shared);
    for (let k = 0; k < paragraphs; k++) {
      const n = sizes[k]!;
      if (n === 0 || shared[k] === 0) continue;
      const share = shared[k]! / n;
      if (share >= bestShare[k]!) {
        best[k] = ci;
        bestShare[k] = share;
      }
    }
  }
  return best;
}

/** Index of the candidate each paragraph is attributed to (-1: none), by the hypergeometric test. */
export function attributeByHypergeometric(record: CascadeRecord, candidates: readonly Candidate[], vocabulary: number, alpha: number): number[] {
  const tests = Math.max(1, record.paragraphs.length * candidates.length);
  return record.paragraphs.map((p) => {
    let best = -1;
    let bestP = alpha / tests;
    candidates.forEach((c, i) => {
      const terms = c.page.record.terms;
      const k = sharedCount(p.terms, terms);
      if (k === 0) return;
      const pValue = hypergeometricUpperTail(vocabulary, terms.length, p.terms.length, k);
      if (pValue < bestP) {
        best = i;
        bestP = pValue;
      }
    });
    return best;
  });
}

/**
 * The share of the page's shingles each candidate holds, each shingle counted for the first
 * candidate (in the order given: most shared first) that holds it, so that a phrase two sources
 * share is not counted twice. Reads only the page's and the candidates' page-level shingles: the
 * same whether the page is judged as it comes or again later from its stored record (reevaluated),
 * which makes the flag independent of the order pages come in.
 */
export function containmentShares(shingles: Uint32Array, candidates: readonly Candidate[]): number[] {
  const taken = new Uint8Array(shingles.length);
  return candidates.map((c) => {
    const b = c.shingles;
    let i = 0;
    let j = 0;
    let held = 0;
    while (i < shingles.length && j < b.length) {
      if (shingles[i]! < b[j]!) i++;
      else if (shingles[i]! > b[j]!) j++;
      else {
        if (taken[i] === 0) {
          taken[i] = 1;
          held++;
        }
        i++;
        j++;
      }
    }
    return shingles.length === 0 ? 0 : held / shingles.length;
  });
}

/** Sources of a page from its paragraphs' attributions, largest share first. */
function sourcesOf(record: CascadeRecord, candidates: readonly Candidate[], attributed: readonly number[]): CompiledSource[] {
  const total = Math.max(1, record.words);
  const bySource = new Map<number, number[]>();
  attributed.forEach((c, i) => {
    if (c >= 0) (bySource.get(c) ?? bySource.set(c, []).get(c)!).push(i);
  });
  return [...bySource].map(([c, paragraphs]) => ({
    id: candidates[c]!.page.id,
    url: candidates[c]!.page.url,
    share: paragraphs.reduce((sum, i) => sum + record.paragraphs[i]!.words, 0) / total,
    paragraphs,
  })).sort((a, b) => b.share - a.share || a.id - b.id);
}

/**
 * The page's sources by the chosen test, before the flag's thresholds (for evaluation); `judging`:
 * CompiledJudging.
 *
 * `containment`: a source's share is the share of the page's shingles it holds (containmentShares),
 * from page-level shingles only, so a page stored before its sources is judged the same when they
 * come (CascadeCommitter re-judges it); the paragraphs listed are those the source holds half of
 * (none when the page is judged from its stored record, which keeps no paragraphs).
 * `hypergeometric`: paragraphs attributed by their terms, a source's share the words of its paragraphs.
 */
export function compiledSources(record: CascadeRecord, store: CascadeStore, options: CascadeOptions['compiled'], judging: CompiledJudging = {}): CompiledSource[] {
  const hypergeometric = options.test === 'hypergeometric';
  const { kept: candidates, vocabulary } = candidatesOf(record, store, options.minSourceShare, hypergeometric, judging);
  if (candidates.length === 0) return [];
  if (hypergeometric) {
    return sourcesOf(record, candidates, attributeByHypergeometric(record, candidates, vocabulary, options.alpha)).filter((s) => s.share >= options.minSourceShare);
  }
  const shares = containmentShares(record.shingles, candidates);
  const byCandidate = new Map<number, number[]>();
  if (record.paragraphs.length > 0) {
    attributeByContainment(record, candidates).forEach((c, k) => {
      if (c >= 0) (byCandidate.get(c) ?? byCandidate.set(c, []).get(c)!).push(k);
    });
  }
  return candidates
    .map((c, i) => ({ id: c.page.id, url: c.page.url, share: shares[i]!, paragraphs: byCandidate.get(i) ?? [] }))
    .filter((s) => s.share >= options.minSourceShare)
    .sort((a, b) => b.share - a.share || a.id - b.id);
}

/** The `compiled` flag of a page against the store, or null; `judging`: CompiledJudging. */
export function compiledFlag(record: CascadeRecord, store: CascadeStore, options: CascadeOptions['compiled'], judging: CompiledJudging = {}): CompiledFlag | null {
  const sources = compiledSources(record, store, options, judging);
  if (sources.length < options.minSources) return null;
  if (sources[0]!.share >= options.maxSingleShare) return null;
  const coveredShare = sources.reduce((sum, s) => sum + s.share, 0);
  if (coveredShare < options.minCovered) return null;
  return {
    kind: 'compiled',
    sources: sources.map((s) => ({ ...s, share: evidenceFigure(s.share) })),
    coveredShare: evidenceFigure(coveredShare),
    test: options.test,
  };
}
