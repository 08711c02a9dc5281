/**
 * The decisions of one check-and-insert transaction, made in memory once its locks are held and the
 * in-memory table has caught up: the same rules, in the same order, as the SQLite index (#judge there):
 * a URL already recorded gets its earlier decision; a null fingerprint is skipped 'no-text'; else the
 * document is stored unless a stored one lies within k: an exact duplicate (distance 0, same text hash)
 * first, else the nearest (ties: the lowest id). Documents earlier in the batch count as stored ones.
 * Whether a document is stored needs no query; only the kind and the matched URL of a rejected one
 * need the text hash and URL of matched rows from the database (one query for the batch: `needed`).
 */
import { popcount32 } from '../../fingerprint/fingerprint-codec.js';
import type { Decision, IndexCandidate } from '../../types.js';
import type { MemoryFingerprints, NearMatch } from './memory-fingerprints.js';

/** A row to insert into neardup_documents. */
export interface PlannedRow {
  readonly id: number;
  kind: 'stored' | 'exact' | 'near';
  readonly doc: IndexCandidate;
  readonly hi: number;
  readonly lo: number;
  distance: number | null;
  matchId: number | null;
}

/** A matched row's URL and text hash. */
export interface MatchedRow {
  readonly url: string;
  readonly textHash: string;
}

interface Rejection {
  readonly row: PlannedRow;
  readonly matches: readonly NearMatch[];
}

export class BatchJudge {
  /** Rows to insert, in batch order. */
  readonly rows: PlannedRow[] = [];
  /** URLs to record as skipped 'no-text'. */
  readonly skips: string[] = [];
  /** Ids of database rows whose URL and text hash the decisions need. */
  readonly needed = new Set<number>();
  /** The rows this batch stores (added to memory once committed). */
  readonly stored: PlannedRow[] = [];
  readonly #decisions: Array<Decision | PlannedRow> = [];
  readonly #rejections: Rejection[] = [];
  readonly #batchRows = new Map<number, PlannedRow>();

  /**
   * Pass 1. `prior`: decisions recorded before this transaction, by URL. `ids`: ids allocated for this
   * transaction, ascending, at least one per document.
   */
  constructor(docs: readonly IndexCandidate[], prior: ReadonlyMap<string, Decision>, ids: readonly number[], memory: MemoryFingerprints) {
    const firstByUrl = new Map<string, number>();
    let nextId = 0;
    for (const doc of docs) {
      const earlier = prior.get(doc.url) ?? this.#decisions[firstByUrl.get(doc.url) ?? -1];
      if (earlier !== undefined) {
        this.#decisions.push(earlier);
        continue;
      }
      firstByUrl.set(doc.url, this.#decisions.length);
      if (doc.fingerprint === null) {
        this.skips.push(doc.url);
        this.#decisions.push({ kind: 'skipped', reason: 'no-text' });
        continue;
      }
      const hi = doc.fingerprint.hi >>> 0;
      const lo = doc.fingerprint.lo >>> 0;
      const row: PlannedRow = { id: ids[nextId++]!, kind: 'stored', doc, hi, lo, distance: null, matchId: null };
      const matches = memory.matches(hi, lo);
      for (const s of this.stored) {
        const distance = popcount64(s.hi ^ hi, s.lo ^ lo);
        if (distance <= memory.k) matches.push({ id: s.id, distance });
      }
      this.rows.push(row);
      this.#batchRows.set(row.id, row);
      this.#decisions.push(row);
      if (matches.length === 0) {
        this.stored.push(row);
        continue;
      }
      row.kind = 'near';
      this.#rejections.push({ row, matches });
      for (const m of matches) if (!this.#batchRows.has(m.id)) this.needed.add(m.id);
    }
  }

  /** Pass 2: given the `needed` rows, sets each rejection's kind and match; returns the decisions. */
  finish(matched: ReadonlyMap<number, MatchedRow>): Decision[] {
    const urls = new Map<number, string>();
    for (const { row, matches } of this.#rejections) {
      let best: NearMatch | null = null;
      let exact = false;
      for (const m of matches) {
        const other = this.#batchRows.get(m.id);
        const info = other === undefined ? matched.get(m.id) : { url: other.doc.url, textHash: other.doc.textHash };
        if (info === undefined) throw new Error(`matched row ${m.id} was not read back`);
        urls.set(m.id, info.url);
        if (m.distance === 0 && info.textHash === row.doc.textHash) {
          best = m;
          exact = true;
          break;
        }
        if (best === null || m.distance < best.distance || (m.distance === best.distance && m.id < best.id)) best = m;
      }
      row.kind = exact ? 'exact' : 'near';
      row.distance = best!.distance;
      row.matchId = best!.id;
    }
    return this.#decisions.map((d) => {
      if (!('doc' in d)) return d;
      if (d.kind === 'stored') return { kind: 'stored', id: d.id };
      const base = { id: d.id, matchId: d.matchId!, matchUrl: urls.get(d.matchId!)! };
      return d.kind === 'exact' ? { kind: 'exact', ...base, distance: 0 } : { kind: 'near', ...base, distance: d.distance! };
    });
  }
}

function popcount64(hi: number, lo: number): number {
  return popcount32(hi >>> 0) + popcount32(lo >>> 0);
}
