/**
 * The decisions of one check-and-insert transaction, made in memory once its locks are held and the
 * in-memory table has caught up: the same rules, in the same order, as the SQLite index (document-judge.ts):
 * a URL already recorded gets its earlier decision; a null fingerprint is skipped 'no-text'; else the
 * document is stored unless a stored one lies within k: an exact duplicate (distance 0, same text hash)
 * first, else the nearest (ties: the lowest id). Documents earlier in the batch count as stored ones.
 *
 * No query is needed to decide: whether a document is stored, and which stored document it matches,
 * depend on fingerprints only. Two stored documents are never within k of each other, so at most one
 * lies at distance 0 from a document: when there is one it is both the exact candidate and the
 * nearest, and the text hash only decides the kind (exact or near). For a match in the database that
 * comparison, and the matched URL, are left to the insert statement (`checkExact`, pg-batch-sql.ts).
 *
 * With the second stage (`second`), a document the k rule did not match is compared with the stored
 * documents its sketch keys list and the bound lets through (pg-second-stage.ts): those of the
 * database, whose sketches the transaction has read into `second.rows`, and those stored earlier in
 * this batch; the best confirmed one makes it `similar`, as on SQLite.
 */
import { popcount32 } from '../../fingerprint/fingerprint-codec.js';
import type { Decision, IndexCandidate } from '../../types.js';
import { betterMatch, type SimilarMatch } from '../second-stage.js';
import type { SketchKeyTable } from '../sketch-key-table.js';
import type { MemoryFingerprints, NearMatch } from './memory-fingerprints.js';
import type { PgSecondStage, SketchRow } from './pg-second-stage.js';

/** The second stage of one batch: the stage, and the sketches of the database candidates. */
export interface BatchSecondStage {
  readonly stage: PgSecondStage;
  readonly rows: ReadonlyMap<number, SketchRow>;
}

/** A row to insert into neardup_documents. */
export interface PlannedRow {
  readonly id: number;
  kind: 'stored' | 'exact' | 'near' | 'similar';
  readonly doc: IndexCandidate;
  readonly hi: number;
  readonly lo: number;
  distance: number | null;
  matchId: number | null;
  /** The match is a database row at distance 0: the insert makes the kind 'exact' when its text hash is equal. */
  checkExact: boolean;
  /** The matched URL when the match is in this batch or `similar` (else read back by the insert). */
  matchUrl: string | null;
  /** The second stage's estimates (kind `similar`). */
  similarity: number | null;
  containment: number | null;
}

/** What the insert statement says of a rejected row whose match is in the database. */
export interface InsertedRow {
  readonly kind: 'exact' | 'near';
  readonly matchUrl: string;
}

export class BatchJudge {
  /** Rows to insert, in batch order. */
  readonly rows: PlannedRow[] = [];
  /** URLs to record as skipped 'no-text'. */
  readonly skips: string[] = [];
  /** The rows this batch stores (added to memory once committed). */
  readonly stored: PlannedRow[] = [];
  readonly #decisions: Array<Decision | PlannedRow> = [];
  /** Positions of #decisions that repeat an earlier decision on the URL. */
  readonly #repeatedAt = new Set<number>();
  readonly #second: BatchSecondStage | null;
  /** The batch's stored rows with sketches: their key table (by whole sketches, with the bound), and their sketch rows by id. */
  readonly #batchKeys: SketchKeyTable | null;
  readonly #batchSketches = new Map<number, SketchRow>();

  /**
   * `prior`: decisions recorded before this transaction, by URL. `ids`: ids allocated for this
   * transaction, ascending, at least one per document with a fingerprint.
   */
  constructor(
    docs: readonly IndexCandidate[], prior: ReadonlyMap<string, Decision>, ids: readonly number[], memory: MemoryFingerprints,
    second: BatchSecondStage | null = null,
  ) {
    this.#second = second;
    this.#batchKeys = second === null ? null : second.stage.batchTable();
    const firstByUrl = new Map<string, number>();
    let nextId = 0;
    for (const doc of docs) {
      const earlier = prior.get(doc.url) ?? this.#decisions[firstByUrl.get(doc.url) ?? -1];
      if (earlier !== undefined) {
        // As the SQLite index answers: the earlier decision, marked repeated (nothing new written).
        this.#repeatedAt.add(this.#decisions.length);
        this.#decisions.push(earlier);
        continue;
      }
      firstByUrl.set(doc.url, this.#decisions.length);
      if (doc.fingerprint === null) {
        this.skips.push(doc.url);
        this.#decisions.push({ kind: 'skipped', reason: 'no-text' });
        continue;
      }
      const row = this.#judge(doc, ids[nextId++]!, memory);
      this.rows.push(row);
      this.#decisions.push(row);
      if (row.kind === 'stored') this.stored.push(row);
      this.#addSketch(row);
    }
  }

  /** Files a stored row, or a member of a cluster (as its stored document's), for later documents of the batch. */
  #addSketch(row: PlannedRow): void {
    const sketch = row.doc.sketch;
    if (this.#second === null || sketch === undefined || sketch === null) return;
    // A member stands for its cluster's stored document. That document's URL is not known here when
    // it is a database row matched by the k rule (the insert reads it back): '' then, and a later
    // `similar` match through the member asks the insert for it too (matchUrl null).
    const root = row.kind === 'stored' ? row.id : row.matchId!;
    const url = row.kind === 'stored' ? row.doc.url : row.matchUrl ?? '';
    this.#batchKeys!.add(row.id, sketch, row.hi, row.lo);
    this.#batchSketches.set(row.id, { hi: row.hi, lo: row.lo, url, sketch, root });
  }

  /** The second stage's match for a document the k rule did not match, or null. */
  #similar(doc: IndexCandidate, hi: number, lo: number): SimilarMatch | null {
    const sketch = doc.sketch;
    if (this.#second === null || sketch === undefined || sketch === null) return null;
    const { stage, rows } = this.#second;
    const inDatabase = new Set<number>();
    stage.candidates(sketch, hi, lo, inDatabase);
    const inBatch = new Set<number>();
    stage.batchCandidates(this.#batchKeys!, sketch, hi, lo, inBatch);
    const a = stage.best(hi, lo, sketch, inDatabase, rows);
    const b = stage.best(hi, lo, sketch, inBatch, this.#batchSketches);
    if (a === null || b === null) return a ?? b;
    // As one pass over both would choose (betterMatch: a batch member's stored document may be a database row).
    return betterMatch(b, a) ? b : a;
  }

  #judge(doc: IndexCandidate, id: number, memory: MemoryFingerprints): PlannedRow {
    const hi = doc.fingerprint!.hi >>> 0;
    const lo = doc.fingerprint!.lo >>> 0;
    const row: PlannedRow = {
      id, kind: 'stored', doc, hi, lo, distance: null, matchId: null, checkExact: false, matchUrl: null, similarity: null, containment: null,
    };
    let best: NearMatch | null = null;
    let inBatch: PlannedRow | null = null;
    for (const m of memory.matches(hi, lo)) {
      if (best === null || m.distance < best.distance || (m.distance === best.distance && m.id < best.id)) best = m;
    }
    // Rows of this batch have higher ids than every database row, and ascend in batch order.
    for (const s of this.stored) {
      const distance = popcount64(s.hi ^ hi, s.lo ^ lo);
      if (distance <= memory.k && (best === null || distance < best.distance)) {
        best = { id: s.id, distance };
        inBatch = s;
      }
    }
    if (best === null) {
      const similar = this.#similar(doc, hi, lo);
      if (similar === null) return row;
      Object.assign(row, {
        kind: 'similar', distance: similar.distance, matchId: similar.id, matchUrl: similar.url === '' ? null : similar.url,
        similarity: similar.similarity, containment: similar.containment,
      });
      return row;
    }
    row.distance = best.distance;
    row.matchId = best.id;
    if (inBatch !== null) {
      row.matchUrl = inBatch.doc.url;
      row.kind = best.distance === 0 && inBatch.doc.textHash === doc.textHash ? 'exact' : 'near';
    } else {
      row.kind = 'near';
      row.checkExact = best.distance === 0;
    }
    return row;
  }

  /** The decisions, given what the insert said of rows matched in the database (by row id). */
  decisions(inserted: ReadonlyMap<number, InsertedRow>): Decision[] {
    return this.#decisions.map((d, i) => {
      const decision = this.#decisionOf(d, inserted);
      return this.#repeatedAt.has(i) ? { ...decision, repeated: true } : decision;
    });
  }

  #decisionOf(d: Decision | PlannedRow, inserted: ReadonlyMap<number, InsertedRow>): Decision {
    {
      if (!('doc' in d)) return d;
      if (d.kind === 'stored') return { kind: 'stored', id: d.id };
      if (d.kind === 'similar') {
        const matchUrl = d.matchUrl ?? inserted.get(d.id)?.matchUrl;
        if (matchUrl === undefined) throw new Error(`the insert did not return row ${d.id}`);
        return { kind: 'similar', id: d.id, matchId: d.matchId!, matchUrl, distance: d.distance!, similarity: d.similarity!, containment: d.containment! };
      }
      const back = d.matchUrl === null ? inserted.get(d.id) : undefined;
      if (d.matchUrl === null && back === undefined) throw new Error(`the insert did not return row ${d.id}`);
      const kind = back?.kind ?? d.kind;
      const base = { id: d.id, matchId: d.matchId!, matchUrl: d.matchUrl ?? back!.matchUrl };
      return kind === 'exact' ? { kind: 'exact', ...base, distance: 0 } : { kind: 'near', ...base, distance: d.distance! };
    }
  }
}

function popcount64(hi: number, lo: number): number {
  return popcount32(hi >>> 0) + popcount32(lo >>> 0);
}
