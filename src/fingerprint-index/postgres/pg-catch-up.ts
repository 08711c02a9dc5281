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
 * every stored row of (read in one snapshot, or this process's own commit). Only stored rows are read:
 * the table holds nothing else.
 */

/**
 * The statement: rows with xid ≥ horizon, then one row (null id) carrying the snapshot's xmin. With
 * `keyBytes` > 0 (second stage on), a stored row also brings its sketch's first `keyBytes` bytes.
 */
export function catchUpSql(horizon: number, keyBytes = 0, seen: readonly number[] = []): string {
  if (!Number.isSafeInteger(horizon) || horizon < 0) throw new Error(`not a transaction id: ${horizon}`);
  if (!Number.isSafeInteger(keyBytes) || keyBytes < 0) throw new Error(`not a byte count: ${keyBytes}`);
  for (const xid of seen) if (!Number.isSafeInteger(xid) || xid < 0) throw new Error(`not a transaction id: ${xid}`);
  const keys = keyBytes === 0 ? 'NULL::bytea' : `(SELECT substring(s.sketch from 1 for ${keyBytes}) FROM neardup_sketches s WHERE s.id = d.id)`;
  const unseen = seen.length === 0 ? '' : ` AND xid <> ALL('{${seen.join(',')}}'::xid8[])`;
  return `SELECT id::float8, true, ((fingerprint >> 32) & 4294967295)::float8, (fingerprint & 4294967295)::float8, xid::text, ${keys}
  FROM neardup_documents d WHERE xid >= '${horizon}'::xid8 AND kind = 'stored'${unseen}
UNION ALL
SELECT NULL, NULL, NULL, NULL, pg_snapshot_xmin(pg_current_snapshot())::text, NULL::bytea`;
}

/** The xmin of the current statement's snapshot, and the rows a load with that snapshot saw near it. */
export const XMIN_SQL = `SELECT pg_snapshot_xmin(pg_current_snapshot())::text`;
export const RECENT_STORED_SQL = `SELECT id::float8, xid::text FROM neardup_documents WHERE xid >= $1::xid8 AND kind = 'stored'`;

export type CatchUpRow = [id: number | null, stored: boolean | null, hi: number | null, lo: number | null, xid: string, keys: Uint8Array | null];

/** The horizon and the recently added rows above it (see the module comment). */
export class CatchUpWindow {
  #horizon: number;
  /** id → xid of stored rows added with xid ≥ horizon. */
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

  /** Applies a catch-up's result: calls `add` for each stored row not added yet, then moves the horizon. */
  apply(rows: readonly CatchUpRow[], add: (id: number, hi: number, lo: number, keys: Uint8Array | null) => void): void {
    let xmin = this.#horizon;
    for (const [id, stored, hi, lo, xid, keys] of rows) {
      if (id === null) {
        xmin = Math.max(xmin, Number(xid));
        continue;
      }
      if (stored !== true || this.#recent.has(id)) continue;
      add(id, hi!, lo!, keys);
      this.#recent.set(id, Number(xid));
    }
    if (xmin === this.#horizon) return;
    this.#horizon = xmin;
    for (const [id, xid] of this.#recent) if (xid < xmin) this.#recent.delete(id);
  }
}
