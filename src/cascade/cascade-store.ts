/**
 * The stateful half of the cascade: the records of stored pages, searchable by grammar sketch
 * (`synonymised`) and by paragraph shingles (`compiled`). One interface, so that the pipeline can
 * later keep records in its database; MemoryCascadeStore is the in-memory implementation.
 */
import type { CascadeRecord } from './cascade-record.js';
import type { RankedCandidate } from './candidate-lists.js';

export interface StoredCascadePage {
  readonly id: number;
  readonly url: string;
  readonly record: CascadeRecord;
}

export interface CascadeStore {
  /** Adds (or replaces) a stored page's record; `bytes`: its encoding, when the caller has it (cascade-record-codec.ts). */
  add(page: StoredCascadePage, bytes?: Uint8Array): void;
  /** Removes a page (no-op when absent). */
  delete(id: number): void;
  get(id: number): StoredCascadePage | undefined;
  /** Pages sharing at least `minShared` values with a grammar sketch, most shared first, at most `limit`. */
  grammarCandidates(sketch: Uint32Array, minShared: number, limit: number): readonly StoredCascadePage[];
  /**
   * Ids of the pages sharing word-shingle hashes with `shingles`, with how many they share, most
   * first (ties: smaller id), at most `limit` — no record read (get reads those the caller keeps).
   * `minShared`: how many the caller needs (a store may leave out pages unlikely to share that many,
   * e.g. by a sample; MemoryCascadeStore returns every page). @default 1
   */
  shingleCandidates(shingles: Uint32Array, limit: number, minShared?: number): readonly RankedCandidate[];
}

/*
 * Index keys are the hashes as int32 (`h | 0`): small integers to V8 (a uint32 above 2^31 is a
 * heap number, slower to hash and compare).
 */
function addTo(index: Map<number, number[]>, hash: number, id: number): void {
  const key = hash | 0;
  const ids = index.get(key);
  if (ids === undefined) index.set(key, [id]);
  else if (ids[ids.length - 1] !== id) ids.push(id);
}

function removeFrom(index: Map<number, number[]>, hash: number, id: number): void {
  const key = hash | 0;
  const ids = index.get(key);
  if (ids === undefined) return;
  const at = ids.indexOf(id);
  if (at >= 0) ids.splice(at, 1);
  if (ids.length === 0) index.delete(key);
}

function topCounts(counts: Map<number, number>, min: number, limit: number): [number, number][] {
  return [...counts].filter(([, c]) => c >= min).sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, limit);
}

/** Inverted indexes in memory: grammar-sketch value → pages, paragraph shingle hash → pages. */
export class MemoryCascadeStore implements CascadeStore {
  readonly #pages = new Map<number, StoredCascadePage>();
  readonly #byGrammar = new Map<number, number[]>();
  readonly #byShingle = new Map<number, number[]>();

  get size(): number {
    return this.#pages.size;
  }

  add(page: StoredCascadePage): void {
    this.delete(page.id);
    this.#pages.set(page.id, page);
    for (const h of page.record.tagSketch ?? []) addTo(this.#byGrammar, h, page.id);
    for (const h of page.record.shingles) addTo(this.#byShingle, h, page.id);
  }

  delete(id: number): void {
    const page = this.#pages.get(id);
    if (page === undefined) return;
    for (const h of page.record.tagSketch ?? []) removeFrom(this.#byGrammar, h, id);
    for (const h of page.record.shingles) removeFrom(this.#byShingle, h, id);
    this.#pages.delete(id);
  }

  get(id: number): StoredCascadePage | undefined {
    return this.#pages.get(id);
  }

  grammarCandidates(sketch: Uint32Array, minShared: number, limit: number): readonly StoredCascadePage[] {
    const counts = new Map<number, number>();
    for (const h of sketch) for (const id of this.#byGrammar.get(h | 0) ?? []) counts.set(id, (counts.get(id) ?? 0) + 1);
    return topCounts(counts, minShared, limit).map(([id]) => this.#pages.get(id)!);
  }

  shingleCandidates(shingles: Uint32Array, limit: number) {
    const counts = new Map<number, number>();
    for (const h of shingles) for (const id of this.#byShingle.get(h | 0) ?? []) counts.set(id, (counts.get(id) ?? 0) + 1);
    return topCounts(counts, 1, limit).map(([id, shared]) => ({ id, shared }));
  }
}
