/**
 * Reads every stored fingerprint of a PostgreSQL index with one COPY (binary, no ORDER BY: a plain
 * sequential scan; sorting 10M rows by id, or walking the id index, took the server twice as long), no
 * query per row. Rows are parsed off the socket (copy-fingerprints.ts) straight into arrays indexed by
 * id, so they come out in ascending id order without sorting, and no per-row memory is allocated.
 */
import type pg from 'pg';
import type { BlockLayout } from '../block-layout.js';
import { bucketCountsLength, countRows } from '../bucket-counts.js';
import { suitsPairedTable } from '../paired-block-table.js';
import { copyFingerprints } from './copy-fingerprints.js';
import { copyIdBytes } from './copy-sketch-keys.js';
import { RECENT_STORED_SQL, XMIN_SQL } from './pg-catch-up.js';
import { sketchHeadSql } from './sketch-head.js';

/** The stored rows, by id, with the snapshot they were read under. */
export interface StoredRows {
  readonly count: number;
  /** The highest stored id (0: none). */
  readonly maxId: number;
  /** his[id], los[id]: the fingerprint of stored document `id` (arrays longer than maxId + 1, for growth). */
  readonly his: Uint32Array;
  readonly los: Uint32Array;
  /** present[id] = 1 for a stored id. */
  readonly present: Uint8Array;
  /** The load snapshot's xmin (the catch-up horizon). */
  readonly horizon: number;
  /** Stored rows of the load with xid ≥ horizon: [id, xid]. */
  readonly recent: ReadonlyArray<readonly [number, number]>;
  /**
   * The PairedBlockTable's bucket counts of the rows, counted while the COPY streams in (so the table
   * is then built in one pass over the rows instead of two); null for layouts that table does not serve.
   */
  readonly counts: Uint32Array | null;
}

/** Rows counted into the bucket counts at a time (bounded scratch). */
const COUNT_CHUNK = 1 << 16;

/** Arrays by id, grown when an id beyond them comes (the sequence's value sizes them first). */
class ById {
  his: Uint32Array;
  los: Uint32Array;
  present: Uint8Array;
  count = 0;
  maxId = 0;
  constructor(capacity: number) {
    this.his = new Uint32Array(capacity);
    this.los = new Uint32Array(capacity);
    this.present = new Uint8Array(capacity);
  }
  grow(id: number): void {
    const length = Math.max(id + 1, Math.ceil(this.his.length * 1.5));
    const his = new Uint32Array(length);
    const los = new Uint32Array(length);
    const present = new Uint8Array(length);
    his.set(this.his);
    los.set(this.los);
    present.set(this.present);
    this.his = his;
    this.los = los;
    this.present = present;
  }
}

/**
 * Where a load's sketches go (the second stage on): each stored sketch's row fingerprint and head
 * (sketch-head.ts) with at most `headBytes` bytes of values; `head` is valid during the call only.
 */
export interface SketchHeadSink {
  readonly headBytes: number;
  add(id: number, hi: number, lo: number, head: Uint8Array): void;
}

/**
 * Loads every stored row under one REPEATABLE READ snapshot (so the horizon and the rows agree), and
 * with `sketchHeads` the stored sketches' heads under the same snapshot.
 */
export async function loadStoredRows(client: pg.Client, layout: BlockLayout, sketchHeads: SketchHeadSink | null = null): Promise<StoredRows> {
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    const horizon = Number((await client.query({ text: XMIN_SQL, rowMode: 'array' })).rows[0][0]);
    // The sequence is not transactional: its value bounds every id this snapshot can see.
    const { rows: seq } = await client.query({ text: 'SELECT last_value::float8 FROM neardup_documents_id_seq', rowMode: 'array' });
    const rows = new ById(Math.max(1024, Math.ceil((Number(seq[0]?.[0] ?? 0) + 1) * 1.25)));
    const counts = suitsPairedTable(layout) ? new Uint32Array(bucketCountsLength(layout)) : null;
    const chunkHi = new Uint32Array(counts === null ? 0 : COUNT_CHUNK);
    const chunkLo = new Uint32Array(chunkHi.length);
    let chunked = 0;
    const countChunk = () => {
      const n = chunked;
      countRows(layout, (visit) => {
        for (let i = 0; i < n; i++) visit(0, chunkHi[i]!, chunkLo[i]!);
      }, counts!);
      chunked = 0;
    };
    await copyFingerprints(
      client,
      `COPY (SELECT id, fingerprint FROM neardup_documents WHERE kind = 'stored') TO STDOUT (FORMAT binary)`,
      (id, hi, lo) => {
        if (id >= rows.his.length) rows.grow(id);
        if (rows.present[id] === 1) throw new Error(`COPY gave id ${id} twice`);
        rows.his[id] = hi;
        rows.los[id] = lo;
        rows.present[id] = 1;
        rows.count++;
        if (id > rows.maxId) rows.maxId = id;
        if (counts === null) return;
        chunkHi[chunked] = hi;
        chunkLo[chunked] = lo;
        if (++chunked === COUNT_CHUNK) countChunk();
      },
    );
    if (counts !== null && chunked > 0) countChunk();
    if (sketchHeads !== null) {
      // Each row's fingerprint (8 bytes, big-endian) before its head: a member of a cluster is not in the COPY above.
      await copyIdBytes(
        client,
        `COPY (SELECT s.id, int8send(d.fingerprint) || ${sketchHeadSql('s.sketch', sketchHeads.headBytes)}
                FROM neardup_sketches s JOIN neardup_documents d ON d.id = s.id) TO STDOUT (FORMAT binary)`,
        (id, bytes) => {
          if (bytes.length < 8) throw new Error(`COPY row ${id} without its fingerprint`);
          const hi = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
          const lo = ((bytes[4]! << 24) | (bytes[5]! << 16) | (bytes[6]! << 8) | bytes[7]!) >>> 0;
          sketchHeads.add(id, hi, lo, bytes.subarray(8));
        },
      );
    }
    const recentRows = (await client.query({ text: RECENT_STORED_SQL, values: [String(horizon)], rowMode: 'array' })).rows as [number, string][];
    await client.query('COMMIT');
    return {
      count: rows.count, maxId: rows.maxId, his: rows.his, los: rows.los, present: rows.present, horizon,
      recent: recentRows.map(([id, xid]) => [id, Number(xid)] as const),
      counts,
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
