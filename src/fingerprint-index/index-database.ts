/**
 * Opening the SQLite file of a fingerprint index: the connection and its pragmas, creating the
 * schema in an empty file, refusing a file that is not a neardup index or was made with other
 * fingerprint parameters, and one-line messages for SQLite's failures.
 */
import Database from 'better-sqlite3';
import { IndexError, NeardupError } from '../errors.js';
import type { FingerprintParams } from '../types.js';
import { blockLayout } from './block-layout.js';
import type { ResolvedIndexOptions } from './index-options.js';
import {
  APPLICATION_ID, SCHEMA_1_TO_2, SCHEMA_VERSION, assertSameParams, paramsToJson, schemaStatements,
} from './index-schema.js';
import { validateParams } from '../fingerprint/fingerprint-params.js';
import { URL_KEY_VERSION } from './url-key.js';

/** One line describing a SQLite (or other) failure, for IndexError messages. */
export function describeFailure(error: unknown, path: string, busyTimeoutMs: number): string {
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

/** A neardup error as it is; anything else as a one-line IndexError with it as the cause. */
export function wrapIndexFailure(error: unknown, path: string, busyTimeoutMs: number): Error {
  if (error instanceof NeardupError) return error;
  return new IndexError(describeFailure(error, path, busyTimeoutMs), { cause: error });
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

/** links.in_main, added to an index made before it (additive: old rows read as 0, not in the main text). */
function addLinksInMainColumn(db: Database.Database): void {
  const columns = db.prepare('SELECT name FROM pragma_table_info(\'links\')').pluck().all() as string[];
  if (!columns.includes('in_main')) db.exec('ALTER TABLE links ADD COLUMN in_main INTEGER NOT NULL DEFAULT 0');
}

/** Creates the schema of an empty index, or checks the parameters of an existing one. */
function createOrCheckSchema(db: Database.Database, path: string, options: ResolvedIndexOptions): void {
  const { params, readonly } = options;
  const stored = readSchema(db, path, readonly);
  if (stored !== null) {
    assertSameParams(stored, params, path);
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version < SCHEMA_VERSION && readonly) {
      throw new IndexError(
        `Index \`${path}\` has schema version ${version}, made by an older neardup (this one writes ${SCHEMA_VERSION}): ` +
          'rebuild it by running the crawl again, or `neardup dedup` over its corpus.jsonl, into a new --data directory',
      );
    }
    if (version < SCHEMA_VERSION) for (const sql of SCHEMA_1_TO_2) db.exec(sql);
    if (!readonly) addLinksInMainColumn(db);
    return;
  }
  const layout = blockLayout(params.distance);
  for (const sql of schemaStatements(layout)) db.exec(sql);
  const meta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
  meta.run('params', paramsToJson(params));
  meta.run('layout', JSON.stringify({ starts: layout.starts, widths: layout.widths }));
  meta.run('url_key', URL_KEY_VERSION);
  meta.run('created_at', new Date().toISOString());
}

/**
 * Switches the connection to WAL. Two processes opening one new file at once can both be on the
 * rollback journal, and the switch then answers SQLITE_BUSY at once, without SQLite's busy handler
 * (waiting could deadlock): retried here every few milliseconds until `busyTimeoutMs` has passed.
 */
function enterWalMode(db: Database.Database, busyTimeoutMs: number): void {
  const deadline = Date.now() + busyTimeoutMs;
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    }
  }
}

/**
 * Opens (creating if missing, unless read-only) the index database at `path` with its pragmas set
 * and its schema created or checked; the connection is closed again on any failure.
 */
export function openIndexDatabase(path: string, options: ResolvedIndexOptions): Database.Database {
  const { readonly, busyTimeoutMs, cacheSizeMb } = options;
  const db = connect(path, readonly, busyTimeoutMs);
  try {
    if (!readonly) {
      enterWalMode(db, busyTimeoutMs);
      db.pragma('synchronous = NORMAL');
      // Random url_key index inserts dirty one page per document; checkpointing (and syncing) every
      // 10,000 pages instead of 1,000 cuts the write cost of a batch by about a quarter.
      db.pragma('wal_autocheckpoint = 10000');
    }
    db.pragma(`cache_size = ${-1024 * cacheSizeMb}`);
    const setUp = () => createOrCheckSchema(db, path, options);
    if (readonly) setUp();
    else db.transaction(setUp).immediate();
    return db;
  } catch (error) {
    db.close();
    throw wrapIndexFailure(error, path, busyTimeoutMs);
  }
}

/** The fingerprint parameters stored in the index at `path` (opened read-only, then closed). */
export function readIndexParams(path: string): FingerprintParams {
  const db = connect(path, true, 5000);
  try {
    const stored = readSchema(db, path, true);
    if (stored === null) throw new IndexError(`\`${path}\` is an empty SQLite database, not a neardup index`);
    return stored;
  } catch (error) {
    throw wrapIndexFailure(error, path, 5000);
  } finally {
    db.close();
  }
}
