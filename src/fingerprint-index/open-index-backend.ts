/**
 * Opens the index a pipeline uses: the PostgreSQL one at `indexUrl` when given, else the SQLite one
 * at `sqlitePath`. With PostgreSQL, `writer` (the data folder's writer id, see store/writer-id.ts) is
 * recorded with each stored document, so that a restarted process writes the corpus lines of the
 * documents it stored before, and no other's.
 */
import type { FingerprintParams } from '../types.js';
import { FingerprintIndex } from './fingerprint-index.js';
import type { IndexOptions } from './fingerprint-index.js';
import type { IndexBackend } from './index-backend.js';
import { SqliteIndexBackend } from './sqlite-index-backend.js';

export interface OpenIndexOptions {
  /** The SQLite index file, used when `indexUrl` is null. */
  readonly sqlitePath: string;
  /** A PostgreSQL index URL, or null for SQLite. */
  readonly indexUrl: string | null;
  /** This process's writer id (PostgreSQL only). */
  readonly writer: () => string;
  readonly params: FingerprintParams;
  /** The second stage's settings, or null for the k rule alone. */
  readonly verify?: IndexOptions['verify'];
}

export async function openIndexBackend(options: OpenIndexOptions): Promise<IndexBackend> {
  if (options.indexUrl === null) return new SqliteIndexBackend(FingerprintIndex.open(options.sqlitePath, { params: options.params, verify: options.verify ?? null }));
  // Loaded only when asked for: `pg` costs a crawl's dedup worker 100–200 ms to load at each start.
  const { PgFingerprintIndex } = await import('./postgres/pg-fingerprint-index.js');
  return PgFingerprintIndex.open(options.indexUrl, { params: options.params, writer: options.writer(), verify: options.verify ?? null });
}
