/**
 * One crawl per data folder at a time. The crawl's queue belongs to one process: it lives in
 * memory, rebuilt from the frontier journal when a crawl starts (durable-request-queue.ts), so a
 * second crawl on the same folder would fetch the first one's pending requests again and append
 * to the same journal. The second crawl is
 * refused instead, before it touches anything, with a CrawlLockedError naming the lock file.
 * (Any number of `neardup dedup` processes may still write the folder beside one crawl: the index
 * and the corpus are safe across processes; only the crawl queue is not.)
 *
 * The lock is an exclusive SQLite lock (an fcntl lock on `<data>/crawl.lock`), held from
 * `acquire` to `release`. The operating system drops it when the process ends, however it ends,
 * so a crawl killed with SIGKILL leaves no stale lock behind; a pid file would. The file itself is
 * kept: removing it while another process opens it would let two crawls lock two different files.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { CrawlLockedError, StorageError, ValidationError, describeValue } from '../errors.js';

/** The lock file's name in a data folder. */
export const crawlLockFileName = 'crawl.lock';

export class CrawlLock {
  readonly path: string;
  #db: Database.Database | null;

  private constructor(path: string, db: Database.Database) {
    this.path = path;
    this.#db = db;
  }

  /**
   * Takes the data folder's crawl lock (creating the folder if missing), or throws
   * CrawlLockedError at once (no waiting) when another process holds it.
   */
  static acquire(dataDir: string): CrawlLock {
    if (typeof dataDir !== 'string' || dataDir.trim() === '') {
      throw new ValidationError(`Expected \`data\` to be a folder path, got ${describeValue(dataDir)}`);
    }
    try {
      mkdirSync(dataDir, { recursive: true });
    } catch (error) {
      throw new StorageError(`Cannot create data folder \`${dataDir}\`: ${(error as Error).message}`, { cause: error });
    }
    const path = join(dataDir, crawlLockFileName);
    let db: Database.Database;
    try {
      db = new Database(path, { timeout: 0 });
    } catch (error) {
      throw new StorageError(`Cannot open the crawl lock \`${path}\`: ${(error as Error).message}`, { cause: error });
    }
    try {
      db.pragma('locking_mode = EXCLUSIVE');
      db.exec('BEGIN EXCLUSIVE');
    } catch (error) {
      db.close();
      if ((error as { code?: unknown }).code === 'SQLITE_BUSY') {
        throw new CrawlLockedError(`another crawl is running on this data folder (it holds \`${path}\`); wait for it to end, or crawl into another --data`, { cause: error });
      }
      throw new StorageError(`Cannot take the crawl lock \`${path}\`: ${(error as Error).message}`, { cause: error });
    }
    return new CrawlLock(path, db);
  }

  /** Lets the next crawl in. Safe to call twice. */
  release(): void {
    const db = this.#db;
    if (db === null) return;
    this.#db = null;
    try {
      db.exec('ROLLBACK');
    } finally {
      db.close();
    }
  }
}
