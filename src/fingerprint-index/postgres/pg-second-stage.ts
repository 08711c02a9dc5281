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
 * head of each sketch (sketch-head.ts: its first max(candidateKeys, PREFIX) values and its length) and
 * its row's fingerprint, and caught up with other writers' rows like the block table. As on SQLite, a
 * lookup drops in memory the candidates beyond K and those whose first PREFIX values show verifySimilar
 * cannot confirm them (sketch-prefix-bound.ts; on a 60,000-document corpus ~120 candidates a lookup
 * became ~1.3, same decisions: the bound only drops what verifySimilar refuses). The whole sketches of
 * the candidates left are read inside the check-and-insert transaction, only when there are some.
 * Memory: the bound's values and lengths add ~140 bytes a stored sketch (stored documents and members)
 * to each process's table, besides its keys; the open's COPY and each catch-up bring ~4 · PREFIX + 12
 * bytes a sketch instead of 4 · candidateKeys (the COPY joins neardup_documents for members' fingerprints).
 *
 * Locks (lock-keys.ts has the k rule's argument). A document also takes one advisory lock per sketch
 * key it is filed and looked up under (its first `candidateKeys` values). The second stage lists a
 * stored X for a new Y only if X was filed under a key Y looks up, i.e. X and Y share a key among both
 * their first `candidateKeys` values; then both took that key's lock, so one transaction waited for the
 * other's end and then, its catch-up reading the committed row after its locks, had the other's keys in
 * its table (with its head and fingerprint, so the bound judges it as SQLite would). Hence two
 * documents the second stage would match are never both stored, with any number of writers, as for the
 * k rule. The bound and K only narrow the list to what verifySimilar may confirm, so the locks stay
 * those of the keys (keysOf), not of the head's other values. (The table reads every document of a
 * key, pairs of keys by default, as on SQLite; see SketchKeyTable.)
 */
import type pg from 'pg';
import { popcount32 } from '../../fingerprint/fingerprint-codec.js';
import { sketchFromBytes } from '../../fingerprint/shingle-sketch.js';
import { verifySimilar } from '../../fingerprint/verify-similar.js';
import { IdList } from '../id-list.js';
import { betterMatch, type SecondStageOptions, type SimilarMatch } from '../second-stage.js';
import { PREFIX, SketchKeyTable } from '../sketch-key-table.js';
import { HEAD_LENGTH_BYTES, headValues, readSketchHead } from './sketch-head.js';

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
  readonly #table: SketchKeyTable;
  readonly #list = new IdList();
  /** Per-length views of one scratch array, for filing loaded heads without an array per row. */
  readonly #scratch: Uint32Array[];

  constructor(options: SecondStageOptions) {
    this.options = options;
    this.#table = this.#newTable();
    const scratch = new Uint32Array(this.#headValues);
    this.#scratch = Array.from({ length: scratch.length + 1 }, (_, n) => scratch.subarray(0, n));
  }

  /** Values of a sketch's head the table needs: its keys, and the first values its bound keeps. */
  get #headValues(): number {
    return Math.max(this.options.candidateKeys, PREFIX);
  }

  /** Bytes of a sketch's values its head brings (sketch-head.ts). */
  get headBytes(): number {
    return 4 * this.#headValues;
  }

  /** The values a document is filed and looked up under (its lock keys): its first `candidateKeys`, no more. */
  keysOf(sketch: Uint32Array): Uint32Array {
    return sketch.subarray(0, Math.min(this.options.candidateKeys, sketch.length));
  }

  /** Files a committed document (stored, or a member of a cluster) of fingerprint (hi, lo) by its whole sketch. */
  add(id: number, hi: number, lo: number, sketch: Uint32Array): void {
    this.#table.add(id, sketch, hi, lo);
  }

  /** Files a committed document of fingerprint (hi, lo) by its sketch's head as read back (sketch-head.ts). */
  addHead(id: number, hi: number, lo: number, head: Uint8Array): void {
    const values = this.#scratch[headValues(head)];
    if (values === undefined) throw new Error(`a sketch head of ${head.length} bytes, at most ${HEAD_LENGTH_BYTES + this.headBytes} expected`);
    const length = readSketchHead(head, values);
    this.#table.add(id, values, hi, lo, length);
  }

  /** Adds to `into` the stored ids the key table lists for the document (hi, lo, sketch: the whole sketch). */
  candidates(sketch: Uint32Array, hi: number, lo: number, into: Set<number>): void {
    this.batchCandidates(this.#table, sketch, hi, lo, into);
  }

  /** Candidates the bound dropped in the lookups of `candidates` so far. */
  get dropped(): number {
    return this.#table.dropped;
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

  /**
   * A key table of one batch's stored documents (the batch's own rows are looked up like stored ones),
   * filed by their whole sketches and fingerprints (SketchKeyTable.add), with the bound.
   */
  batchTable(): SketchKeyTable {
    return this.#newTable();
  }

  /**
   * Adds to `into` the ids `table` lists for the document (hi, lo, sketch: the whole sketch): sharing
   * `minSharedKeys` keys, within K, let through by the bound (the rule of `candidates`).
   */
  batchCandidates(table: SketchKeyTable, sketch: Uint32Array, hi: number, lo: number, into: Set<number>): void {
    const list = this.#list;
    list.clear();
    // Beyond K or refused by the bound: verifySimilar would refuse it, so the decision is the same unread.
    table.candidates(sketch, list, this.options.minSharedKeys, hi, lo, this.options.maxDistance);
    for (let i = 0; i < list.count; i++) into.add(list.ids[i]!);
  }

  /** A table filing documents under their first `candidateKeys` values, with the bound on (`verify`). */
  #newTable(): SketchKeyTable {
    return new SketchKeyTable({ keys: this.options.candidateKeys, minShared: this.options.minSharedKeys, verify: this.options });
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
