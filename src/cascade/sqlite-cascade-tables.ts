/**
 * The cascade's tables in the SQLite index database (the index's own connection, so that their
 * writes commit in the index's write transaction, with the documents they belong to):
 *
 * cascade_records  (doc_id, record) — the record of every stored document the cascade saw
 *                  (cascade-record-codec.ts), added in the transaction that stored the document; its
 *                  URL is the document's (read joined with `documents`). Tables made by earlier
 *                  releases keep a `url` column of their own, still written and read there.
 * flags            (url, kind, doc_id, evidence) — every flag of a judged page, evidence as JSON.
 *
 * Both are created when missing (IF NOT EXISTS: an index made before them gets them on its first
 * open for writing); readers treat missing tables as empty. On open the records' sampled hashes are
 * loaded into the store's in-memory index (as the fingerprint index loads its table); each write
 * transaction first catches up with rows other processes added.
 */
import type Database from 'better-sqlite3';
import type { StoredCascadePage } from './cascade-store.js';
import { decodeCascadeHashes, decodeCascadeRecord, encodeCascadeRecord, storedPart } from './cascade-record-codec.js';
import type { FlagKey, FlagRow } from './flag-row.js';
import type { CascadeRecordSource, IndexedCascadeStore } from './indexed-cascade-store.js';

export const CASCADE_TABLES = [
  'CREATE TABLE IF NOT EXISTS cascade_records (doc_id INTEGER PRIMARY KEY, record BLOB NOT NULL)',
  'CREATE TABLE IF NOT EXISTS flags (url TEXT NOT NULL, kind TEXT NOT NULL, doc_id INTEGER, evidence TEXT NOT NULL, PRIMARY KEY (url, kind)) WITHOUT ROWID',
];

/** Whether a database has the flags table (an index made before the cascade was wired has not). */
export function hasFlagsTable(db: Database.Database): boolean {
  return db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'flags'").pluck().get() === 1;
}

/** Every flag row of a database, by URL then kind (none when the table is missing). */
export function readFlagRows(db: Database.Database): FlagRow[] {
  if (!hasFlagsTable(db)) return [];
  return db.prepare('SELECT url, doc_id AS docId, kind, evidence FROM flags ORDER BY url, kind').all() as FlagRow[];
}

/**
 * Decoded records kept (SqliteCascadeTables.#recent): ~9 KB each with their stems read (measured on
 * the 5,000 bench docs: +22 MB retained for 2,400 more records), so ≤ ~75 MB in all. 8,192 rather
 * than 2,048: ~11% less committing CPU on those docs (fewer rows read and decoded again; a source
 * is a candidate of ~10 pages), worth its ~55 MB.
 */
const RECENT = 8192;

/** Whether cascade_records has the `url` column of earlier releases. */
function hasUrlColumn(db: Database.Database): boolean {
  return (db.prepare('PRAGMA table_info(cascade_records)').all() as { name: string }[]).some((c) => c.name === 'url');
}

export class SqliteCascadeTables implements CascadeRecordSource {
  readonly #db: Database.Database;
  readonly #getRow: Database.Statement;
  readonly #putRow: Pick<Database.Statement, 'run'>;
  readonly #deleteRow: Database.Statement;
  readonly #newer: Database.Statement;
  readonly #putFlag: Database.Statement;
  readonly #deleteFlag: Database.Statement;
  /** Highest doc_id indexed into the store. */
  #lastSeen = 0;
  /**
   * Records stored or read lately, by id (least recently used first; at most RECENT): pages that share
   * paragraphs with one page tend to with the next ones too, and decoding a record costs more than
   * keeping it.
   */
  readonly #recent = new Map<number, StoredCascadePage>();

  /** Creates the tables when missing; `db` must be open for writing. */
  constructor(db: Database.Database) {
    this.#db = db;
    db.transaction(() => {
      for (const sql of CASCADE_TABLES) db.exec(sql);
    }).immediate();
    // The URL beside each record was ~35 bytes a stored document, a copy of the document's own (issue 25).
    const ownUrl = hasUrlColumn(db);
    this.#getRow = db.prepare(ownUrl
      ? 'SELECT url, record FROM cascade_records WHERE doc_id = ?'
      : 'SELECT d.url AS url, r.record AS record FROM cascade_records r JOIN documents d ON d.id = r.doc_id WHERE r.doc_id = ?');
    const insert = db.prepare(ownUrl ? 'INSERT OR REPLACE INTO cascade_records (doc_id, url, record) VALUES (?, ?, ?)' : 'INSERT OR REPLACE INTO cascade_records (doc_id, record) VALUES (?, ?)');
    this.#putRow = ownUrl ? insert : { run: (id: number, _url: string, record: Buffer) => insert.run(id, record) };
    this.#deleteRow = db.prepare('DELETE FROM cascade_records WHERE doc_id = ?');
    this.#newer = db.prepare('SELECT doc_id AS id, record FROM cascade_records WHERE doc_id > ? ORDER BY doc_id');
    this.#putFlag = db.prepare('INSERT OR REPLACE INTO flags (url, kind, doc_id, evidence) VALUES (?, ?, ?, ?)');
    this.#deleteFlag = db.prepare('DELETE FROM flags WHERE url = ? AND kind = ?');
  }

  /** Indexes into `store` the records added since the last call (all of them on the first). */
  catchUp(store: IndexedCascadeStore): void {
    for (const row of this.#newer.iterate(this.#lastSeen) as Iterable<{ id: number; record: Buffer }>) {
      store.index(row.id, decodeCascadeHashes(row.record));
      this.#lastSeen = row.id;
    }
  }

  get(id: number): StoredCascadePage | undefined {
    const kept = this.#recent.get(id);
    if (kept !== undefined) {
      // Moved to the newest end: a page that is a source of many pages stays (least recently used out).
      this.#recent.delete(id);
      this.#recent.set(id, kept);
      return kept;
    }
    const row = this.#getRow.get(id) as { url: string; record: Buffer } | undefined;
    if (row === undefined) return undefined;
    const page = { id, url: row.url, record: decodeCascadeRecord(row.record) };
    this.#keep(page);
    return page;
  }

  put(page: StoredCascadePage, bytes?: Uint8Array): void {
    const stored = storedPart(bytes ?? encodeCascadeRecord(page.record, false));
    this.#putRow.run(page.id, page.url, Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength));
    // Kept as get would read it back (a page stored now is often a candidate of the next pages): its
    // own copy of the stored part, not a view keeping the paragraphs' section alive.
    this.#recent.delete(page.id);
    this.#keep({ id: page.id, url: page.url, record: decodeCascadeRecord(stored.slice()) });
    if (page.id > this.#lastSeen) this.#lastSeen = page.id;
  }

  delete(id: number): void {
    this.#recent.delete(id);
    this.#deleteRow.run(id);
  }

  #keep(page: StoredCascadePage): void {
    this.#recent.set(page.id, page);
    if (this.#recent.size > RECENT) this.#recent.delete(this.#recent.keys().next().value!);
  }

  writeFlags(rows: readonly FlagRow[]): void {
    for (const r of rows) this.#putFlag.run(r.url, r.kind, r.docId, r.evidence);
  }

  removeFlags(keys: readonly FlagKey[]): void {
    for (const k of keys) this.#deleteFlag.run(k.url, k.kind);
  }
}
