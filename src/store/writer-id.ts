/**
 * A data folder's writer id: with a PostgreSQL index, the id recorded with each document this folder's
 * process stores (its corpus has their lines). A random UUID made on first use, kept in the folder.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StorageError } from '../errors.js';
import { writerIdFileName } from './data-folder.js';

/** The writer id kept in a data folder (which exists), made on first use. */
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
