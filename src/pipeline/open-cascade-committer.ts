import type { Config } from '../config.js';
import { StorageError } from '../errors.js';
import type { IndexBackend } from '../fingerprint-index/index-backend.js';
import { CascadeCommitter } from '../cascade/cascade-committer.js';
import { BufferedCascadePersistence } from '../cascade/buffered-cascade-persistence.js';
import { cascadeOn } from '../cascade/run-cascade.js';
import { SqliteCascadeTables } from '../cascade/sqlite-cascade-tables.js';
import { SqliteIndexBackend } from '../fingerprint-index/sqlite-index-backend.js';
import { PgFingerprintIndex } from '../fingerprint-index/postgres/pg-fingerprint-index.js';
import { PgCascadeTables } from '../fingerprint-index/postgres/pg-cascade-tables.js';

/**
 * The cascade's committing half for an index (null when every stage is off): its tables in the
 * SQLite database, written in the index's transactions; or beside a PostgreSQL index, written after.
 */
export async function openCascadeCommitter(options: Config['cascade'], index: IndexBackend): Promise<CascadeCommitter | null> {
  if (!cascadeOn(options)) return null;
  if (index instanceof SqliteIndexBackend) return new CascadeCommitter(options, index.index.exclusive((db) => new SqliteCascadeTables(db)));
  if (index instanceof PgFingerprintIndex) {
    const persistence = new BufferedCascadePersistence(await PgCascadeTables.open(index.session));
    await persistence.refresh();
    return new CascadeCommitter(options, persistence);
  }
  throw new StorageError(`The cascade cannot keep its records beside index \`${index.label}\` (neither SQLite nor PostgreSQL)`);
}
