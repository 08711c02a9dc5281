/**
 * Catching up with rows other writers committed, in a database where ids are not committed in id
 * order (transaction A takes id 10, B takes 11 and commits first: "id > last seen" would skip 10 for
 * good). Each row carries its inserting transaction id (`xid`); a statement's snapshot tells its xmin,
 * the oldest transaction still running when it was taken.
 *
 * Invariant: every committed row with xid < `horizon` is already in the table. It holds after the
 * initial load (horizon = the load snapshot's xmin: a row with a smaller xid was committed or rolled back
 * before the snapshot, so the load saw it). A catch-up reads, in one statement (one snapshot S), the rows
 * with xid ≥ horizon and S's xmin; afterwards every row with xid < xmin(S) was finished before S, hence
 * visible to S and read now (if xid ≥ horizon) or before (if not): horizon moves to xmin(S).
 * Rows read again (xid ≥ horizon, already added) are recognised by id in `recent`, which holds the
 * added rows with xid ≥ horizon and is pruned as the horizon moves. A transaction that stays open holds
 * the horizon back, and with several writers one always is open; so a catch-up leaves out the
 * transactions whose rows are already in the table (`seen`: the xids in `recent`): a transaction's rows
 * become visible all at once at its commit, so a transaction the table has one stored row of, it has
 * every row of (read in one snapshot, or this process's own commit). Only stored rows are read when
 * the second stage is off: the block table holds nothing else; with it on, rejected rows are read too,
 * flagged, for their sketches' heads (members of clusters, issue 25), and never enter the block table.
 */
import { sketchHeadSql } from './sketch-head.js';

/**
 * The statement: one row of (the new rows packed as bytes, the snapshot's xmin), both read in the
 * same snapshot. Each packed row is id, fingerprint and xid (8 bytes each, big-endian), one byte (1:
 * stored, 0: rejected), then the length of its sketch's head (int32, -1: none) and the head: with
 * `headBytes` > 0 (second stage on) a row with a sketch brings its head (sketch-head.ts) with at most
 * `headBytes` bytes of values. One value instead of a row per document: a few hundred rows
 * come back per catch-up with several writers, and formatting and parsing them one by one cost both sides
 * more than the rest of the statement.
 */
export function catchUpSql(horizon: number, headBytes = 0, seen: readonly number[] = []): string {
  if (!Number.isSafeInteger(horizon) || horizon < 0) throw new Error(`not a transaction id: ${horizon}`);
  if (!Number.isSafeInteger(headBytes) || headBytes < 0) throw new Error(`not a byte count: ${headBytes}`);
  for (const xid of seen) if (!Number.isSafeInteger(xid) || xid < 0) throw new Error(`not a transaction id: ${xid}`);
  const head = headBytes === 0 ? 'NULL::bytea' : `(SELECT ${sketchHeadSql('s.sketch', headBytes)} FROM neardup_sketches s WHERE s.id = d.id)`;
  const unseen = seen.length === 0 ? '' : ` AND xid <> ALL('{${seen.join(',')}}'::xid8[])`;
  // With the second stage, rejected rows come too (their heads: members of clusters), flagged.
  const kinds = headBytes === 0 ? " AND kind = 'stored'" : '';
  return `SELECT string_agg(int8send(id) || int8send(fingerprint) || int8send(xid::text::bigint) || set_byte('\\x00'::bytea, 0, stored::int)
    || int4send(coalesce(length(k), -1)) || coalesce(k, ''::bytea), ''::bytea),
  pg_snapshot_xmin(pg_current_snapshot())::text
FROM (SELECT id, fingerprint, xid, kind = 'stored' AS stored, ${head} AS k FROM neardup_documents d WHERE xid >= '${horizon}'::xid8${kinds}${unseen}) AS r`;
}

/** The xmin of the current statement's snapshot, and the rows a load with that snapshot saw near it. */
export const XMIN_SQL = `SELECT pg_snapshot_xmin(pg_current_snapshot())::text`;
export const RECENT_STORED_SQL = `SELECT id::float8, xid::text FROM neardup_documents WHERE xid >= $1::xid8`;

/** The catch-up statement's one row: packed rows (null: none), xmin. */
export type CatchUpRow = [rows: Buffer | null, xmin: string];

/** The horizon and the recently added rows above it (see the module comment). */
export class CatchUpWindow {
  #horizon: number;
  /** id → xid of rows added with xid ≥ horizon. */
  readonly #recent = new Map<number, number>();

  constructor(horizon: number) {
    this.#horizon = horizon;
  }

  get horizon(): number {
    return this.#horizon;
  }

  /** Notes a row added to the table (from the load, a catch-up, or this process's own commit). */
  added(id: number, xid: number): void {
    if (xid >= this.#horizon) this.#recent.set(id, xid);
  }

  /** The transactions (xid ≥ horizon) whose stored rows are all in the table (see the module comment). */
  get seen(): number[] {
    return [...new Set(this.#recent.values())];
  }

  /** True when the row is already in the table. */
  has(id: number): boolean {
    return this.#recent.has(id);
  }

  /** Applies a catch-up's result: calls `add` for each row not added yet (`stored`: not a rejected one; `head`: its sketch's), then moves the horizon. */
  apply(result: CatchUpRow, add: (id: number, hi: number, lo: number, head: Uint8Array | null, stored: boolean) => void): void {
    const [packed, xminText] = result;
    if (packed !== null) {
      const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
      for (let at = 0; at < packed.length;) {
        if (packed.length - at < 29 || view.getUint32(at) !== 0) throw new Error('catch-up rows are not (id < 2^32, fingerprint, xid, stored, sketch head)');
        const id = view.getUint32(at + 4);
        const xid = view.getUint32(at + 16) * 2 ** 32 + view.getUint32(at + 20);
        const stored = packed[at + 24] === 1;
        const length = view.getInt32(at + 25);
        const head = length < 0 ? null : packed.subarray(at + 29, at + 29 + length);
        if (!this.#recent.has(id)) {
          add(id, view.getUint32(at + 8), view.getUint32(at + 12), head, stored);
          this.#recent.set(id, xid);
        }
        at += 29 + Math.max(0, length);
      }
    }
    const xmin = Math.max(this.#horizon, Number(xminText));
    if (xmin === this.#horizon) return;
    this.#horizon = xmin;
    for (const [id, xid] of this.#recent) if (xid < xmin) this.#recent.delete(id);
  }
}
