/**
 * Opens the index a pipeline uses: the PostgreSQL one at `indexUrl` when given, else the SQLite one in
 * the data folder. With PostgreSQL, the data folder keeps this writer's id (writer-id), so that a
 * restarted process writes the corpus lines of the documents it stored before, and no other's.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StorageError } from '../errors.js';
import { databaseFileName, writerIdFileName } from '../store/data-folder.js';
import type { FingerprintParams } from '../types.js';
import { FingerprintIndex } from './fingerprint-index.js';
import type { IndexBackend } from './index-backend.js';
import { PgFingerprintIndex } from './postgres/pg-fingerprint-index.js';
import { SqliteIndexBackend } from './sqlite-index-backend.js';

export interface OpenIndexOptions {
  /** The data folder (exists). */
  readonly dataDir: string;
  /** A PostgreSQL index URL, or null for SQLite under dataDir. */
  readonly indexUrl: string | null;
  readonly params: FingerprintParams;
}

/** The writer id kept in a data folder, made on first use. */
export function writerIdOf(dataDir: string): string {
  const path = join(dataDir, writerIdFileName);
  try {
    const id = readFileSync(path, 'utf8').trim();
    if (/^[0-9a-f-]{36}$/.test(id)) return id;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new StorageError(`Cannot read \`${path}\`: ${(error as Error).message}`, { cause: error });
    }
  }
  const id = randomUUID();
  try {
    writeFileSync(path, `${id}\n`, { flag: 'wx' });
  } catch (error) {
    // Another process of this folder made it first: use its id.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(path, 'utf8').trim();
    throw new StorageError(`Cannot write \`${path}\`: ${(error as Error).message}`, { cause: error });
  }
  return id;
}

export async function openIndexBackend(options: OpenIndexOptions): Promise<IndexBackend> {
  if (options.indexUrl === null) {
    return new SqliteIndexBackend(FingerprintIndex.open(join(options.dataDir, databaseFileName), { params: options.params }));
  }
  return PgFingerprintIndex.open(options.indexUrl, { params: options.params, writer: writerIdOf(options.dataDir) });
}
