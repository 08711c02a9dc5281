/**
 * Cascade persistence for an index behind a server (PostgreSQL): the stages run synchronously, so
 * the records of stored pages are kept decoded in memory (read on open and caught up before each
 * batch, `refresh`), and what a batch adds — records and flags — is written after the index's
 * transaction (`flush`), not in it: a crash between the two loses that batch's flags and records
 * (its documents stay; later pages are then not compared with them).
 */
import { decodeCascadeRecord, encodeCascadeRecord, storedPart } from './cascade-record-codec.js';
import type { CascadePersistence } from './cascade-committer.js';
import type { StoredCascadePage } from './cascade-store.js';
import type { FlagRow } from './flag-row.js';
import { MemoryRecordSource, type IndexedCascadeStore } from './indexed-cascade-store.js';

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
}

export class BufferedCascadePersistence implements CascadePersistence {
  readonly #rows: CascadeRowStore;
  readonly #memory = new MemoryRecordSource();
  #pendingRecords: CascadeRecordRow[] = [];
  #pendingFlags: FlagRow[] = [];
  /** Rows read from the server, not yet indexed into the store. */
  #unindexed: StoredCascadePage[] = [];
  #lastSeen = 0;

  constructor(rows: CascadeRowStore) {
    this.#rows = rows;
  }

  /** Reads the records other writers added since the last call. */
  async refresh(): Promise<void> {
    for (const row of await this.#rows.recordRowsAfter(this.#lastSeen)) {
      const page = { id: row.id, url: row.url, record: decodeCascadeRecord(row.record) };
      this.#memory.put(page);
      this.#unindexed.push(page);
      if (row.id > this.#lastSeen) this.#lastSeen = row.id;
    }
  }

  catchUp(store: IndexedCascadeStore): void {
    for (const page of this.#unindexed) store.index(page.id, page.record);
    this.#unindexed = [];
  }

  get(id: number): StoredCascadePage | undefined {
    return this.#memory.get(id);
  }

  put(page: StoredCascadePage, bytes?: Uint8Array): void {
    const stored = storedPart(bytes ?? encodeCascadeRecord(page.record, false)).slice();
    // Kept decoded from the stored part (the page's paragraphs are not needed any more).
    this.#memory.put({ id: page.id, url: page.url, record: decodeCascadeRecord(stored) });
    this.#pendingRecords.push({ id: page.id, url: page.url, record: stored });
    if (page.id > this.#lastSeen) this.#lastSeen = page.id;
  }

  delete(id: number): void {
    this.#memory.delete(id);
  }

  writeFlags(rows: readonly FlagRow[]): void {
    this.#pendingFlags.push(...rows);
  }

  /** Writes what was added since the last flush. */
  async flush(): Promise<void> {
    const records = this.#pendingRecords;
    const flags = this.#pendingFlags;
    this.#pendingRecords = [];
    this.#pendingFlags = [];
    if (records.length > 0) await this.#rows.insertRecordRows(records);
    if (flags.length > 0) await this.#rows.insertFlagRows(flags);
  }
}
