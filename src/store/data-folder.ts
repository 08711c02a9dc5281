/**
 * The names of what a data folder (`--data`) holds. A module of its own, without dependencies, so
 * that anything may name the outputs without loading the index or the crawler.
 */

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
