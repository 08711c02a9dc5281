/**
 * Loading the in-memory view of an index from SQLite: the candidate table of every stored
 * fingerprint and the Bloom filter of every URL key, in one pass over the documents table when the
 * bucket counts saved in it (bucket_counts) cover most documents, two otherwise; and saving those
 * counts as the index grows.
 */
import type Database from 'better-sqlite3';
import type { BlockLayout } from './block-layout.js';
import { buildCandidateTable } from './build-candidate-table.js';
import type { CandidateTable, StoredRowFeed } from './candidate-table.js';
import { BUCKET_COUNTS_TABLE } from './index-schema.js';
import type { Statement } from './index-statements.js';
import { BucketCountsMismatchError } from '../errors.js';
import { PairedBlockTable, suitsPairedTable } from './paired-block-table.js';
import { bucketCountsLength, countRows } from './bucket-counts.js';
import { UrlFilter } from './url-filter.js';

/**
 * Ids per string when reading every row to build the in-memory table: 2,048 rows make an 80 KB string,
 * small enough for V8's young generation (larger strings go to large-object space, which grows the heap
 * for good).
 */
const CHUNK_IDS = 2048;

/** The 32-bit words of a hex-packed chunk statement, id range by id range up to `maxId`. */
export function* hexChunks(statement: Statement, after: number, maxId: number): Generator<Uint32Array> {
  // One buffer for every chunk (up to 6 words a row); Buffer.alloc is never pooled, so it is 4-byte aligned.
  const bytes = Buffer.alloc(CHUNK_IDS * 6 * 4);
  for (let from = after; from < maxId; from += CHUNK_IDS) {
    const hex = statement.get(from, Math.min(maxId, from + CHUNK_IDS)) as string | null;
    if (hex === null) continue;
    const length = bytes.write(hex, 0, 'hex');
    bytes.subarray(0, length).swap32();
    yield new Uint32Array(bytes.buffer, bytes.byteOffset, length >>> 2);
  }
}

/** The key of a layout's row in bucket_counts: its block widths. */
function layoutKey(layout: BlockLayout): string {
  return layout.widths.join(',');
}

/** The bucket counts saved for this layout, if any, covering documents up to `upTo` ≤ maxId. */
function readBucketCounts(db: Database.Database, layout: BlockLayout, maxId: number): { upTo: number; counts: Uint32Array } | null {
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'bucket_counts'").pluck().get();
  if (exists === undefined) return null;
  const row = db.prepare('SELECT up_to, counts FROM bucket_counts WHERE layout = ?').raw().get(layoutKey(layout)) as
    | [number, Buffer]
    | undefined;
  if (row === undefined) return null;
  const [upTo, blob] = row;
  const length = bucketCountsLength(layout);
  if (!Number.isSafeInteger(upTo) || upTo < 0 || upTo > maxId || !Buffer.isBuffer(blob) || blob.length !== length * 4) return null;
  const counts = new Uint32Array(length);
  Buffer.from(counts.buffer).set(blob);
  return { upTo, counts };
}

/**
 * Inside a write transaction: saves a table's bucket counts covering documents up to `upTo`. Another
 * process may have saved newer ones: the larger up_to wins.
 */
export function saveBucketCounts(db: Database.Database, layout: BlockLayout, counts: Uint32Array, upTo: number): void {
  db.exec(BUCKET_COUNTS_TABLE);
  db
    .prepare(
      `INSERT INTO bucket_counts (layout, up_to, counts) VALUES (?, ?, ?)
       ON CONFLICT (layout) DO UPDATE SET up_to = excluded.up_to, counts = excluded.counts WHERE excluded.up_to > bucket_counts.up_to`,
    )
    .run(layoutKey(layout), upTo, Buffer.from(counts.buffer, counts.byteOffset, counts.byteLength));
}

/** What loadInMemoryView read. */
export interface LoadedView {
  readonly table: CandidateTable;
  /** Every document's URL key up to maxId. */
  readonly filter: UrlFilter;
  /** Full passes over the documents table the build took. */
  readonly passes: 1 | 2;
  /** Documents covered by the saved bucket counts used (null: none used). */
  readonly countsSavedUpTo: number | null;
}

/** Builds the candidate table and URL filter from every document with id ≤ maxId. */
export function loadInMemoryView(db: Database.Database, rowChunk: Statement, layout: BlockLayout, maxId: number): LoadedView {
  let filter = new UrlFilter(maxId * 1.25);
  /** The stored rows with ids in (from, maxId]; with `keys`, every row's URL key also goes into the filter. */
  const rows = (from: number, keys: boolean): StoredRowFeed => (visit) => {
    for (const words of hexChunks(rowChunk, from, maxId)) {
      for (let i = 0; i + 4 < words.length; i += 5) {
        if (keys) filter.add(words[i + 4]!);
        if (words[i + 1] === 1) visit(words[i]!, words[i + 2]!, words[i + 3]!);
      }
    }
  };
  const saved = suitsPairedTable(layout) ? readBucketCounts(db, layout, maxId) : null;
  if (saved !== null) {
    try {
      countRows(layout, rows(saved.upTo, false), saved.counts);
      const table = PairedBlockTable.build(layout, rows(0, true), { counts: saved.counts });
      return { table, filter, passes: 1, countsSavedUpTo: saved.upTo };
    } catch (error) {
      // Counts that do not fit the rows (a damaged row of bucket_counts): build from the rows alone.
      if (!(error instanceof BucketCountsMismatchError)) throw error;
      filter = new UrlFilter(maxId * 1.25);
    }
  }
  let pass = 0;
  const table = buildCandidateTable(layout, (visit) => rows(0, ++pass === 1)(visit), maxId);
  return { table, filter, passes: 2, countsSavedUpTo: null };
}
