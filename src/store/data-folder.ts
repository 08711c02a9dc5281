/**
 * The names of what a data folder (`--data`) holds. A module of its own, without dependencies, so
 * that anything may name the outputs without loading the index or the crawler.
 */
import { realpathSync } from 'node:fs';
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
