/**
 * The fingerprint index: decides, for each new document, whether it is new, an exact duplicate or a
 * near duplicate of a stored one, and records it.
 *
 * SQLite (better-sqlite3, WAL) is the source of truth. Lookups are served from an in-memory
 * CandidateTable (typed arrays, built from SQLite on first use), which is kept in step with the
 * database (in-memory-view.ts): every lookup, and every write transaction right after BEGIN
 * IMMEDIATE, first reads the rows other connections added since this one last looked.
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
 * The in-memory view (candidate table, URL lookup of url-lookup.ts, second-stage keys:
 * in-memory-view.ts) is built on the first lookup, write or getByUrl; stored(), rejected(), skipped(),
 * stats() and linkRows() read SQLite only, so reports need not build it. The class reads as: opening,
 * the API, the transactions; judging a document is document-judge.ts's. Statements and row mapping
 * live in index-statements.ts, opening the file in index-database.ts, argument checks in index-options.ts.
 */
import type Database from 'better-sqlite3';
import { IndexError, ValidationError, describeValue } from '../errors.js';
import type {
  Decision, Fingerprint, FingerprintParams, IndexCandidate, LinkRow, RejectedDocument, SkipReason, SkippedPage, StoredDocument,
} from '../types.js';
import { blockLayout, type BlockLayout } from './block-layout.js';
import { DocumentJudge } from './document-judge.js';
import type { Found, Match } from './find-match.js';
import { openIndexDatabase, readIndexParams, wrapIndexFailure } from './index-database.js';
import {
  assertCandidate, assertFingerprint, assertLinks, assertSkip, assertTextHash, assertUrl, resolveIndexOptions,
  type IndexOptions, type ResolvedIndexOptions,
} from './index-options.js';
import {
  pagedRows, prepareStatements, toRejected, toStored, type DocumentRow, type IndexStatements, type IndexStats, type SkippedRow,
  type Statement,
} from './index-statements.js';
import { InMemoryView } from './in-memory-view.js';
import { SecondStage } from './second-stage.js';

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
  /** Candidate table, URL lookup and second-stage keys, kept in step with SQLite. */
  readonly #view: InMemoryView;
  /** Decides and records documents inside write transactions. */
  readonly #judge: DocumentJudge;
  #closed = false;
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
    // The verified second stage, or null when off; its key table is built and dropped with the view.
    const second = options.verify === null ? null : new SecondStage(options.verify, this.#sql.sketchRows, this.#sql.urlOf);
    this.#view = new InMemoryView(db, this.#sql, this.layout, path, options, second);
    this.#judge = new DocumentJudge(this.#sql, this.#view, second, this.layout, this.params.distance);
    this.#lookup = db.transaction((hi: number, lo: number, textHash: string) => {
      this.#view.catchUp();
      return this.#judge.find(hi, lo, textHash);
    });
    this.#lookupUrl = db.transaction((url: string) => {
      this.#view.catchUp();
      this.#view.syncUrls();
      return this.#view.urls.rowFor<DocumentRow>(url, this.#sql.byIdAndUrl, this.#sql.byUrlIndexed);
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
    return this.#write(() => this.#judge.judge(doc));
  }

  /** checkAndInsert for many documents in one transaction, in order (later ones see earlier ones); `within(decisions)` runs in it too. */
  checkAndInsertMany(docs: readonly IndexCandidate[], within?: (decisions: readonly Decision[]) => void): Decision[] {
    if (!Array.isArray(docs)) throw new ValidationError(`Expected an array of documents, got ${describeValue(docs)}`);
    for (const doc of docs) assertCandidate(doc);
    if (docs.length === 0) return [];
    return this.#write(() => { const decisions = docs.map((doc) => this.#judge.judge(doc)); within?.(decisions); return decisions; });
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
    return this.#write(() => this.#judge.prior(url) ?? this.#judge.insertSkip(url, reason, detail));
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
    return this.#view.byteLength;
  }

  /**
   * Full passes over the documents table the in-memory build took: 1 when saved bucket counts were
   * used (plus a short pass over the documents added since they were saved), 2 otherwise, 0 before
   * the first lookup or write.
   */
  get buildPasses(): number {
    return this.#view.buildPasses;
  }

  /** Closes the database. Further calls throw IndexError. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#view.invalidate();
    this.#db.close();
  }

  // ------------------------------------------------------------------ transactions

  /** The write path: BEGIN IMMEDIATE, catch up, `body`, counters and caches written, all or nothing. */
  #writeTransaction(db: Database.Database): <T>(body: () => T) => T {
    const transaction = db.transaction((body: () => unknown) => {
      this.#view.catchUp();
      this.#view.syncUrls();
      const result = body();
      this.#judge.flushCounts();
      this.#view.endWrite();
      return result;
    });
    return <T>(body: () => T): T => {
      this.#assertWritable();
      this.#ensureTable();
      this.#view.beginWrite();
      try {
        return transaction.immediate(body) as T;
      } catch (error) {
        this.#judge.dropCounts();
        // Rows this transaction added to the table were rolled back: rebuild from SQLite when next needed.
        if (this.#view.dirty) this.#view.invalidate();
        throw this.#wrap(error);
      } finally {
        this.#view.settled();
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

  /** Builds the in-memory view when it is not (outside any write transaction: it may take seconds). */
  #ensureTable(): void {
    if (this.#view.built) return;
    try {
      this.#view.build(() => {
        const { stored, near, similar } = this.stats();
        return stored + near + similar;
      });
    } catch (error) {
      this.#view.invalidate();
      throw this.#wrap(error);
    }
  }

  #pages(statement: Statement): Generator<DocumentRow> {
    return pagedRows((after: number) => this.#read(() => statement.all(after) as DocumentRow[]), 0, (r) => r.id);
  }
}

