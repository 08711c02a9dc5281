/**
 * The in-memory view of a SQLite index: the candidate table of the stored fingerprints, the URL lookup
 * (url-lookup.ts) and the second stage's sketch keys, kept in step with the database. It is built on
 * the index's first lookup or write (table-loading.ts), outside any write transaction since that may
 * take seconds; after that every lookup, and every write transaction right after BEGIN IMMEDIATE,
 * first adds the rows other connections committed since this one last looked (ids only grow, so
 * "id > last seen"). A write transaction that added this connection's own rows and then rolled back
 * drops the view, to be built again from SQLite when next needed.
 */
import type Database from 'better-sqlite3';
import { IndexError } from '../errors.js';
import type { BlockLayout } from './block-layout.js';
import type { CandidateTable } from './candidate-table.js';
import type { ResolvedIndexOptions } from './index-options.js';
import type { IndexStatements } from './index-statements.js';
import type { SecondStage } from './second-stage.js';
import { loadInMemoryView, saveCountsIfDue } from './table-loading.js';
import { UrlLookup } from './url-lookup.js';

export class InMemoryView {
  readonly #db: Database.Database;
  readonly #sql: IndexStatements;
  readonly #layout: BlockLayout;
  readonly #path: string;
  readonly #options: ResolvedIndexOptions;
  /** The verified second stage, or null when off; its key table is built and dropped with the table. */
  readonly #second: SecondStage | null;
  /** Stored fingerprints; null until built (or after a failed write). */
  #table: CandidateTable | null = null;
  /** URL filter, tail and url_index sync; built and dropped with #table. */
  #urls: UrlLookup | null = null;
  /** Highest documents.id the table and tail have seen (stored or not). */
  #lastSeenId = 0;
  /** The current write transaction changed the view (own rows added, or the URL tail merged). */
  #dirty = false;
  /** Documents up to this id are covered by the bucket counts saved in the database (0: none). */
  #countsSavedUpTo = 0;
  /** Full passes over the documents table the last build took (0: not built yet). */
  #buildPasses = 0;

  constructor(db: Database.Database, sql: IndexStatements, layout: BlockLayout, path: string, options: ResolvedIndexOptions, second: SecondStage | null) {
    this.#db = db;
    this.#sql = sql;
    this.#layout = layout;
    this.#path = path;
    this.#options = options;
    this.#second = second;
  }

  /** Whether the view is built (the table, URL lookup and second-stage keys). */
  get built(): boolean {
    return this.#table !== null;
  }

  /** The candidate table; only once built. */
  get table(): CandidateTable {
    return this.#table!;
  }

  /** The URL lookup; only once built. */
  get urls(): UrlLookup {
    return this.#urls!;
  }

  /** Bytes of the table, URL tail and filter, and second-stage keys (0 before it is built). */
  get byteLength(): number {
    return (this.#table?.byteLength ?? 0) + (this.#urls?.byteLength ?? 0) + (this.#table === null ? 0 : this.#second?.byteLength ?? 0);
  }

  /** Full passes over the documents table the last build took (see FingerprintIndex.buildPasses). */
  get buildPasses(): number {
    return this.#buildPasses;
  }

  /** Whether the current write transaction changed the view (so a rollback must drop it). */
  get dirty(): boolean {
    return this.#dirty;
  }

  /**
   * Builds the view from SQLite. Rows above the max id read here are added later by catchUp.
   * `storedRows`: rows the second stage holds keys for (stored, near and similar), read when it is on.
   * On a failure the caller drops the view (invalidate).
   */
  build(storedRows: () => number): void {
    const maxId = Number(this.#sql.maxId.get());
    if (maxId >= 2 ** 32) throw new IndexError(`Index \`${this.#path}\` has ids beyond 2^32, more than this index supports`);
    const view = loadInMemoryView(this.#db, this.#sql.rowChunk, this.#layout, maxId);
    if (view.countsSavedUpTo !== null) this.#countsSavedUpTo = view.countsSavedUpTo;
    this.#buildPasses = view.passes;
    this.#lastSeenId = maxId;
    this.#urls = new UrlLookup(this.#sql, view.filter, maxId);
    if (this.#second !== null) this.#second.load(this.#sql.sketchChunk, maxId, storedRows());
    this.#table = view.table;
  }

  /** Drops the view; it is built again from SQLite when next needed. */
  invalidate(): void {
    this.#table = null;
    this.#urls = null;
    this.#lastSeenId = 0;
  }

  /** Adds the rows other connections committed since this one last looked. */
  catchUp(): void {
    const table = this.#table!;
    const urls = this.#urls!;
    const rows = this.#sql.catchUp.all(this.#lastSeenId) as [number, number, number, number, number, Uint8Array | null][];
    for (const [id, isStored, hi, lo, key, sketch] of rows) {
      if (isStored === 1) table.add(id, hi, lo);
      if (sketch !== null) this.#second?.add(id, hi, lo, sketch); // stored rows and cluster members
      urls.add(key, id);
      this.#lastSeenId = id;
    }
    // A process that only looks things up never merges; keep its tail from growing without bound.
    if (urls.tailSize >= 2 * this.#options.urlMergeThreshold) urls.sync(this.#lastSeenId);
  }

  /** Brings the URL tail in step with url_index, after another connection merged into it. */
  syncUrls(): void {
    this.#urls!.sync(this.#lastSeenId);
  }

  /** Before a write transaction: the URL filter regrown if full; nothing changed yet. */
  beginWrite(): void {
    this.#urls!.regrowFilter(this.#lastSeenId);
    this.#dirty = false;
  }

  /**
   * Inside a write transaction: a row this connection inserted (the table and second stage are the
   * caller's to add to). Inside BEGIN IMMEDIATE after catching up, nobody else can have added a row
   * in between, so `id` is the highest seen.
   */
  inserted(id: number, key: number): void {
    this.#lastSeenId = id;
    this.#dirty = true;
    this.#urls!.add(key, id);
  }

  /**
   * At the end of a write transaction, inside it (so what is written commits or rolls back with its
   * rows): the bucket counts saved when due, the URL tail merged into url_index once long enough.
   */
  endWrite(): void {
    this.#countsSavedUpTo = saveCountsIfDue(this.#db, this.#layout, this.#table!, this.#lastSeenId, this.#options.saveCountsAfter, this.#countsSavedUpTo);
    if (this.#urls!.tailSize >= this.#options.urlMergeThreshold) {
      this.#dirty = true;
      this.#urls!.merge(this.#lastSeenId);
    }
  }

  /** After a write transaction, committed or not. */
  settled(): void {
    this.#dirty = false;
  }
}
