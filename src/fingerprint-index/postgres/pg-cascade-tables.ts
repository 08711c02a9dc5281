/**
 * The cascade's tables on PostgreSQL, beside the index's (created when missing, IF NOT EXISTS):
 *
 * neardup_cascade_records (doc_id, url, record)      a stored document's cascade record (bytes made by
 *                                                      src/cascade/cascade-record-codec.ts)
 * neardup_flags           (url, kind, doc_id, evidence)  every flag of a judged page, evidence as jsonb
 *
 * Row-level only (this area does not know the cascade's types); src/cascade/buffered-cascade-persistence.ts
 * keeps the records in memory and writes here after each batch.
 */
import type pg from 'pg';
import { SETUP_LOCK_KEY } from './pg-schema.js';
import type { PgSession } from './pg-session.js';

/** A flag as stored: kind as text, evidence as JSON text. */
export interface PgFlagRow {
  readonly url: string;
  readonly docId: number | null;
  readonly kind: string;
  readonly evidence: string;
}

export interface PgCascadeRecordRow {
  readonly id: number;
  readonly url: string;
  readonly record: Uint8Array;
}

const TABLES = [
  'CREATE TABLE IF NOT EXISTS neardup_cascade_records (doc_id bigint PRIMARY KEY, url text NOT NULL, record bytea NOT NULL)',
  'CREATE TABLE IF NOT EXISTS neardup_flags (url text NOT NULL, kind text NOT NULL, doc_id bigint, evidence jsonb NOT NULL, PRIMARY KEY (url, kind))',
];

/** Rows per INSERT statement. */
const CHUNK = 200;

function placeholders(rows: number, columns: number): string {
  return Array.from({ length: rows }, (_, r) => `(${Array.from({ length: columns }, (_, c) => `$${r * columns + c + 1}`).join(', ')})`).join(', ');
}

export class PgCascadeTables {
  readonly #session: PgSession;

  private constructor(session: PgSession) {
    this.#session = session;
  }

  /** Creates the tables when missing (`readonly`: only reads, nothing created). */
  static async open(session: PgSession, readonly = false): Promise<PgCascadeTables> {
    if (!readonly) await session.transaction(async (client) => {
      // Serialised with the index's own setup: two processes creating a table at once collide in
      // pg_type even with IF NOT EXISTS.
      await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [SETUP_LOCK_KEY]);
      for (const sql of TABLES) await client.query(sql);
    });
    return new PgCascadeTables(session);
  }

  async recordRowsAfter(after: number): Promise<PgCascadeRecordRow[]> {
    return this.#session.run(async (client) => {
      const result = await client.query({ text: 'SELECT doc_id, url, record FROM neardup_cascade_records WHERE doc_id > $1 ORDER BY doc_id', values: [after], rowMode: 'array' });
      return (result.rows as [string | number, string, Buffer][]).map(([id, url, record]) => ({ id: Number(id), url, record }));
    });
  }

  async insertRecordRows(rows: readonly PgCascadeRecordRow[]): Promise<void> {
    await this.#insert(rows, 3, 'INSERT INTO neardup_cascade_records (doc_id, url, record) VALUES', 'ON CONFLICT (doc_id) DO UPDATE SET url = EXCLUDED.url, record = EXCLUDED.record',
      (r) => [r.id, r.url, Buffer.from(r.record.buffer, r.record.byteOffset, r.record.byteLength)]);
  }

  async insertFlagRows(rows: readonly PgFlagRow[]): Promise<void> {
    await this.#insert(rows, 4, 'INSERT INTO neardup_flags (url, kind, doc_id, evidence) VALUES', 'ON CONFLICT (url, kind) DO UPDATE SET doc_id = EXCLUDED.doc_id, evidence = EXCLUDED.evidence',
      (r) => [r.url, r.kind, r.docId, r.evidence]);
  }

  /** Removes the flags of these keys (a page judged again no longer has them). */
  async deleteFlagRows(keys: readonly Pick<PgFlagRow, 'url' | 'kind'>[]): Promise<void> {
    if (keys.length === 0) return;
    await this.#session.transaction(async (client) => {
      for (let at = 0; at < keys.length; at += CHUNK) {
        const chunk = keys.slice(at, at + CHUNK);
        await client.query(`DELETE FROM neardup_flags WHERE (url, kind) IN (${placeholders(chunk.length, 2)})`, chunk.flatMap((k) => [k.url, k.kind]));
      }
    });
  }

  /** Every flag, by URL then kind; null when the table is missing (an index the cascade never wrote to). */
  async flagRows(): Promise<PgFlagRow[] | null> {
    return this.#session.run(async (client: pg.Client) => {
      const exists = await client.query({ text: "SELECT to_regclass('neardup_flags') IS NOT NULL", rowMode: 'array' });
      if (exists.rows[0]?.[0] !== true) return null;
      const result = await client.query({ text: 'SELECT url, doc_id, kind, evidence::text FROM neardup_flags ORDER BY url, kind', rowMode: 'array' });
      return (result.rows as [string, string | number | null, string, string][]).map(([url, docId, kind, evidence]) => ({ url, docId: docId === null ? null : Number(docId), kind, evidence }));
    });
  }

  async #insert<T>(rows: readonly T[], columns: number, head: string, tail: string, values: (row: T) => unknown[]): Promise<void> {
    if (rows.length === 0) return;
    await this.#session.transaction(async (client) => {
      for (let at = 0; at < rows.length; at += CHUNK) {
        const chunk = rows.slice(at, at + CHUNK);
        await client.query(`${head} ${placeholders(chunk.length, columns)} ${tail}`, chunk.flatMap(values));
      }
    });
  }
}
