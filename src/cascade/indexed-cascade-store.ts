/**
 * The cascade store the pipeline keeps (CascadeStore): an inverted index of a sample of each stored
 * page's hashes in memory (hash-postings.ts), the records themselves in a RecordSource (the index
 * database's `cascade_records` table, or memory). A lookup counts sampled hashes shared with the
 * page, and reads the records of the few pages that share enough — never a scan over stored pages,
 * and no record of a page that shares nothing.
 *
 * What is indexed: every word shingle a record keeps (records keep one in SHINGLE_SAMPLE already,
 * cascade-record.ts), and one grammar-sketch value in GRAMMAR_SAMPLE (its low bit 0). A source
 * covering 10% of a 600-word page shares ~60 shingles, ~7.5 kept; a spun copy's grammar sketch
 * (Jaccard ≥ 0.15 with its source) shares ≥ ~5 of 64 values, ~2.5 indexed: the thresholds below are
 * set under those, and the stages decide on the whole arrays of the records read (compiled-flag.ts,
 * synonymised-flag.ts).
 */
import type { CascadeRecord } from './cascade-record.js';
import type { CascadeStore, StoredCascadePage } from './cascade-store.js';
import { HashPostings, touchedIds } from './hash-postings.js';
import type { RankedCandidate } from './candidate-lists.js';
import { roomFor } from './room-for.js';

/** One grammar-sketch value in GRAMMAR_SAMPLE is indexed. */
export const GRAMMAR_SAMPLE = 2;
const GRAMMAR_MASK = GRAMMAR_SAMPLE - 1;

/** Where the records are. */
export interface CascadeRecordSource {
  /** The stored page of an id (its record read now), or undefined. */
  get(id: number): StoredCascadePage | undefined;
  /** Keeps a page's record; `bytes`: its encoding when the caller has it (cascade-record-codec.ts). */
  put(page: StoredCascadePage, bytes?: Uint8Array): void;
  delete(id: number): void;
}

/** Records in a Map (tests, evaluation, and indexes without a table of their own). */
export class MemoryRecordSource implements CascadeRecordSource {
  readonly #pages = new Map<number, StoredCascadePage>();

  get(id: number): StoredCascadePage | undefined {
    return this.#pages.get(id);
  }

  put(page: StoredCascadePage): void {
    this.#pages.set(page.id, page);
  }

  delete(id: number): void {
    this.#pages.delete(id);
  }
}

function isIndexedGrammar(hash: number): boolean {
  return (hash & GRAMMAR_MASK) === 0;
}

/**
 * Hits per page id while counting one lookup: a dense array by id (ids are the index's, small and
 * growing) and the ids touched, reset after each lookup. A Map per lookup cost more than the lookup.
 */
class HitCounter {
  #counts = new Int32Array(1024);
  readonly #touched = touchedIds();

  /** Makes room for ids up to `id` (called for every id indexed, so that lookups need no check). */
  reserve(id: number): void {
    this.#counts = roomFor(this.#counts, id);
  }

  #scratch = new Int32Array(1024);

  /** Counts a hit for every id `postings` holds under each hash of `hashes` with its `mask` bits 0. */
  count(postings: HashPostings, hashes: Uint32Array, mask: number): void {
    if (this.#scratch.length < 2 * hashes.length) this.#scratch = new Int32Array(2 * hashes.length);
    postings.countHitsOfAll(hashes, mask, this.#counts, this.#touched, this.#scratch);
  }

  /**
   * The ids touched with at least `minHits` hits — and, given `bySize`, at least its `minShare` of
   * their sizes and minShared[id] (0 beyond its length), ranked by hits / size — ranked (most hits,
   * ties to the smaller id), at most `limit`, with their hits; then resets. The `limit` best by
   * insertion into a short sorted list: many ids may pass, few are taken. (No callbacks: this runs
   * over the thousands of ids a lookup touches.)
   */
  #take(limit: number, minHits: number, bySize?: { sizes: Int32Array; minShare: number; minShared: Int32Array }): RankedCandidate[] {
    const counts = this.#counts;
    const { ids: touched, count: touchedCount } = this.#touched;
    const taken: RankedCandidate[] = [];
    const scores: number[] = [];
    const last = limit - 1;
    for (let t = 0; t < touchedCount; t++) {
      const id = touched[t]!;
      const hits = counts[id]!;
      counts[id] = 0;
      if (hits < minHits) continue;
      let value = hits;
      if (bySize !== undefined) {
        const size = bySize.sizes[id]!;
        if (hits < bySize.minShare * size || (id < bySize.minShared.length && hits < bySize.minShared[id]!)) continue;
        value = hits / Math.max(1, size);
      }
      if (taken.length === limit && !(value > scores[last]! || (value === scores[last] && id < taken[last]!.id))) continue;
      let at = taken.length === limit ? last : taken.length;
      while (at > 0 && (value > scores[at - 1]! || (value === scores[at - 1] && id < taken[at - 1]!.id))) {
        taken[at] = taken[at - 1]!;
        scores[at] = scores[at - 1]!;
        at--;
      }
      taken[at] = { id, shared: hits };
      scores[at] = value;
    }
    this.#touched.count = 0;
    return taken;
  }

  /**
   * For pagesSharing: ids whose hits are at least `minShare` of their `sizes` (and 2) and at least
   * minShared[id], ranked by hits / size.
   */
  takeSharing(limit: number, sizes: Int32Array, minShare: number, minShared: Int32Array): RankedCandidate[] {
    return this.#take(limit, 2, { sizes, minShare, minShared });
  }

  /** Ids with at least `minHits`, most hits first (ties: smaller id), at most `limit`. */
  takeRanked(minHits: number, limit: number): RankedCandidate[] {
    return this.#take(limit, minHits);
  }
}

export class IndexedCascadeStore implements CascadeStore {
  readonly #grammar = new HashPostings();
  readonly #shingles = new HashPostings();
  readonly #source: CascadeRecordSource;
  /** Ids deleted since they were indexed (their postings stay; lookups skip them). */
  readonly #deleted = new Set<number>();
  readonly #hits = new HitCounter();
  /** Per id, the shingles it was indexed with (pagesSharing's shares). */
  #shingleCounts = new Int32Array(1024);
  #size = 0;

  constructor(source: CascadeRecordSource = new MemoryRecordSource()) {
    this.#source = source;
  }

  /** Pages indexed. */
  get size(): number {
    return this.#size;
  }

  /** Bytes of the in-memory index. */
  get indexBytes(): number {
    return this.#grammar.bytes + this.#shingles.bytes;
  }

  /** Indexes a page whose record the source holds already (loading a store, catching up). */
  index(id: number, record: Pick<CascadeRecord, 'tagSketch' | 'shingles'>): void {
    this.#deleted.delete(id);
    this.#hits.reserve(id);
    const tag = record.tagSketch;
    if (tag !== null) for (let i = 0; i < tag.length; i++) if (isIndexedGrammar(tag[i]!)) this.#grammar.add(tag[i]!, id);
    const shingles = record.shingles;
    for (let i = 0; i < shingles.length; i++) this.#shingles.add(shingles[i]!, id);
    this.#keepShingleCount(id, shingles.length);
    this.#size++;
  }

  add(page: StoredCascadePage, bytes?: Uint8Array): void {
    this.#source.put(page, bytes);
    this.index(page.id, page.record);
  }

  delete(id: number): void {
    this.#deleted.add(id);
    this.#source.delete(id);
  }

  get(id: number): StoredCascadePage | undefined {
    return this.#deleted.has(id) ? undefined : this.#source.get(id);
  }

  #keepShingleCount(id: number, count: number): void {
    this.#shingleCounts = roomFor(this.#shingleCounts, id);
    this.#shingleCounts[id] = count;
  }

  grammarCandidates(sketch: Uint32Array, minShared: number, limit: number): readonly StoredCascadePage[] {
    const minHits = Math.max(1, Math.floor(minShared / GRAMMAR_SAMPLE));
    this.#hits.count(this.#grammar, sketch, GRAMMAR_MASK);
    return this.#pages(this.#live(this.#hits.takeRanked(minHits, limit)));
  }

  shingleCandidates(shingles: Uint32Array, limit: number, minShared = 1): RankedCandidate[] {
    // Half of `minShared` (the hypergeometric test's vocabulary takes in pages under it too), at
    // least 2 (one shared stock phrase is no lead).
    this.#hits.count(this.#shingles, shingles, 0);
    return this.#live(this.#hits.takeRanked(Math.max(2, Math.floor(minShared / 2)), limit));
  }

  /**
   * The stored pages of which `shingles` hold at least `minShare` of their own shingles, and at least
   * minShared[id] (0 beyond its length) — those the page with these shingles may be a source of —
   * largest share first, at most `limit`, with the hits counted (no record read).
   */
  pagesSharing(shingles: Uint32Array, limit: number, minShare: number, minShared: Int32Array): RankedCandidate[] {
    this.#hits.count(this.#shingles, shingles, 0);
    return this.#live(this.#hits.takeSharing(limit, this.#shingleCounts, minShare, minShared));
  }

  /** `ranked` less the deleted pages. */
  #live(ranked: RankedCandidate[]): RankedCandidate[] {
    return this.#deleted.size === 0 ? ranked : ranked.filter(({ id }) => !this.#deleted.has(id));
  }

  #pages(ranked: readonly RankedCandidate[]): StoredCascadePage[] {
    const out: StoredCascadePage[] = [];
    for (const { id } of ranked) {
      const page = this.get(id);
      if (page !== undefined) out.push(page);
    }
    return out;
  }
}
