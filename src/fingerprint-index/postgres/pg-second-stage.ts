/**
 * The verified second stage (issue 11, second-stage.ts on SQLite) on the PostgreSQL index: after the
 * k rule found nothing, stored documents sharing `minSharedKeys` of the document's `candidateKeys`
 * smallest sketch values are confirmed by verifySimilar (distance ≤ K, Jaccard or containment); the
 * best confirmed one (highest Jaccard, then the lowest id) is the match, kind `similar`.
 *
 * Where things live. Sketches are rows of neardup_sketches: stored documents, and the members of
 * their clusters (a variant of a variant is a copy of the base, issue 25; a member counts
 * on Jaccard only and stands for its stored document, as on SQLite). Each process keeps
 * a SketchKeyTable (the same one SQLite uses) of the stored documents' keys, loaded on open from the
 * keys alone (the first 4 · candidateKeys bytes of each sketch) and caught up with other writers' rows
 * like the block table. The whole sketches of the candidates are read inside the check-and-insert
 * transaction, only when there are candidates (rare: unrelated documents hardly ever share two keys).
 *
 * Locks (lock-keys.ts has the k rule's argument). A document also takes one advisory lock per sketch
 * key it is filed and looked up under (its first `candidateKeys` values). The second stage lists a
 * stored X for a new Y only if X was filed under a key Y looks up, i.e. X and Y share a key among both
 * their first `candidateKeys` values; then both took that key's lock, so one transaction waited for the
 * other's end and then, its catch-up reading the committed row after its locks, had the other's keys in
 * its table. Hence two documents the second stage would match are never both stored, with any number of
 * writers, as for the k rule. (The table reads every document of a key, pairs of keys by default, as
 * on SQLite; see SketchKeyTable.)
 */
import type pg from 'pg';
import { popcount32 } from '../../fingerprint/fingerprint-codec.js';
import { sketchFromBytes } from '../../fingerprint/shingle-sketch.js';
import { verifySimilar } from '../../fingerprint/verify-similar.js';
import { IdList } from '../id-list.js';
import { betterMatch, type SecondStageOptions, type SimilarMatch } from '../second-stage.js';
import { SketchKeyTable } from '../sketch-key-table.js';

/**
 * A row's sketch and what a `similar` decision reports of it: a stored document, or a near/similar
 * member of a cluster (then `root` and `url` are the cluster's stored document's).
 */
export interface SketchRow {
  readonly hi: number;
  readonly lo: number;
  readonly url: string;
  readonly sketch: Uint32Array;
  /** The stored document whose cluster the row is (its own id when stored). */
  readonly root: number;
}

export class PgSecondStage {
  readonly options: SecondStageOptions;
  #table: SketchKeyTable;
  readonly #list = new IdList();
  /** Per-length views of one scratch array, for filing loaded keys without an array per row. */
  readonly #scratch: Uint32Array[];

  constructor(options: SecondStageOptions) {
    this.options = options;
    this.#table = new SketchKeyTable({ keys: options.candidateKeys, minShared: options.minSharedKeys });
    const scratch = new Uint32Array(options.candidateKeys);
    this.#scratch = Array.from({ length: options.candidateKeys + 1 }, (_, n) => scratch.subarray(0, n));
  }

  /** Bytes of a sketch's prefix the key table needs (the first `candidateKeys` values). */
  get keyBytes(): number {
    return 4 * this.options.candidateKeys;
  }

  /** The values a document is filed and looked up under (its lock keys). */
  keysOf(sketch: Uint32Array): Uint32Array {
    return sketch.subarray(0, Math.min(this.options.candidateKeys, sketch.length));
  }

  /** Files a committed stored document under its keys (`keys`: stored little-endian bytes, or values). */
  add(id: number, keys: Uint8Array | Uint32Array): void {
    if (keys instanceof Uint32Array) {
      this.#table.add(id, keys);
      return;
    }
    const n = Math.min(this.options.candidateKeys, keys.length >>> 2);
    const view = this.#scratch[n]!;
    for (let i = 0; i < n; i++) view[i] = (keys[4 * i]! | (keys[4 * i + 1]! << 8) | (keys[4 * i + 2]! << 16) | (keys[4 * i + 3]! << 24)) >>> 0;
    this.#table.add(id, view);
  }

  /** Adds to `into` the stored ids the key table lists for `sketch`. */
  candidates(sketch: Uint32Array, into: Set<number>): void {
    const list = this.#list;
    list.clear();
    this.#table.candidates(sketch, list, this.options.minSharedKeys);
    for (let i = 0; i < list.count; i++) into.add(list.ids[i]!);
  }

  /**
   * The confirmed match for (hi, lo, sketch) among `ids` (their rows in `rows`; an id without a row is
   * skipped, as SQLite skips a row without a sketch), or null.
   */
  best(hi: number, lo: number, sketch: Uint32Array, ids: Iterable<number>, rows: ReadonlyMap<number, SketchRow>): SimilarMatch | null {
    let best: SimilarMatch | null = null;
    for (const id of ids) {
      const row = rows.get(id);
      if (row === undefined) continue;
      const distance = popcount32((row.hi ^ hi) >>> 0) + popcount32((row.lo ^ lo) >>> 0);
      const outcome = verifySimilar(distance, sketch, row.sketch, this.options);
      if (!outcome.similar) continue;
      // A member counts on Jaccard only and stands for its stored document (as second-stage.ts).
      if (row.root !== id && outcome.basis !== 'jaccard') continue;
      const match = { id: row.root, url: row.url, distance, similarity: outcome.jaccard, containment: outcome.containment, via: id };
      if (betterMatch(match, best)) best = match;
    }
    return best;
  }

  /** A key table of one batch's stored documents (the batch's own rows are looked up like stored ones). */
  batchTable(): SketchKeyTable {
    return new SketchKeyTable({ keys: this.options.candidateKeys, minShared: this.options.minSharedKeys });
  }

  /** Ids the batch table lists for `sketch` (the same rule as `candidates`). */
  batchCandidates(table: SketchKeyTable, sketch: Uint32Array, into: Set<number>): void {
    const list = this.#list;
    list.clear();
    table.candidates(sketch, list, this.options.minSharedKeys);
    for (let i = 0; i < list.count; i++) into.add(list.ids[i]!);
  }
}

/** A sketch row as read back from PostgreSQL (bytea → Buffer). */
export function sketchRowFrom(hi: number, lo: number, url: string, bytes: Uint8Array, root: number): SketchRow {
  return { hi: hi >>> 0, lo: lo >>> 0, url, sketch: sketchFromBytes(bytes), root };
}

/**
 * Reads the sketch rows of `ids` (stored documents with a sketch), inside the check-and-insert
 * transaction: one query, only when some document has candidates.
 */
export async function readSketchRows(client: pg.Client, ids: Iterable<number>): Promise<Map<number, SketchRow>> {
  const list = [...ids];
  const out = new Map<number, SketchRow>();
  if (list.length === 0) return out;
  for (const id of list) if (!Number.isSafeInteger(id)) throw new Error(`not an id: ${id}`);
  const { rows } = await client.query({
    text: `SELECT d.id::float8, ((d.fingerprint >> 32) & 4294967295)::float8, (d.fingerprint & 4294967295)::float8, coalesce(m.url, d.url), s.sketch,
                  coalesce(d.match_id, d.id)::float8
             FROM neardup_sketches s JOIN neardup_documents d ON d.id = s.id LEFT JOIN neardup_documents m ON m.id = d.match_id
            WHERE s.id = ANY('{${list.join(',')}}'::bigint[])`,
    rowMode: 'array',
  });
  for (const [id, hi, lo, url, bytes, root] of rows as [number, number, number, string, Buffer, number][]) out.set(id, sketchRowFrom(hi, lo, url, bytes, root));
  return out;
}
