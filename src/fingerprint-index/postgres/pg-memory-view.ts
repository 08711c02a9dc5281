/**
 * A PostgreSQL index's in-memory view: this process's table of the stored fingerprints
 * (MemoryFingerprints), the second stage's key table (PgSecondStage) when it is on, and the catch-up
 * window (pg-catch-up.ts) that keeps them in step with the rows other writers commit. Built from one
 * streamed COPY (load-stored-rows.ts); this process's own rows join it only after their transaction
 * committed.
 */
import type pg from 'pg';
import type { Decision, IndexCandidate } from '../../types.js';
import type { BlockLayout } from '../block-layout.js';
import type { SecondStageOptions } from '../second-stage.js';
import type { PlannedRow } from './batch-judge.js';
import { loadStoredRows } from './load-stored-rows.js';
import { MemoryFingerprints } from './memory-fingerprints.js';
import { CatchUpWindow, catchUpSql, type CatchUpRow } from './pg-catch-up.js';
import { PgSecondStage, readSketchRows, type SketchRow } from './pg-second-stage.js';
import type { PgSession } from './pg-session.js';

export class PgMemoryView {
  readonly #layout: BlockLayout;
  readonly #verify: SecondStageOptions | null;
  #memory: MemoryFingerprints | null = null;
  #window: CatchUpWindow | null = null;
  #second: PgSecondStage | null = null;
  /** Sketch rows candidateSketches read, and candidates its lookups' bound dropped unread. */
  #sketchesRead = 0;
  #droppedUnread = 0;

  constructor(layout: BlockLayout, verify: SecondStageOptions | null) {
    this.#layout = layout;
    this.#verify = verify;
  }

  /** Bytes of the in-memory table (0 before it is built). */
  get byteLength(): number {
    return this.#memory?.byteLength ?? 0;
  }

  /** The second stage's key table, or null when it is off (or the view not built yet). */
  get second(): PgSecondStage | null {
    return this.#second;
  }

  /** Sketch rows read for the second stage, and candidates it dropped unread (in memory), since the view was made. */
  get sketchCounts(): { readonly read: number; readonly dropped: number } {
    return { read: this.#sketchesRead, dropped: this.#droppedUnread };
  }

  /** The catch-up window; only once built. */
  get window(): CatchUpWindow {
    return this.#window!;
  }

  /** The table, built from one COPY when it is not. */
  async ensure(session: PgSession): Promise<MemoryFingerprints> {
    if (this.#memory !== null) return this.#memory;
    let second: PgSecondStage | null = null;
    const rows = await session.run((client) => {
      // A fresh key table per attempt: a load cut short by a lost connection is run again from its start.
      second = this.#verify === null ? null : new PgSecondStage(this.#verify);
      const stage = second;
      return loadStoredRows(client, this.#layout, stage === null ? null : { headBytes: stage.headBytes, add: (id, hi, lo, head) => stage.addHead(id, hi, lo, head) });
    });
    this.#second = second;
    const memory = new MemoryFingerprints(this.#layout, rows);
    const window = new CatchUpWindow(rows.horizon);
    for (const [id, xid] of rows.recent) window.added(id, xid);
    this.#memory = memory;
    this.#window = window;
    return memory;
  }

  /** Drops the table (on close). */
  drop(): void {
    this.#memory = null;
  }

  /** Adds the rows other writers committed since this process last looked, in its own statement. */
  async catchUp(client: pg.Client): Promise<void> {
    const { rows } = await client.query<CatchUpRow>({ text: catchUpSql(this.#window!.horizon, this.#second?.headBytes ?? 0, this.#window!.seen), rowMode: 'array' });
    this.applyCatchUp(rows[0]!);
  }

  /** Adds the rows of a catch-up statement's result (the one of pg-batch-sql.ts's begin, or catchUp's). */
  applyCatchUp(result: CatchUpRow): void {
    const memory = this.#memory!;
    const second = this.#second;
    this.#window!.apply(result, (id, hi, lo, head, stored) => {
      if (stored) memory.add(id, hi, lo); // rejected rows come for the second stage's table only
      if (second !== null && head !== null) second.addHead(id, hi, lo, head);
    });
  }

  /**
   * The sketches of the stored documents the second stage lists for the batch's documents that no
   * stored fingerprint matches within k (read inside the transaction; none read when there are none).
   */
  async candidateSketches(client: pg.Client, docs: readonly IndexCandidate[], prior: ReadonlyMap<string, Decision>): Promise<Map<number, SketchRow>> {
    const second = this.#second!;
    const ids = new Set<number>();
    const dropped = second.dropped;
    for (const doc of docs) {
      const { fingerprint, sketch } = doc;
      if (fingerprint === null || sketch === undefined || sketch === null || prior.has(doc.url)) continue;
      const hi = fingerprint.hi >>> 0;
      const lo = fingerprint.lo >>> 0;
      if (this.#memory!.matches(hi, lo).length === 0) second.candidates(sketch, hi, lo, ids);
    }
    this.#droppedUnread += second.dropped - dropped;
    this.#sketchesRead += ids.size;
    return readSketchRows(client, ids);
  }

  /**
   * After a batch committed in transaction `xid`: its stored rows join `memory` (the table the batch was
   * judged against), and they and the members of clusters (`rows`, in batch order) the second stage's
   * table, by their sketches (pg-batch-sql.ts wrote them).
   */
  committed(memory: MemoryFingerprints, stored: readonly PlannedRow[], rows: readonly PlannedRow[], xid: number): void {
    const second = this.#second;
    for (const row of stored) {
      memory.add(row.id, row.hi, row.lo);
      if (second !== null && row.doc.sketch !== undefined && row.doc.sketch !== null) second.add(row.id, row.hi, row.lo, row.doc.sketch);
      this.#window!.added(row.id, xid);
    }
    for (const row of rows) {
      if (row.kind === 'stored') continue;
      if (second !== null && row.doc.sketch !== undefined && row.doc.sketch !== null) second.add(row.id, row.hi, row.lo, row.doc.sketch);
      this.#window!.added(row.id, xid);
    }
  }
}
