/**
 * Finding the row recorded for a URL: a Bloom filter of every URL key (url-filter.ts: a new URL
 * costs no disk read), the in-memory tail of the newest URL keys (url-tail.ts), and the url_index
 * table (index-schema.ts) the tail is merged into, sorted, by write transactions.
 * Built and dropped with the index's in-memory candidate table.
 */
import { IdList } from './id-list.js';
import type { IndexStatements, Statement } from './index-statements.js';
import { UrlFilter } from './url-filter.js';
import { urlKey } from './url-key.js';
import { UrlTail } from './url-tail.js';
import { hexChunks } from './table-loading.js';

export class UrlLookup {
  readonly #sql: IndexStatements;
  readonly #tail = new UrlTail();
  readonly #ids = new IdList(4);
  #filter: UrlFilter;
  /** Documents with ids up to this are in the url_index table (-1: not read yet). */
  #indexedTo = -1;

  /** A lookup over `filter` (every URL key up to `lastSeenId`), its tail read from the database. */
  constructor(sql: IndexStatements, filter: UrlFilter, lastSeenId: number) {
    this.#sql = sql;
    this.#filter = filter;
    this.sync(lastSeenId);
  }

  /** Keys in the in-memory tail. */
  get tailSize(): number {
    return this.#tail.size;
  }

  /** Bytes of the tail and the filter. */
  get byteLength(): number {
    return this.#tail.byteLength + this.#filter.byteLength;
  }

  /** Records a new document's URL key. */
  add(key: number, id: number): void {
    this.#tail.add(key, id);
    this.#filter.add(key);
  }

  /** After another connection merged the tail into url_index, keep only the documents still outside it. */
  sync(lastSeenId: number): void {
    const indexedTo = Number(this.#sql.urlIndexedTo.get());
    if (indexedTo === this.#indexedTo) return;
    const tail = this.#tail;
    tail.clear();
    for (const [id, key] of this.#sql.tailRows.iterate(indexedTo, lastSeenId) as IterableIterator<[number, number]>) {
      tail.add(key, id);
    }
    this.#indexedTo = indexedTo;
  }

  /** Inside a write transaction: moves the tail into url_index, sorted, so each index page is written once. */
  merge(lastSeenId: number): void {
    this.#sql.mergeUrls.run(this.#indexedTo, lastSeenId);
    this.#sql.setUrlIndexedTo.run(lastSeenId);
    this.#tail.clear();
    this.#indexedTo = lastSeenId;
  }

  /** Rebuilds the URL filter, twice as large, once it holds more keys than it was sized for. */
  regrowFilter(lastSeenId: number): void {
    if (!this.#filter.full) return;
    const filter = new UrlFilter(lastSeenId * 2);
    for (const words of hexChunks(this.#sql.keyChunk, 0, lastSeenId)) for (const key of words) filter.add(key);
    this.#filter = filter;
  }

  /**
   * A URL's row through `byId` (id, url) for the in-memory tail's ids, else `byIndexed` (key, url)
   * through url_index; the Bloom filter answers "never seen" without a read.
   */
  rowFor<T>(url: string, byId: Statement, byIndexed: Statement): T | undefined {
    const key = urlKey(url);
    if (!this.#filter.mayHave(key)) return undefined;
    const ids = this.#ids;
    ids.clear();
    this.#tail.idsOf(key, ids);
    for (let i = 0; i < ids.count; i++) {
      const row = byId.get(ids.ids[i], url) as T | undefined;
      if (row !== undefined) return row;
    }
    return byIndexed.get(BigInt(key), url) as T | undefined;
  }
}
