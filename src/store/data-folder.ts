/**
 * The names of what a data folder (`--data`) holds. A module of its own, without dependencies, so
 * that anything may name the outputs without loading the index or the crawler.
 */
import { lstatSync, readdirSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import { StorageError } from '../errors.js';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** The SQLite database: stored, rejected and skipped pages, links, fingerprint parameters. */
export const databaseFileName = 'neardup.db';
/** The deduplicated corpus, one stored document a line. */
export const corpusFileName = 'corpus.jsonl';
/** crawlee's persisted request queue, so that an interrupted crawl resumes. */
export const crawleeFolderName = 'crawlee';
/**
 * With a PostgreSQL index: this folder's writer id (a random UUID made on first use). The index records,
 * with each document, the writer that stored it, and only that writer's corpus gets its line.
 */
export const writerIdFileName = 'writer-id';

/** The crawl's lock file (crawl/crawl-lock.ts names it; store/ cannot import crawl/). */
const crawlLockFileName = 'crawl.lock';

/** What neardup writes directly in a data folder (the crawlee folder is walked whole). */
const writtenNames = [
  databaseFileName, `${databaseFileName}-wal`, `${databaseFileName}-shm`, `${databaseFileName}-journal`,
  corpusFileName, writerIdFileName, crawlLockFileName, crawleeFolderName,
] as const;

/**
 * Refuses a data folder in which something neardup writes is a symbolic link: the corpus, the
 * index and its journals, the writer id, the crawl lock, the crawlee folder or anything in it.
 * A link would be followed out of --data and its target appended to, cut or rewritten (a link
 * `corpus.jsonl` → `~/notes.txt` had its torn "last line" cut away). The folder itself may be a
 * link: that is where the user put it. Entries that do not exist yet are fine.
 */
export function refuseLinksInDataFolder(dataDir: string): void {
  const check = (path: string, walk: boolean) => {
    let stats;
    try {
      stats = lstatSync(path);
    } catch {
      return; // not there (yet)
    }
    if (stats.isSymbolicLink()) {
      let target = '';
      try {
        target = ` (to \`${readlinkSync(path)}\`)`;
      } catch {
        // Unreadable link: the refusal is the same.
      }
      throw new StorageError(`Refusing to use \`${path}\`: it is a symbolic link${target}, and neardup writes only inside the data folder; put the file itself there, or choose another --data`);
    }
    if (walk && stats.isDirectory()) for (const name of readdirSync(path)) check(join(path, name), true);
  };
  for (const name of writtenNames) check(join(dataDir, name), name === crawleeFolderName);
}

/**
 * Removes a data folder that a failed command made and left holding nothing of value: only the
 * files a run makes before its first page (the writer id, the crawl lock, empty crawlee folders
 * and files, an empty corpus). Call it only for a folder that did not exist before the command
 * (a PostgreSQL index that could not be reached must leave no `--data` behind); anything else in
 * it, e.g. an index, keeps the folder as it is. Returns whether it was removed.
 */
export function removeUnusedDataFolder(dataDir: string): boolean {
  const empty = (path: string): boolean => {
    const stats = lstatSync(path);
    if (stats.isDirectory()) return readdirSync(path).every((name) => empty(join(path, name)));
    return stats.isFile() && stats.size === 0;
  };
  try {
    for (const name of readdirSync(dataDir)) {
      const path = join(dataDir, name);
      if (name === writerIdFileName || name === crawlLockFileName || name === `${crawlLockFileName}-journal`) continue;
      if ((name === crawleeFolderName || name === corpusFileName) && empty(path)) continue;
      return false;
    }
    rmSync(dataDir, { recursive: true });
    return true;
  } catch {
    return false; // gone already, or unreadable: left as it is
  }
}

/**
 * Whether `path` is the data folder `dataDir` or anything under it, with symbolic links resolved
 * in the folders above it (the nearest existing ancestor is resolved, so a path that does not
 * exist yet counts too). A report written there could replace the index, the corpus or the frontier journal; it is
 * refused whatever its name, not only for the names known today.
 */
export function isInsideDataFolder(path: string, dataDir: string): boolean {
  // The file itself is not resolved: a report replaces it (a rename), and a link to elsewhere placed
  // in the data folder is the data folder's entry all the same.
  const absolute = resolve(path);
  const target = join(realPathOfNearest(dirname(absolute)), basename(absolute));
  const root = realPathOfNearest(resolve(dataDir));
  const rel = relative(root, target);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** `path` with its nearest existing ancestor's symbolic links resolved, the rest appended as given. */
function realPathOfNearest(path: string): string {
  const rest: string[] = [];
  let current = path;
  for (;;) {
    try {
      return join(realpathSync(current), ...rest.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return path;
      rest.push(basename(current));
      current = parent;
    }
  }
}
