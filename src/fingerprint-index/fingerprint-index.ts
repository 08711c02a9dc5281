/**
 * The fingerprint index: decides, for each new document, whether it is new, an exact duplicate or a
 * near duplicate of a stored one, and records it.
 *
 * SQLite (better-sqlite3, WAL) is the source of truth. Lookups are served from an in-memory
 * CandidateTable (typed arrays, built from SQLite on first use), which is kept in step with the
 * database: every lookup, and every write transaction right after BEGIN IMMEDIATE, first reads the
 * rows other connections added since this one last looked (ids only grow, so "id > last seen").
 *
 * Invariants
 * - Two stored documents are never within distance k of each other, whatever the interleaving of
 *   threads or processes: the decision and the insert happen inside one BEGIN IMMEDIATE transaction,
 *   after catching up, so no other writer can slip a row in between.
 * - A URL is judged once. A URL already recorded (stored, rejected or skipped) gets its earlier
 *   decision back and nothing is written, so a crawl may re-process pages after a crash.
 * - An exact duplicate (same text hash) is found on the text hash alone (text_key index), before
 *   and independently of the fingerprint. With the second stage on (IndexOptions.verify), two
 *   documents it would match are never both stored either: it runs in the same transaction, after
 *   the k rule (see second-stage.ts).
 *
 * The in-memory view (candidate table, URL lookup of url-lookup.ts, second-stage keys) is built on the first lookup,
 * write or getByUrl (table-loading.ts); stored(), rejected(), skipped(), stats() and linkRows()
 * read SQLite only, so reports need not build it. The class reads as: opening, the API, judging a
 * document, the write transaction and the in-memory view. Statements and row mapping live in
 * index-statements.ts, opening the file in index-database.ts, argument checks in index-options.ts.
 */
import type Database from 'better-sqlite3';
import { IndexError, ValidationError, describeValue } from '../errors.js';
import type {
  Decision, Fingerprint, FingerprintParams, IndexCandidate, LinkRow, RejectedDocument, SkipReason, SkippedPage, StoredDocument,
} from '../types.js';
import { blockLayout, type BlockLayout } from './block-layout.js';
import type { CandidateTable } from './candidate-table.js';
import { findExact, findMatch, type Found, type Match } from './find-match.js';
import { IdList } from './id-list.js';
import { openIndexDatabase, readIndexParams, wrapIndexFailure } from './index-database.js';
import {
  assertCandidate, assertFingerprint, assertLinks, assertSkip, assertTextHash, assertUrl, resolveIndexOptions,
  type IndexOptions, type ResolvedIndexOptions,
} from './index-options.js';
import {
  insertArguments, pagedRows, prepareStatements, toPriorDecision, toRejected, toStored, type DocumentRow, type IndexStatements,
  type IndexStats, type PriorRow, type SkippedRow, type Statement,
} from './index-statements.js';
import { SecondStage } from './second-stage.js';
import { loadInMemoryView, saveCountsIfDue } from './table-loading.js';
import { urlKey } from './url-key.js';
import { UrlLookup } from './url-lookup.js';

export type { IndexOptions } from './index-options.js';

export type { Match } from './find-match.js';
export type { IndexStats } from './index-statements.js';

export class FingerprintIndex {
  /** The parameters the database was made with (equal to the ones asked for). */
  readonly params: FingerprintParams;
  /** How fingerprints are cut into blocks for this database's distance. */
  readonly layout: BlockLayout;
  /** The database file (or ':memory:'). */
  readonly path: string;
  /** True when opened read-only. */
  readonly readonly: boolean;

  readonly #db: Database.Database;
  readonly #options: ResolvedIndexOptions;
  readonly #sql: IndexStatements;
  readonly #candidates = new IdList();
  /** In-memory view of the stored fingerprints; null until first needed (or after a failed write). */
  #table: CandidateTable | null = null;
  /** URL filter, tail and url_index sync; built and dropped with #table. */
  #urls: UrlLookup | null = null;
  /** Highest documents.id the table and tail have seen (stored or not). */
  #lastSeenId = 0;
  /** The current write transaction added this connection's own rows to the table. */
  #dirty = false;
  #closed = false;
  /** Documents up to this id are covered by the bucket counts saved in the database (0: none). */
  #countsSavedUpTo = 0;
  /** Full passes over the documents table the last in-memory build took (0: not built yet). */
  #buildPasses = 0;
  /** Counter changes of the current write transaction, written once at its end. */
  readonly #pending = { stored: 0, exact: 0, near: 0, similar: 0, skipped: 0 };
  /** The verified second stage, or null when off; its key table is built and dropped with #table. */
  readonly #second: SecondStage | null;
  readonly #write: <T>(body: () => T) => T;
  /** Catch-up and lookup in one read transaction (one lock round trip instead of two). */
  readonly #lookup: (hi: number, lo: number, textHash: string) => Found | null;
  readonly #lookupUrl: (url: string) => DocumentRow | undefined;

  // ------------------------------------------------------------------ opening

  private constructor(path: string, db: Database.Database, options: ResolvedIndexOptions) {
    this.path = path;
    this.#db = db;
    this.#options = options;
    this.params = options.params;
    this.layout = blockLayout(options.params.distance);
    this.readonly = options.readonly;
    this.#sql = prepareStatements(db, this.layout);
    this.#write = this.#writeTransaction(db);
    this.#second = options.verify === null ? null : new SecondStage(options.verify, this.#sql.sketchRows, this.#sql.urlOf);
    this.#lookup = db.transaction((hi: number, lo: number, textHash: string) => {
      this.#catchUp();
      return this.#find(hi, lo, textHash);
    });
    this.#lookupUrl = db.transaction((url: string) => {
      this.#catchUp();
      this.#urls!.sync(this.#lastSeenId);
      return this.#urls!.rowFor<DocumentRow>(url, this.#sql.byIdAndUrl, this.#sql.byUrlIndexed);
    });
  }

  /**
   * Opens (creating if missing) the index at `path`; ':memory:' gives a private in-memory index.
   * Refuses a database made with other fingerprint parameters (ParameterMismatchError), and a file
   * that is not a neardup index or is corrupt (IndexError, one line).
   */
  static open(path: string, options: IndexOptions): FingerprintIndex {
    assertUrl(path, 'path');
    const resolved = resolveIndexOptions(options);
    const db = openIndexDatabase(path, resolved);
    try {
      return new FingerprintIndex(path, db, resolved);
    } catch (error) {
      db.close();
      throw wrapIndexFailure(error, path, resolved.busyTimeoutMs);
    }
  }

  /** The fingerprint parameters a database was made with (for reports and CLIs that don't know them). */
  static readParams(path: string): FingerprintParams {
    assertUrl(path, 'path');
    return readIndexParams(path);
  }

  // ------------------------------------------------------------------ the API

  /**
   * The stored document a fingerprint matches: one with the same text hash (exact) first, else the
   * nearest within the index's distance (ties: the earliest stored). Null fingerprints never match.
   */
  check(fingerprint: Fingerprint | null, textHash: string): Match | null {
    assertFingerprint(fingerprint, true);
    assertTextHash(textHash);
    this.#assertOpen();
    if (fingerprint === null) return null;
    try {
      this.#ensureTable();
      const found = this.#lookup(fingerprint.hi >>> 0, fingerprint.lo >>> 0, textHash);
      return found === null ? null : { id: found.id, url: found.url, kind: found.exact ? 'exact' : 'near', distance: found.distance };
    } catch (error) {
      throw this.#wrap(error);
    }
  }

  /**
   * Judges a document and records it, atomically across threads and processes: stored if nothing
   * stored lies within distance k, else rejected as an exact or near duplicate of it. A URL already
   * recorded gets its earlier decision back and nothing is written. A null fingerprint is recorded as
   * skipped 'no-text'.
   */
  checkAndInsert(doc: IndexCandidate): Decision {
    assertCandidate(doc);
    return this.#write(() => this.#judge(doc));
  }

  /** checkAndInsert for many documents in one transaction, in order (later ones see earlier ones); `within(decisions)` runs in it too. */
  checkAndInsertMany(docs: readonly IndexCandidate[], within?: (decisions: readonly Decision[]) => void): Decision[] {
    if (!Array.isArray(docs)) throw new ValidationError(`Expected an array of documents, got ${describeValue(docs)}`);
    for (const doc of docs) assertCandidate(doc);
    if (docs.length === 0) return [];
    return this.#write(() => { const decisions = docs.map((doc) => this.#judge(doc)); within?.(decisions); return decisions; });
  }

  /**
   * Runs `body` holding the database's write lock (BEGIN IMMEDIATE), serialised with every other writer
   * in any process: for work that must not race between processes, such as appending corpus lines, or
   * setting up tables kept beside the index (`body` gets the connection: the cascade's tables, written in
   * checkAndInsertMany's `within`). `body` must not call this index's write methods; what it throws rolls
   * the transaction back and is passed on (a non-neardup error wrapped in IndexError).
   * @internal
   */
  exclusive<T>(body: (db: Database.Database) => T): T {
    if (typeof body !== 'function') throw new ValidationError(`Expected \`body\` to be a function, got ${describeValue(body)}`);
    return this.#write(() => body(this.#db));
  }

  /**
   * Records a page that was not judged, with its reason. Idempotent by URL: returns the URL's
   * decision, the earlier one (marked `repeated`, nothing written) if it has one.
   */
  recordSkip(url: string, reason: SkipReason, detail: string | null = null): Decision {
    assertSkip(url, reason, detail);
    return this.#write(() => this.#prior(url) ?? this.#insertSkip(url, reason, detail));
  }

  /** Records the links of a page (distinct from → to pairs; a self-link is ignored); `mainUrls`: those inside its main text. */
  recordLinks(fromUrl: string, toUrls: readonly string[], mainUrls: readonly string[] = []): void {
    assertLinks(fromUrl, toUrls);
    const main = new Set(mainUrls);
    this.#write(() => {
      for (const to of toUrls) if (to !== fromUrl) this.#sql.insertLink.run(to, fromUrl, main.has(to) ? 1 : 0);
    });
  }

  /** Every recorded link (distinct from → to pairs); report/citation-counts.ts turns them into in-links. */
  linkRows(): LinkRow[] {
    return this.#read(() => this.#sql.inLinks.all() as LinkRow[]);
  }

  /** A stored document by id (undefined for rejected ids and unknown ones). */
  get(id: number): StoredDocument | undefined {
    if (!Number.isSafeInteger(id)) throw new ValidationError(`Expected \`id\` to be an integer, got ${describeValue(id)}`);
    return this.#read(() => {
      const row = this.#sql.byId.get(id) as DocumentRow | undefined;
      return row === undefined ? undefined : toStored(row);
    });
  }

  /** The stored or rejected document recorded for a URL. */
  getByUrl(url: string): StoredDocument | RejectedDocument | undefined {
    assertUrl(url);
    return this.#read(() => {
      this.#ensureTable();
      const row = this.#lookupUrl(url);
      if (row === undefined) return undefined;
      return row.kind === 'stored' ? toStored(row) : toRejected(row);
    });
  }

  /** Every stored document, by id. */
  *stored(): IterableIterator<StoredDocument> {
    for (const row of this.#pages(this.#sql.storedPage)) yield toStored(row);
  }

  /** Every rejected duplicate, by id. */
  *rejected(): IterableIterator<RejectedDocument> {
    for (const row of this.#pages(this.#sql.rejectedPage)) yield toRejected(row);
  }

  /** Every skipped page, by URL. */
  *skipped(): IterableIterator<SkippedPage> {
    const page = (after: string) => this.#read(() => this.#sql.skippedPage.all(after) as SkippedRow[]);
    for (const row of pagedRows(page, '', (r) => r.url)) yield { url: row.url, reason: row.reason, detail: row.detail, at: row.at };
  }

  /** Rows per kind (kept in a counts table, so this does not scan). */
  stats(): IndexStats {
    return this.#read(() => {
      const counts = { stored: 0, exact: 0, near: 0, similar: 0, skipped: 0 };
      for (const [kind, n] of this.#sql.counts.all() as [keyof IndexStats, number][]) counts[kind] = n;
      return counts;
    });
  }

  /** Bytes of the in-memory table, URL tail and URL filter (0 before the first lookup). */
  get memoryBytes(): number {
    return (this.#table?.byteLength ?? 0) + (this.#urls?.byteLength ?? 0) + (this.#table === null ? 0 : this.#second?.byteLength ?? 0);
  }

  /**
   * Full passes over the documents table the in-memory build took: 1 when saved bucket counts were
   * used (plus a short pass over the documents added since they were saved), 2 otherwise, 0 before
   * the first lookup or write.
   */
  get buildPasses(): number {
    return this.#buildPasses;
  }

  /** Closes the database. Further calls throw IndexError. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#table = null;
    this.#urls = null;
    this.#db.close();
  }

  // ------------------------------------------------------------------ judging a document

  /** The stored document with the same text hash (on its own index), else the nearest within k, or null. */
  #find(hi: number, lo: number, textHash: string): Found | null {
    const exact = findExact(this.#sql.exactByText, this.#sql.candidate, textHash, hi, lo);
    return exact ?? findMatch(this.#table!, this.#sql.candidate, this.#candidates, this.params.distance, hi, lo, textHash);
  }

  /** The decision already recorded for a URL (marked `repeated`: nothing new is written), or null. */
  #prior(url: string): Decision | null {
    const row = this.#urls!.rowFor<PriorRow>(url, this.#sql.priorById, this.#sql.priorIndexed);
    if (row !== undefined) return toPriorDecision(row, this.#sql.urlOf);
    const reason = this.#sql.probeSkipped.get(url) as SkipReason | undefined;
    return reason === undefined ? null : { kind: 'skipped', reason, repeated: true };
  }

  #insertSkip(url: string, reason: SkipReason, detail: string | null): Decision {
    this.#sql.insertSkipped.run(url, reason, detail, Date.now());
    this.#pending.skipped++;
    return { kind: 'skipped', reason };
  }

  /** Inside a write transaction: decide and record one document. */
  #judge(doc: IndexCandidate): Decision {
    const prior = this.#prior(doc.url);
    if (prior !== null) return prior;
    if (doc.fingerprint === null) {
      this.#insertSkip(doc.url, 'no-text', null);
      return { kind: 'skipped', reason: 'no-text' };
    }
    const hi = doc.fingerprint.hi >>> 0;
    const lo = doc.fingerprint.lo >>> 0;
    const found = this.#find(hi, lo, doc.textHash);
    const sketch = doc.sketch ?? null;
    const similar = found === null && this.#second !== null && sketch !== null ? this.#second.find(hi, lo, sketch) : null;
    const kind = found !== null ? (found.exact ? 'exact' : 'near') : similar !== null ? 'similar' : 'stored';
    const key = urlKey(doc.url);
    const id = Number(this.#sql.insert.run(...insertArguments(this.layout, kind, doc, key, hi, lo, found ?? similar)).lastInsertRowid);
    // Inside BEGIN IMMEDIATE after catching up, nobody else can have added a row in between.
    this.#lastSeenId = id;
    this.#dirty = true;
    this.#urls!.add(key, id);
    this.#pending[kind]++;
    // Stored documents and the members of their clusters are filed for the second stage (a variant of
    // a variant is a copy of the base).
    if (sketch !== null) this.#second?.add(id, hi, lo, sketch);
    if (similar !== null) {
      const { distance, similarity, containment } = similar;
      return { kind: 'similar', id, matchId: similar.id, matchUrl: similar.url, distance, similarity, containment };
    }
    if (found === null) {
      this.#table!.add(id, hi, lo);
      return { kind: 'stored', id };
    }
    if (found.exact) return { kind: 'exact', id, matchId: found.id, matchUrl: found.url, distance: 0 };
    return { kind: 'near', id, matchId: found.id, matchUrl: found.url, distance: found.distance };
  }

  // ------------------------------------------------------------------ transactions and the in-memory view

  /** The write path: BEGIN IMMEDIATE, catch up, `body`, counters and caches written, all or nothing. */
  #writeTransaction(db: Database.Database): <T>(body: () => T) => T {
    const transaction = db.transaction((body: () => unknown) => {
      this.#catchUp();
      this.#urls!.sync(this.#lastSeenId);
      const result = body();
      this.#flushCounts();
      // Inside the transaction, so the counts commit or roll back with its rows.
      this.#countsSavedUpTo = saveCountsIfDue(this.#db, this.layout, this.#table!, this.#lastSeenId, this.#options.saveCountsAfter, this.#countsSavedUpTo);
      if (this.#urls!.tailSize >= this.#options.urlMergeThreshold) {
        this.#dirty = true;
        this.#urls!.merge(this.#lastSeenId);
      }
      return result;
    });
    return <T>(body: () => T): T => {
      this.#assertWritable();
      this.#ensureTable();
      this.#urls!.regrowFilter(this.#lastSeenId);
      this.#dirty = false;
      try {
        return transaction.immediate(body) as T;
      } catch (error) {
        this.#pending.stored = this.#pending.exact = this.#pending.near = this.#pending.similar = this.#pending.skipped = 0;
        // Rows this transaction added to the table were rolled back: rebuild from SQLite when next needed.
        if (this.#dirty) this.#invalidate();
        throw this.#wrap(error);
      } finally {
        this.#dirty = false;
      }
    };
  }

  /** A read outside any transaction, its failures as one-line IndexErrors. */
  #read<T>(body: () => T): T {
    this.#assertOpen();
    try {
      return body();
    } catch (error) {
      throw this.#wrap(error);
    }
  }

  #assertOpen(): void {
    if (this.#closed) throw new IndexError(`Index \`${this.path}\` is closed`);
  }

  #assertWritable(): void {
    this.#assertOpen();
    if (this.readonly) throw new IndexError(`Index \`${this.path}\` is open read-only`);
  }

  #wrap(error: unknown): Error {
    return wrapIndexFailure(error, this.path, this.#options.busyTimeoutMs);
  }

  #invalidate(): void {
    this.#table = null;
    this.#urls = null;
    this.#lastSeenId = 0;
  }

  /**
   * Builds the in-memory table and URL lookup from SQLite, outside any write transaction (it may take
   * seconds). Rows above the max id read here are added later by #catchUp.
   */
  #ensureTable(): void {
    if (this.#table !== null) return;
    try {
      const maxId = Number(this.#sql.maxId.get());
      if (maxId >= 2 ** 32) throw new IndexError(`Index \`${this.path}\` has ids beyond 2^32, more than this index supports`);
      const view = loadInMemoryView(this.#db, this.#sql.rowChunk, this.layout, maxId);
      if (view.countsSavedUpTo !== null) this.#countsSavedUpTo = view.countsSavedUpTo;
      this.#buildPasses = view.passes;
      this.#lastSeenId = maxId;
      this.#urls = new UrlLookup(this.#sql, view.filter, maxId);
      if (this.#second !== null) {
        const { stored, near, similar } = this.stats();
        this.#second.load(this.#sql.sketchChunk, maxId, stored + near + similar);
      }
      this.#table = view.table;
    } catch (error) {
      this.#invalidate();
      throw this.#wrap(error);
    }
  }

  /** Adds the rows other connections committed since this one last looked. */
  #catchUp(): void {
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

  #flushCounts(): void {
    const pending = this.#pending;
    for (const kind of ['stored', 'exact', 'near', 'similar', 'skipped'] as const) {
      if (pending[kind] !== 0) {
        this.#sql.bumpCount.run(pending[kind], kind);
        pending[kind] = 0;
      }
    }
  }

  #pages(statement: Statement): Generator<DocumentRow> {
    return pagedRows((after: number) => this.#read(() => statement.all(after) as DocumentRow[]), 0, (r) => r.id);
  }
}

