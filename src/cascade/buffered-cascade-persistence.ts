/**
 * Cascade persistence for an index behind a server (PostgreSQL): the stages run synchronously, so
 * the records of stored pages are kept in memory as their stored bytes (record-arena.ts; read on
 * open and caught up before each batch, `refresh`), and what a batch adds — records and flags — is written after the index's
 * transaction (`flush`), not in it: a crash between the two loses that batch's flags and records
 * (its documents stay; later pages are then not compared with them).
 */
import { encodeCascadeRecord, storedPart } from './cascade-record-codec.js';
import type { CascadePersistence } from './cascade-committer.js';
import type { StoredCascadePage } from './cascade-store.js';
import type { FlagKey, FlagRow } from './flag-row.js';
import type { IndexedCascadeStore } from './indexed-cascade-store.js';
import { RecordArena } from './record-arena.js';

/** A stored record as rows carry it. */
export interface CascadeRecordRow {
  readonly id: number;
  readonly url: string;
  readonly record: Uint8Array;
}

/** The tables of a server, row by row. */
export interface CascadeRowStore {
  /** Record rows with id > `after`, ascending. */
  recordRowsAfter(after: number): Promise<CascadeRecordRow[]>;
  insertRecordRows(rows: readonly CascadeRecordRow[]): Promise<void>;
  insertFlagRows(rows: readonly FlagRow[]): Promise<void>;
  deleteFlagRows(keys: readonly FlagKey[]): Promise<void>;
}

export class BufferedCascadePersistence implements CascadePersistence {
  readonly #rows: CascadeRowStore;
  readonly #memory = new RecordArena();
  #pendingRecords: CascadeRecordRow[] = [];
  /** Flag rows to write, and keys to remove (`row` null), in the order they came. */
  #pendingFlags: { readonly key: FlagKey; readonly row: FlagRow | null }[] = [];
  /** Ids of rows read from the server, not yet indexed into the store. */
  #unindexed: number[] = [];
  #lastSeen = 0;

  constructor(rows: CascadeRowStore) {
    this.#rows = rows;
  }

  /** Reads the records other writers added since the last call. */
  async refresh(): Promise<void> {
    for (const row of await this.#rows.recordRowsAfter(this.#lastSeen)) {
      this.#memory.put(row.id, row.url, storedPart(row.record));
      this.#unindexed.push(row.id);
      if (row.id > this.#lastSeen) this.#lastSeen = row.id;
    }
  }

  catchUp(store: IndexedCascadeStore): void {
    for (const id of this.#unindexed) {
      const hashes = this.#memory.hashesOf(id);
      if (hashes !== undefined) store.index(id, hashes);
    }
    this.#unindexed = [];
  }

  get(id: number): StoredCascadePage | undefined {
    return this.#memory.get(id);
  }

  put(page: StoredCascadePage, bytes?: Uint8Array): void {
    const stored = storedPart(bytes ?? encodeCascadeRecord(page.record, false)).slice();
    this.#memory.put(page.id, page.url, stored);
    this.#pendingRecords.push({ id: page.id, url: page.url, record: stored });
    if (page.id > this.#lastSeen) this.#lastSeen = page.id;
  }

  delete(id: number): void {
    this.#memory.delete(id);
  }

  writeFlags(rows: readonly FlagRow[]): void {
    for (const row of rows) this.#pendingFlags.push({ key: row, row });
  }

  removeFlags(keys: readonly FlagKey[]): void {
    for (const key of keys) this.#pendingFlags.push({ key, row: null });
  }

  /** Writes what was added since the last flush. */
  async flush(): Promise<void> {
    // One row per key: a page judged again in the same batch has a later flag row for the same
    // (url, kind), and one PostgreSQL upsert may not touch a row twice.
    const records = lastPerKey(this.#pendingRecords, (r) => String(r.id));
    const flags = lastPerKey(this.#pendingFlags, ({ key }) => `${key.kind}\n${key.url}`);
    this.#pendingRecords = [];
    this.#pendingFlags = [];
    const written = flags.flatMap(({ row }) => (row === null ? [] : [row]));
    const removed = flags.flatMap(({ key, row }) => (row === null ? [key] : []));
    if (records.length > 0) await this.#rows.insertRecordRows(records);
    if (written.length > 0) await this.#rows.insertFlagRows(written);
    if (removed.length > 0) await this.#rows.deleteFlagRows(removed);
  }
}

/** The rows, only the last of each key kept, in the order of those last rows. */
function lastPerKey<T>(rows: readonly T[], keyOf: (row: T) => string): T[] {
  const last = new Map<string, T>();
  for (const row of rows) {
    const key = keyOf(row);
    last.delete(key);
    last.set(key, row);
  }
  return [...last.values()];
}
