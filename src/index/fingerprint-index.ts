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
 * - Equal text hashes imply equal fingerprints (the fingerprint is a function of the text the hash is
 *   taken of), so an exact duplicate is always among the distance-0 candidates: the text hash needs no
 *   index of its own.
 *
 * URLs are found through a Bloom filter of every URL key (url-filter.ts: a new URL costs no disk read),
 * the in-memory tail of the newest URL keys (url-tail.ts) and the url_index table the tail is merged
 * into, sorted, every 262,144 documents. The in-memory view (table, tail, filter) is built on the first
 * lookup, write or getByUrl: one pass over the documents table when the bucket counts saved in it
 * (bucket_counts, refreshed by write transactions as the index grows) cover most documents, two
 * otherwise. stored(), rejected(), skipped(), stats() and inLinkCounts() read SQLite only, so reports
 * need not build it.
 */
import Database from 'better-sqlite3';
import { IndexError, NeardupError, ValidationError, describeValue } from '../errors.js';
import { fingerprintToBigInt, popcount32 } from '../fingerprint/fingerprint-codec.js';
import type {
  Decision, DocumentMeta, Fingerprint, FingerprintParams, IndexCandidate, RejectedDocument, SkipReason, SkippedPage,
  StoredDocument,
} from '../types.js';
import { blockLayout, blockValue, type BlockLayout } from './block-layout.js';
import { IdList, buildCandidateTable, type CandidateTable, type StoredRowFeed } from './candidate-table.js';
import {
  APPLICATION_ID, BUCKET_COUNTS_TABLE, SCHEMA_VERSION, assertSameParams, blockColumns, paramsToJson, schemaStatements,
  validateParams,
} from './index-schema.js';
import {
  BucketCountsMismatch, PairedBlockTable, bucketCountsLength, countRows, suitsPairedTable,
} from './paired-block-table.js';
import { URL_KEY_VERSION, urlKey } from './url-key.js';
import { UrlFilter } from './url-filter.js';
import { UrlTail } from './url-tail.js';

export interface IndexOptions {
  /** Fingerprint parameters; a database made with other ones is refused. */
  readonly params: FingerprintParams;
  /** How long a write waits for another process's transaction to end. @default 5000 */
  readonly busyTimeoutMs?: number;
  /** Open read-only (reports). @default false */
  readonly readonly?: boolean;
  /** SQLite page cache in MiB. @default 8 */
  readonly cacheSizeMb?: number;
  /**
   * Newest URLs kept in memory before a write transaction merges them, sorted, into the SQLite URL
   * index (see url-tail.ts). @default 262144
   */
  readonly urlMergeThreshold?: number;
  /**
   * Documents the index must hold before a write transaction saves the in-memory table's bucket counts
   * (and again after each further sixteenth), so that opening builds the table in one pass over SQLite
   * instead of two. @default 262144
   */
  readonly saveCountsAfter?: number;
}

/** A stored document a fingerprint matches. */
export interface Match {
  readonly id: number;
  readonly url: string;
  readonly kind: 'exact' | 'near';
  readonly distance: number;
}

/** Rows per kind. */
export interface IndexStats {
  readonly stored: number;
  readonly exact: number;
  readonly near: number;
  readonly skipped: number;
}

/** Every reason a page may be skipped for. */
export const SKIP_REASONS: readonly SkipReason[] = [
  'no-text', 'too-short', 'not-html', 'too-large', 'http-error', 'robots', 'out-of-scope', 'fetch-error', 'decode-error',
  'parse-error', 'truncated',
];

/** Rows per page when iterating (no cursor stays open between yields, so callers may query meanwhile). */
const PAGE_ROWS = 1000;
/**
 * Ids per string when reading every row to build the in-memory table: 2,048 rows make an 80 KB string,
 * small enough for V8's young generation (larger strings go to large-object space, which grows the heap
 * for good).
 */
const CHUNK_IDS = 2048;

type PriorRow = [id: number, kind: 'stored' | 'exact' | 'near', distance: number | null, matchId: number | null];

const DOCUMENT_COLUMNS =
  'id, kind, url, (fingerprint >> 32) & 4294967295 AS hi, fingerprint & 4294967295 AS lo, text_hash, distance, ' +
  'match_id, final_url, title, language, text_length, fetched_at, canonical_url, published_at, last_modified, depth';

interface DocumentRow {
  id: number;
  kind: 'stored' | 'exact' | 'near';
  url: string;
  hi: number;
  lo: number;
  text_hash: string;
  distance: number | null;
  match_id: number | null;
  final_url: string | null;
  title: string | null;
  language: string | null;
  text_length: number | null;
  fetched_at: number | null;
  canonical_url: string | null;
  published_at: string | null;
  last_modified: string | null;
  depth: number | null;
}

interface SkippedRow {
  url: string;
  reason: SkipReason;
  detail: string | null;
  at: number;
}

/** The best match found for a fingerprint. */
interface Found {
  id: number;
  url: string;
  distance: number;
  exact: boolean;
}

type Statement = Database.Statement;

/** One line describing a SQLite (or other) failure, for IndexError messages. */
function describeFailure(error: unknown, path: string, busyTimeoutMs: number): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
  switch (code) {
    case 'SQLITE_NOTADB':
      return `\`${path}\` is not a neardup index (not a SQLite database: ${message})`;
    case 'SQLITE_CORRUPT':
      return `Index \`${path}\` is corrupt (${message}); restore it from a backup or delete it`;
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return `Index \`${path}\` is locked by another process (waited ${busyTimeoutMs} ms): ${message}`;
    case 'SQLITE_READONLY':
      return `Index \`${path}\` cannot be written (${message})`;
    case 'SQLITE_FULL':
      return `Index \`${path}\`: the disk is full (${message})`;
    default:
      return `Index \`${path}\`: ${message}`;
  }
}

function isCandidateFingerprint(value: unknown): value is Fingerprint {
  if (typeof value !== 'object' || value === null) return false;
  const { hi, lo } = value as { hi?: unknown; lo?: unknown };
  return (
    typeof hi === 'number' && typeof lo === 'number' && Number.isInteger(hi) && Number.isInteger(lo) &&
    hi >= 0 && hi <= 0xffffffff && lo >= 0 && lo <= 0xffffffff
  );
}

function assertFingerprint(value: unknown, allowNull: boolean): asserts value is Fingerprint | null {
  if (value === null && allowNull) return;
  if (!isCandidateFingerprint(value)) {
    throw new ValidationError(
      `Expected \`fingerprint\` to be {hi, lo} unsigned 32-bit integers${allowNull ? ' or null' : ''}, got ${describeValue(value)}`,
    );
  }
}

function assertUrl(value: unknown, name = 'url'): asserts value is string {
  if (typeof value !== 'string' || value === '') {
    throw new ValidationError(`Expected \`${name}\` to be a non-empty string, got ${describeValue(value)}`);
  }
}

function assertTextHash(value: unknown): asserts value is string {
  if (typeof value !== 'string') throw new ValidationError(`Expected \`textHash\` to be a string, got ${describeValue(value)}`);
}

function optionalString(doc: DocumentMeta, key: keyof DocumentMeta): string | null {
  const value = doc[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new ValidationError(`Expected \`${key}\` to be a string or null, got ${describeValue(value)}`);
  return value;
}

function optionalInt(doc: DocumentMeta, key: keyof DocumentMeta): number | null {
  const value = doc[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new ValidationError(`Expected \`${key}\` to be a non-negative integer or null, got ${describeValue(value)}`);
  }
  return value;
}

function assertCandidate(doc: unknown): asserts doc is IndexCandidate {
  if (typeof doc !== 'object' || doc === null) {
    throw new ValidationError(`Expected a document {url, fingerprint, textHash, ...}, got ${describeValue(doc)}`);
  }
  const d = doc as IndexCandidate;
  assertUrl(d.url);
  assertFingerprint(d.fingerprint, true);
  assertTextHash(d.textHash);
}

function toMeta(row: DocumentRow): DocumentMeta {
  return {
    url: row.url,
    finalUrl: row.final_url,
    title: row.title ?? undefined,
    language: row.language ?? undefined,
    textLength: row.text_length ?? undefined,
    fetchedAt: row.fetched_at ?? undefined,
    canonicalUrl: row.canonical_url,
    publishedAt: row.published_at,
    lastModified: row.last_modified,
    depth: row.depth,
  };
}

function toStored(row: DocumentRow): StoredDocument {
  return { id: row.id, ...toMeta(row), fingerprint: { hi: row.hi, lo: row.lo }, textHash: row.text_hash };
}

function toRejected(row: DocumentRow): RejectedDocument {
  return {
    id: row.id,
    ...toMeta(row),
    kind: row.kind as 'exact' | 'near',
    distance: row.distance ?? 0,
    matchId: row.match_id ?? 0,
    fingerprint: { hi: row.hi, lo: row.lo },
    textHash: row.text_hash,
  };
}

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
  readonly #busyTimeoutMs: number;
  readonly #urlMergeThreshold: number;
  readonly #saveCountsAfter: number;
  readonly #candidates = new IdList();
  readonly #urlIds = new IdList(4);
  /** In-memory view of the stored fingerprints; null until first needed (or after a failed write). */
  #table: CandidateTable | null = null;
  /** URL keys of documents newer than #urlIndexedTo; built and dropped with #table. */
  #tail: UrlTail | null = null;
  /** Bloom filter of every document's URL key; built and dropped with #table. */
  #filter: UrlFilter | null = null;
  /** Highest documents.id the table and tail have seen (stored or not). */
  #lastSeenId = 0;
  /** Documents with ids up to this are in the url_index table. */
  #urlIndexedTo = 0;
  /** The current write transaction added this connection's own rows to the table. */
  #dirty = false;
  #closed = false;
  /** Documents up to this id are covered by the bucket counts saved in the database (0: none). */
  #countsSavedUpTo = 0;
  /** Full passes over the documents table the last in-memory build took (0: not built yet). */
  #buildPasses = 0;
  /** Counter changes of the current write transaction, written once at its end. */
  readonly #pending = { stored: 0, exact: 0, near: 0, skipped: 0 };

  readonly #sql: {
    maxId: Statement;
    rowChunk: Statement;
    keyChunk: Statement;
    tailRows: Statement;
    catchUp: Statement;
    urlIndexedTo: Statement;
    setUrlIndexedTo: Statement;
    mergeUrls: Statement;
    priorById: Statement;
    priorIndexed: Statement;
    probeSkipped: Statement;
    candidate: Statement;
    urlOf: Statement;
    insert: Statement;
    insertSkipped: Statement;
    bumpCount: Statement;
    counts: Statement;
    insertLink: Statement;
    inLinks: Statement;
    byId: Statement;
    byIdAndUrl: Statement;
    byUrlIndexed: Statement;
    storedPage: Statement;
    rejectedPage: Statement;
    skippedPage: Statement;
  };
  readonly #write: <T>(body: () => T) => T;
  /** Catch-up and lookup in one read transaction (one lock round trip instead of two). */
  readonly #lookup: (hi: number, lo: number, textHash: string) => Found | null;
  readonly #lookupUrl: (url: string) => DocumentRow | undefined;

  private constructor(
    path: string, db: Database.Database, params: FingerprintParams, readonly: boolean, busyTimeoutMs: number,
    urlMergeThreshold: number, saveCountsAfter: number,
  ) {
    this.path = path;
    this.#urlMergeThreshold = urlMergeThreshold;
    this.#saveCountsAfter = saveCountsAfter;
    this.#db = db;
    this.params = params;
    this.layout = blockLayout(params.distance);
    this.readonly = readonly;
    this.#busyTimeoutMs = busyTimeoutMs;
    const blocks = blockColumns(this.layout);
    const insertColumns = [
      'kind', 'url', 'url_key', 'fingerprint', ...blocks, 'text_hash', 'distance', 'match_id', 'final_url', 'title',
      'language', 'text_length', 'fetched_at', 'canonical_url', 'published_at', 'last_modified', 'depth',
    ];
    const p = (sql: string) => db.prepare(sql);
    this.#sql = {
      maxId: p('SELECT coalesce(max(id), 0) FROM documents').pluck(),
      // Rows packed as hex, five 32-bit words a row (id, stored?, hi, lo, low half of url_key), one string
      // per id range: half the cost of fetching a row per call.
      rowChunk: p(
        `SELECT group_concat(printf('%08x%08x%08x%08x%08x', id, kind = 'stored', (fingerprint >> 32) & 4294967295,
           fingerprint & 4294967295, url_key & 4294967295), '')
         FROM documents WHERE id > ? AND id <= ?`,
      ).pluck(),
      keyChunk: p(`SELECT group_concat(printf('%08x', url_key & 4294967295), '') FROM documents WHERE id > ? AND id <= ?`).pluck(),
      tailRows: p('SELECT id, url_key FROM documents WHERE id > ? AND id <= ? ORDER BY id').raw(),
      catchUp: p(
        `SELECT id, kind = 'stored', (fingerprint >> 32) & 4294967295, fingerprint & 4294967295, url_key FROM documents
         WHERE id > ? ORDER BY id`,
      ).raw(),
      urlIndexedTo: p("SELECT value FROM counters WHERE name = 'url_indexed_to'").pluck(),
      setUrlIndexedTo: p("UPDATE counters SET value = ? WHERE name = 'url_indexed_to'"),
      mergeUrls: p('INSERT INTO url_index (url_key, id) SELECT url_key, id FROM documents WHERE id > ? AND id <= ? ORDER BY url_key, id'),
      priorById: p('SELECT id, kind, distance, match_id FROM documents WHERE id = ? AND url = ?').raw(),
      priorIndexed: p(
        `SELECT id, kind, distance, match_id FROM documents
         WHERE id IN (SELECT id FROM url_index WHERE url_key = ?) AND url = ? ORDER BY id LIMIT 1`,
      ).raw(),
      probeSkipped: p('SELECT reason FROM skipped WHERE url = ?').pluck(),
      candidate: p('SELECT (fingerprint >> 32) & 4294967295, fingerprint & 4294967295, url, text_hash FROM documents WHERE id = ?').raw(),
      urlOf: p('SELECT url FROM documents WHERE id = ?').pluck(),
      insert: p(`INSERT INTO documents (${insertColumns.join(', ')}) VALUES (${insertColumns.map(() => '?').join(', ')})`),
      insertSkipped: p('INSERT INTO skipped (url, reason, detail, at) VALUES (?, ?, ?, ?)'),
      bumpCount: p('UPDATE counters SET value = value + ? WHERE name = ?'),
      counts: p("SELECT name, value FROM counters WHERE name IN ('stored', 'exact', 'near', 'skipped')").raw(),
      insertLink: p('INSERT OR IGNORE INTO links (to_url, from_url) VALUES (?, ?)'),
      inLinks: p('SELECT to_url, count(*) FROM links GROUP BY to_url').raw(),
      byId: p(`SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE id = ? AND kind = 'stored'`),
      byIdAndUrl: p(`SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE id = ? AND url = ?`),
      byUrlIndexed: p(
        `SELECT ${DOCUMENT_COLUMNS} FROM documents
         WHERE id IN (SELECT id FROM url_index WHERE url_key = ?) AND url = ? ORDER BY id LIMIT 1`,
      ),
      storedPage: p(`SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE kind = 'stored' AND id > ? ORDER BY id LIMIT ${PAGE_ROWS}`),
      rejectedPage: p(`SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE kind <> 'stored' AND id > ? ORDER BY id LIMIT ${PAGE_ROWS}`),
      skippedPage: p(`SELECT url, reason, detail, at FROM skipped WHERE url > ? ORDER BY url LIMIT ${PAGE_ROWS}`),
    };
    const transaction = db.transaction((body: () => unknown) => {
      this.#catchUp();
      this.#syncUrlIndex();
      const result = body();
      this.#flushCounts();
      this.#saveBucketCounts();
      if (this.#tail!.size >= this.#urlMergeThreshold) this.#mergeUrls();
      return result;
    });
    this.#lookup = db.transaction((hi: number, lo: number, textHash: string) => {
      this.#catchUp();
      return this.#find(hi, lo, textHash);
    });
    this.#lookupUrl = db.transaction((url: string) => {
      this.#catchUp();
      this.#syncUrlIndex();
      return this.#rowForUrl<DocumentRow>(url, this.#sql.byIdAndUrl, this.#sql.byUrlIndexed);
    });
    this.#write = <T>(body: () => T): T => {
      this.#assertWritable();
      this.#ensureTable();
      this.#regrowFilter();
      this.#dirty = false;
      try {
        return transaction.immediate(body) as T;
      } catch (error) {
        this.#pending.stored = this.#pending.exact = this.#pending.near = this.#pending.skipped = 0;
        // Rows this transaction added to the table were rolled back: rebuild from SQLite when next needed.
        if (this.#dirty) this.#invalidate();
        throw this.#wrap(error);
      } finally {
        this.#dirty = false;
      }
    };
  }

  /**
   * Opens (creating if missing) the index at `path`; ':memory:' gives a private in-memory index.
   * Refuses a database made with other fingerprint parameters (ParameterMismatchError), and a file
   * that is not a neardup index or is corrupt (IndexError, one line).
   */
  static open(path: string, options: IndexOptions): FingerprintIndex {
    assertUrl(path, 'path');
    if (typeof options !== 'object' || options === null) {
      throw new ValidationError(`Expected index options {params, ...}, got ${describeValue(options)}`);
    }
    const params = validateParams(options.params);
    const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    if (!Number.isInteger(busyTimeoutMs) || busyTimeoutMs < 0 || busyTimeoutMs > 3_600_000) {
      throw new ValidationError(`Expected \`busyTimeoutMs\` to be an integer 0–3600000, got ${describeValue(busyTimeoutMs)}`);
    }
    const readonly = options.readonly ?? false;
    if (typeof readonly !== 'boolean') throw new ValidationError(`Expected \`readonly\` to be a boolean, got ${describeValue(readonly)}`);
    const cacheSizeMb = options.cacheSizeMb ?? 8;
    if (!Number.isInteger(cacheSizeMb) || cacheSizeMb < 1 || cacheSizeMb > 65_536) {
      throw new ValidationError(`Expected \`cacheSizeMb\` to be an integer 1–65536, got ${describeValue(cacheSizeMb)}`);
    }
    const urlMergeThreshold = options.urlMergeThreshold ?? 262_144;
    if (!Number.isInteger(urlMergeThreshold) || urlMergeThreshold < 1 || urlMergeThreshold > 16_777_216) {
      throw new ValidationError(
        `Expected \`urlMergeThreshold\` to be an integer 1–16777216, got ${describeValue(urlMergeThreshold)}`,
      );
    }
    const saveCountsAfter = options.saveCountsAfter ?? 262_144;
    if (!Number.isInteger(saveCountsAfter) || saveCountsAfter < 1 || saveCountsAfter > 2 ** 32) {
      throw new ValidationError(`Expected \`saveCountsAfter\` to be an integer 1–4294967296, got ${describeValue(saveCountsAfter)}`);
    }
    const db = connect(path, readonly, busyTimeoutMs);
    try {
      if (!readonly) {
        db.pragma('journal_mode = WAL');
        db.pragma('synchronous = NORMAL');
        // Random url_key index inserts dirty one page per document; checkpointing (and syncing) every
        // 10,000 pages instead of 1,000 cuts the write cost of a batch by about a quarter.
        db.pragma('wal_autocheckpoint = 10000');
      }
      db.pragma(`cache_size = ${-1024 * cacheSizeMb}`);
      const layout = blockLayout(params.distance);
      const setUp = () => {
        const stored = readSchema(db, path, readonly);
        if (stored === null) {
          for (const sql of schemaStatements(layout)) db.exec(sql);
          const meta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
          meta.run('params', paramsToJson(params));
          meta.run('layout', JSON.stringify({ starts: layout.starts, widths: layout.widths }));
          meta.run('url_key', URL_KEY_VERSION);
          meta.run('created_at', new Date().toISOString());
          return;
        }
        assertSameParams(stored, params, path);
      };
      if (readonly) setUp();
      else db.transaction(setUp).immediate();
      return new FingerprintIndex(path, db, params, readonly, busyTimeoutMs, urlMergeThreshold, saveCountsAfter);
    } catch (error) {
      db.close();
      throw error instanceof NeardupError ? error : new IndexError(describeFailure(error, path, busyTimeoutMs), { cause: error });
    }
  }

  /** The fingerprint parameters a database was made with (for reports and CLIs that don't know them). */
  static readParams(path: string): FingerprintParams {
    assertUrl(path, 'path');
    const db = connect(path, true, 5000);
    try {
      const stored = readSchema(db, path, true);
      if (stored === null) throw new IndexError(`\`${path}\` is an empty SQLite database, not a neardup index`);
      return stored;
    } catch (error) {
      throw error instanceof NeardupError ? error : new IndexError(describeFailure(error, path, 5000), { cause: error });
    } finally {
      db.close();
    }
  }

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

  /** checkAndInsert for many documents in one transaction, in order (later ones see earlier ones). */
  checkAndInsertMany(docs: readonly IndexCandidate[]): Decision[] {
    if (!Array.isArray(docs)) throw new ValidationError(`Expected an array of documents, got ${describeValue(docs)}`);
    for (const doc of docs) assertCandidate(doc);
    if (docs.length === 0) return [];
    return this.#write(() => docs.map((doc) => this.#judge(doc)));
  }

  /**
   * Runs `body` holding the database's write lock (BEGIN IMMEDIATE), serialised with every other
   * writer of the file in any process: for work outside SQLite that must not race between processes,
   * such as appending corpus lines. `body` must not call this index's write methods. Errors thrown by
   * `body` roll the transaction back and are passed on (a non-neardup error wrapped in IndexError).
   */
  exclusive<T>(body: () => T): T {
    if (typeof body !== 'function') throw new ValidationError(`Expected \`body\` to be a function, got ${describeValue(body)}`);
    return this.#write(body);
  }

  /** Records a page that was not judged, with its reason. Idempotent by URL: false when the URL was recorded before. */
  recordSkip(url: string, reason: SkipReason, detail: string | null = null): boolean {
    assertUrl(url);
    if (!SKIP_REASONS.includes(reason)) {
      throw new ValidationError(`Expected \`reason\` to be one of ${SKIP_REASONS.join('|')}, got ${describeValue(reason)}`);
    }
    if (detail !== null && typeof detail !== 'string') {
      throw new ValidationError(`Expected \`detail\` to be a string or null, got ${describeValue(detail)}`);
    }
    return this.#write(() => {
      if (this.#prior(url) !== null) return false;
      this.#insertSkip(url, reason, detail);
      return true;
    });
  }

  /** Records the links of a page (distinct from → to pairs; a self-link is ignored). */
  recordLinks(fromUrl: string, toUrls: readonly string[]): void {
    assertUrl(fromUrl, 'fromUrl');
    if (!Array.isArray(toUrls)) throw new ValidationError(`Expected \`toUrls\` to be an array of URLs, got ${describeValue(toUrls)}`);
    for (const to of toUrls) assertUrl(to, 'toUrls[]');
    this.#write(() => {
      for (const to of toUrls) if (to !== fromUrl) this.#sql.insertLink.run(to, fromUrl);
    });
  }

  /** URL → number of distinct other pages linking to it. */
  inLinkCounts(): Map<string, number> {
    this.#assertOpen();
    try {
      const counts = new Map<string, number>();
      for (const [url, n] of this.#sql.inLinks.all() as [string, number][]) counts.set(url, n);
      return counts;
    } catch (error) {
      throw this.#wrap(error);
    }
  }

  /** A stored document by id (undefined for rejected ids and unknown ones). */
  get(id: number): StoredDocument | undefined {
    if (!Number.isSafeInteger(id)) throw new ValidationError(`Expected \`id\` to be an integer, got ${describeValue(id)}`);
    this.#assertOpen();
    try {
      const row = this.#sql.byId.get(id) as DocumentRow | undefined;
      return row === undefined ? undefined : toStored(row);
    } catch (error) {
      throw this.#wrap(error);
    }
  }

  /** The stored or rejected document recorded for a URL. */
  getByUrl(url: string): StoredDocument | RejectedDocument | undefined {
    assertUrl(url);
    this.#assertOpen();
    try {
      this.#ensureTable();
      const row = this.#lookupUrl(url);
      if (row === undefined) return undefined;
      return row.kind === 'stored' ? toStored(row) : toRejected(row);
    } catch (error) {
      throw this.#wrap(error);
    }
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
    let after = '';
    for (;;) {
      this.#assertOpen();
      let rows: SkippedRow[];
      try {
        rows = this.#sql.skippedPage.all(after) as SkippedRow[];
      } catch (error) {
        throw this.#wrap(error);
      }
      for (const row of rows) yield { url: row.url, reason: row.reason, detail: row.detail, at: row.at };
      if (rows.length < PAGE_ROWS) return;
      after = rows[rows.length - 1]!.url;
    }
  }

  /** Rows per kind (kept in a counts table, so this does not scan). */
  stats(): IndexStats {
    this.#assertOpen();
    try {
      const counts = { stored: 0, exact: 0, near: 0, skipped: 0 };
      for (const [kind, n] of this.#sql.counts.all() as [keyof IndexStats, number][]) counts[kind] = n;
      return counts;
    } catch (error) {
      throw this.#wrap(error);
    }
  }

  /** Bytes of the in-memory table, URL tail and URL filter (0 before the first lookup). */
  get memoryBytes(): number {
    return (this.#table?.byteLength ?? 0) + (this.#tail?.byteLength ?? 0) + (this.#filter?.byteLength ?? 0);
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
    this.#tail = null;
    this.#filter = null;
    this.#db.close();
  }

  // ------------------------------------------------------------------ internals

  #assertOpen(): void {
    if (this.#closed) throw new IndexError(`Index \`${this.path}\` is closed`);
  }

  #assertWritable(): void {
    this.#assertOpen();
    if (this.readonly) throw new IndexError(`Index \`${this.path}\` is open read-only`);
  }

  #wrap(error: unknown): Error {
    if (error instanceof NeardupError) return error;
    return new IndexError(describeFailure(error, this.path, this.#busyTimeoutMs), { cause: error });
  }

  #invalidate(): void {
    this.#table = null;
    this.#tail = null;
    this.#filter = null;
    this.#lastSeenId = 0;
    this.#urlIndexedTo = 0;
  }

  /**
   * Builds the in-memory table and URL tail from SQLite, outside any write transaction (it may take
   * seconds). Rows above the max id read here are added later by #catchUp.
   */
  #ensureTable(): void {
    if (this.#table !== null) return;
    try {
      const maxId = Number(this.#sql.maxId.get());
      if (maxId >= 2 ** 32) throw new IndexError(`Index \`${this.path}\` has ids beyond 2^32, more than this index supports`);
      let filter = new UrlFilter(maxId * 1.25);
      /** The stored rows with ids in (from, maxId]; with `keys`, every row's URL key also goes into the filter. */
      const rows = (from: number, keys: boolean): StoredRowFeed => (visit) => {
        for (const words of this.#chunks(this.#sql.rowChunk, from, maxId)) {
          for (let i = 0; i + 4 < words.length; i += 5) {
            if (keys) filter.add(words[i + 4]!);
            if (words[i + 1] === 1) visit(words[i]!, words[i + 2]!, words[i + 3]!);
          }
        }
      };
      const twoPasses = (): CandidateTable => {
        let pass = 0;
        return buildCandidateTable(this.layout, (visit) => rows(0, ++pass === 1)(visit), maxId);
      };
      let table: CandidateTable | null = null;
      const saved = suitsPairedTable(this.layout) ? this.#readBucketCounts(maxId) : null;
      if (saved !== null) {
        try {
          countRows(this.layout, rows(saved.upTo, false), saved.counts);
          table = PairedBlockTable.build(this.layout, rows(0, true), { counts: saved.counts });
          this.#countsSavedUpTo = saved.upTo;
          this.#buildPasses = 1;
        } catch (error) {
          // Counts that do not fit the rows (a damaged row of bucket_counts): build from the rows alone.
          if (!(error instanceof BucketCountsMismatch)) throw error;
          filter = new UrlFilter(maxId * 1.25);
        }
      }
      if (table === null) {
        table = twoPasses();
        this.#buildPasses = 2;
      }
      this.#filter = filter;
      this.#lastSeenId = maxId;
      this.#tail = new UrlTail();
      this.#urlIndexedTo = -1;
      this.#syncUrlIndex();
      this.#table = table;
    } catch (error) {
      this.#invalidate();
      throw this.#wrap(error);
    }
  }

  /** The bucket counts saved for this layout, if any, covering documents up to `upTo` ≤ maxId. */
  #readBucketCounts(maxId: number): { upTo: number; counts: Uint32Array } | null {
    const exists = this.#db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'bucket_counts'").pluck().get();
    if (exists === undefined) return null;
    const row = this.#db.prepare('SELECT up_to, counts FROM bucket_counts WHERE layout = ?').raw().get(layoutKey(this.layout)) as
      | [number, Buffer]
      | undefined;
    if (row === undefined) return null;
    const [upTo, blob] = row;
    const length = bucketCountsLength(this.layout);
    if (!Number.isSafeInteger(upTo) || upTo < 0 || upTo > maxId || !Buffer.isBuffer(blob) || blob.length !== length * 4) return null;
    const counts = new Uint32Array(length);
    Buffer.from(counts.buffer).set(blob);
    return { upTo, counts };
  }

  /**
   * Inside a write transaction: saves the table's bucket counts (of every stored document up to
   * #lastSeenId, this transaction's included, so they commit or roll back together) once the index has
   * grown enough since the last save. Another process may have saved newer ones: the larger up_to wins.
   */
  #saveBucketCounts(): void {
    const table = this.#table;
    const upTo = this.#lastSeenId;
    if (!(table instanceof PairedBlockTable) || upTo < this.#saveCountsAfter) return;
    if (upTo - this.#countsSavedUpTo < Math.max(this.#saveCountsAfter, this.#countsSavedUpTo / 16)) return;
    const counts = table.bucketCounts();
    this.#db.exec(BUCKET_COUNTS_TABLE);
    this.#db
      .prepare(
        `INSERT INTO bucket_counts (layout, up_to, counts) VALUES (?, ?, ?)
         ON CONFLICT (layout) DO UPDATE SET up_to = excluded.up_to, counts = excluded.counts WHERE excluded.up_to > bucket_counts.up_to`,
      )
      .run(layoutKey(this.layout), upTo, Buffer.from(counts.buffer, counts.byteOffset, counts.byteLength));
    this.#countsSavedUpTo = upTo;
  }

  /** The 32-bit words of a hex-packed chunk statement, id range by id range up to `maxId`. */
  *#chunks(statement: Statement, after: number, maxId: number): Generator<Uint32Array> {
    // One buffer for every chunk (up to 6 words a row); Buffer.alloc is never pooled, so it is 4-byte aligned.
    const bytes = Buffer.alloc(CHUNK_IDS * 6 * 4);
    for (let from = after; from < maxId; from += CHUNK_IDS) {
      const hex = statement.get(from, Math.min(maxId, from + CHUNK_IDS)) as string | null;
      if (hex === null) continue;
      const length = bytes.write(hex, 0, 'hex');
      bytes.subarray(0, length).swap32();
      yield new Uint32Array(bytes.buffer, bytes.byteOffset, length >>> 2);
    }
  }

  /** Rebuilds the URL filter, twice as large, once it holds more keys than it was sized for. */
  #regrowFilter(): void {
    if (this.#filter === null || !this.#filter.full) return;
    const upTo = this.#lastSeenId;
    const filter = new UrlFilter(upTo * 2);
    for (const words of this.#chunks(this.#sql.keyChunk, 0, upTo)) for (const key of words) filter.add(key);
    this.#filter = filter;
  }

  /** Adds the rows other connections committed since this one last looked. */
  #catchUp(): void {
    const table = this.#table!;
    const tail = this.#tail!;
    const filter = this.#filter!;
    const rows = this.#sql.catchUp.all(this.#lastSeenId) as [number, number, number, number, number][];
    for (const [id, isStored, hi, lo, key] of rows) {
      if (isStored === 1) table.add(id, hi, lo);
      tail.add(key, id);
      filter.add(key);
      this.#lastSeenId = id;
    }
    // A process that only looks things up never merges; keep its tail from growing without bound.
    if (tail.size >= 2 * this.#urlMergeThreshold) this.#syncUrlIndex();
  }

  /** After another connection merged the tail into url_index, keep only the documents still outside it. */
  #syncUrlIndex(): void {
    const indexedTo = Number(this.#sql.urlIndexedTo.get());
    if (indexedTo === this.#urlIndexedTo) return;
    const tail = this.#tail!;
    tail.clear();
    for (const [id, key] of this.#sql.tailRows.iterate(indexedTo, this.#lastSeenId) as IterableIterator<[number, number]>) {
      tail.add(key, id);
    }
    this.#urlIndexedTo = indexedTo;
  }

  /** Inside a write transaction: moves the tail into url_index, sorted, so each index page is written once. */
  #mergeUrls(): void {
    this.#dirty = true;
    this.#sql.mergeUrls.run(this.#urlIndexedTo, this.#lastSeenId);
    this.#sql.setUrlIndexedTo.run(this.#lastSeenId);
    this.#tail!.clear();
    this.#urlIndexedTo = this.#lastSeenId;
  }

  /** The stored document an exact duplicate or the nearest near duplicate, or null. */
  #find(hi: number, lo: number, textHash: string): Found | null {
    const list = this.#candidates;
    list.clear();
    this.#table!.candidates(hi, lo, list);
    const k = this.params.distance;
    let best: Found | null = null;
    for (let i = 0; i < list.count; i++) {
      const id = list.ids[i]!;
      const row = this.#sql.candidate.get(id) as [number, number, string, string] | undefined;
      if (row === undefined) continue;
      const distance = popcount32((row[0] ^ hi) >>> 0) + popcount32((row[1] ^ lo) >>> 0);
      if (distance > k) continue;
      if (distance === 0 && row[3] === textHash) return { id, url: row[2], distance: 0, exact: true };
      if (best === null || distance < best.distance || (distance === best.distance && id < best.id)) {
        best = { id, url: row[2], distance, exact: false };
      }
    }
    return best;
  }

  /** The row recorded for a URL: among the tail's ids first, else through url_index. */
  #priorRow(url: string): PriorRow | undefined {
    return this.#rowForUrl<PriorRow>(url, this.#sql.priorById, this.#sql.priorIndexed);
  }

  /**
   * A URL's row through `byId` (id, url) for the in-memory tail's ids, else `byIndexed` (key, url)
   * through url_index; the Bloom filter answers "never seen" without a read.
   */
  #rowForUrl<T>(url: string, byId: Database.Statement, byIndexed: Database.Statement): T | undefined {
    const key = urlKey(url);
    if (!this.#filter!.mayHave(key)) return undefined;
    const ids = this.#urlIds;
    ids.clear();
    this.#tail!.idsOf(key, ids);
    for (let i = 0; i < ids.count; i++) {
      const row = byId.get(ids.ids[i], url) as T | undefined;
      if (row !== undefined) return row;
    }
    return byIndexed.get(BigInt(key), url) as T | undefined;
  }

  /** The decision already recorded for a URL (marked `repeated`), or null. */
  #prior(url: string): Decision | null {
    const row = this.#priorRow(url);
    if (row !== undefined) {
      const [id, kind, distance, matchId] = row;
      if (kind === 'stored') return { kind, id, repeated: true };
      const matchUrl = (this.#sql.urlOf.get(matchId) as string | undefined) ?? '';
      if (kind === 'exact') return { kind, id, matchId: matchId ?? 0, matchUrl, distance: 0, repeated: true };
      return { kind, id, matchId: matchId ?? 0, matchUrl, distance: distance ?? 0, repeated: true };
    }
    const reason = this.#sql.probeSkipped.get(url) as SkipReason | undefined;
    return reason === undefined ? null : { kind: 'skipped', reason, repeated: true };
  }

  #insertSkip(url: string, reason: SkipReason, detail: string | null): void {
    this.#sql.insertSkipped.run(url, reason, detail, Date.now());
    this.#pending.skipped++;
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
    const kind = found === null ? 'stored' : found.exact ? 'exact' : 'near';
    const layout = this.layout;
    const key = urlKey(doc.url);
    const args: unknown[] = [kind, doc.url, BigInt(key), fingerprintToBigInt({ hi, lo })];
    for (let b = 0; b < layout.count; b++) args.push(blockValue(hi, lo, layout.starts[b]!, layout.widths[b]!));
    args.push(
      doc.textHash,
      found === null ? null : found.distance,
      found === null ? null : found.id,
      optionalString(doc, 'finalUrl'),
      optionalString(doc, 'title'),
      optionalString(doc, 'language'),
      optionalInt(doc, 'textLength'),
      optionalInt(doc, 'fetchedAt'),
      optionalString(doc, 'canonicalUrl'),
      optionalString(doc, 'publishedAt'),
      optionalString(doc, 'lastModified'),
      optionalInt(doc, 'depth'),
    );
    const id = Number(this.#sql.insert.run(...args).lastInsertRowid);
    // Inside BEGIN IMMEDIATE after catching up, nobody else can have added a row in between.
    this.#lastSeenId = id;
    this.#dirty = true;
    this.#tail!.add(key, id);
    this.#filter!.add(key);
    this.#pending[kind]++;
    if (found === null) {
      this.#table!.add(id, hi, lo);
      return { kind: 'stored', id };
    }
    if (found.exact) return { kind: 'exact', id, matchId: found.id, matchUrl: found.url, distance: 0 };
    return { kind: 'near', id, matchId: found.id, matchUrl: found.url, distance: found.distance };
  }

  #flushCounts(): void {
    const pending = this.#pending;
    for (const kind of ['stored', 'exact', 'near', 'skipped'] as const) {
      if (pending[kind] !== 0) {
        this.#sql.bumpCount.run(pending[kind], kind);
        pending[kind] = 0;
      }
    }
  }

  *#pages(statement: Statement): Generator<DocumentRow> {
    let after = 0;
    for (;;) {
      this.#assertOpen();
      let rows: DocumentRow[];
      try {
        rows = statement.all(after) as DocumentRow[];
      } catch (error) {
        throw this.#wrap(error);
      }
      yield* rows;
      if (rows.length < PAGE_ROWS) return;
      after = rows[rows.length - 1]!.id;
    }
  }
}

/** The key of a layout's row in bucket_counts: its block widths. */
function layoutKey(layout: BlockLayout): string {
  return layout.widths.join(',');
}

/** Opens the SQLite connection, turning failures into one-line IndexErrors. */
function connect(path: string, readonly: boolean, busyTimeoutMs: number): Database.Database {
  let db: Database.Database;
  try {
    db = new Database(path, { readonly, fileMustExist: readonly, timeout: busyTimeoutMs });
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
    throw new IndexError(`Cannot open index \`${path}\`: ${message}`, { cause: error });
  }
  // Fingerprints are read as two 32-bit halves computed in SQL, so every integer read fits a double.
  db.defaultSafeIntegers(false);
  return db;
}

/**
 * Checks that `db` is a neardup index this code can use and returns the parameters stored in it, or
 * null when the database is empty (a new index is to be created).
 */
function readSchema(db: Database.Database, path: string, readonly: boolean): FingerprintParams | null {
  const applicationId = db.pragma('application_id', { simple: true }) as number;
  const objects = db.prepare('SELECT count(*) FROM sqlite_master').pluck().get() as number;
  if (applicationId === 0 && objects === 0) {
    if (readonly) throw new IndexError(`\`${path}\` is an empty SQLite database, not a neardup index`);
    return null;
  }
  if (applicationId !== APPLICATION_ID) {
    throw new IndexError(`\`${path}\` is a SQLite database but not a neardup index (application_id ${applicationId})`);
  }
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    throw new IndexError(`Index \`${path}\` has schema version ${version}, newer than this neardup understands (${SCHEMA_VERSION})`);
  }
  const json = db.prepare("SELECT value FROM meta WHERE key = 'params'").pluck().get() as string | undefined;
  if (json === undefined) throw new IndexError(`Index \`${path}\` has no fingerprint parameters (meta.params is missing)`);
  try {
    return validateParams(JSON.parse(json));
  } catch (error) {
    throw new IndexError(`Index \`${path}\` has unreadable fingerprint parameters: ${(error as Error).message}`, { cause: error });
  }
}
