/**
 * The SQLite schema of a neardup index, its version, and the fingerprint parameters stored in it.
 *
 * documents   every document the index judged: kind 'stored' | 'exact' | 'near' | 'similar'. One id
 *             space for stored and rejected rows (ids only grow; rows are never deleted). fingerprint
 *             is the signed 64-bit simhash, b0..bN its k + 1 blocks; url_key a 53-bit hash of url (see
 *             url-key.ts). Rejected rows carry distance and match_id (the stored document matched),
 *             `similar` ones also similarity (Jaccard) and containment. text_key (the text hash's first
 *             64 bits) is indexed for stored rows: exact duplicates are looked up on it alone. sketch
 *             (stored rows and the members of their clusters, second stage on) is the
 *             feature-set sketch, 4 bytes a value.
 *             Schema 2 added text_key, sketch, similarity, containment and kind 'similar' (additive;
 *             a schema-1 file is brought up to date when opened for writing).
 * url_index   (url_key, id) of every document with id ≤ counters.url_indexed_to, filled in sorted
 *             batches (see url-tail.ts); newer documents are found through the in-memory tail.
 * skipped     pages recorded with a reason instead of a fingerprint (no-text, robots, http-error, ...).
 * links       distinct (to_url, from_url) pairs of the crawl's link graph, with in_main (the link lies
 *             in the linking page's main text), for citation counts.
 * counters    rows per kind (stats() without a table scan) and url_indexed_to, kept in step by every
 *             write transaction.
 * meta        params (JSON), block layout, URL key version, schema version, creation time.
 * bucket_counts  per block layout (its widths), the in-memory table's bucket counts of every stored
 *             document with id ≤ up_to (native-endian 32-bit counts), so that opening builds the table in
 *             one pass over documents instead of two. A cache: rows never change once written, so the
 *             counts stay true; counts that do not fit the rows are ignored. Created on first save in
 *             databases made before it existed.
 * Views stored_documents and rejected_documents are there for people reading the file with sqlite3.
 */
import { ParameterMismatchError } from '../errors.js';
import type { FingerprintParams } from '../types.js';
import type { BlockLayout } from './block-layout.js';

/** PRAGMA application_id of every neardup index: 'ndup'. */
export const APPLICATION_ID = 0x6e647570;
/** PRAGMA user_version of the schema this code writes. */
export const SCHEMA_VERSION = 2;

/** The bucket_counts table (see the module comment); IF NOT EXISTS, for databases made before it. */
export const BUCKET_COUNTS_TABLE =
  'CREATE TABLE IF NOT EXISTS bucket_counts (layout TEXT PRIMARY KEY, up_to INTEGER NOT NULL, counts BLOB NOT NULL) WITHOUT ROWID';

/** Stored rows by the first 64 bits of their text hash: the exact check, independent of the fingerprint. */
const TEXT_KEY_INDEX = "CREATE INDEX IF NOT EXISTS documents_text_key ON documents (text_key) WHERE kind = 'stored'";

/**
 * Brings a schema-1 index up to schema 2 (additive: columns, the text-key index, the `similar`
 * counter). Rows of schema 1 have no text_key; they were made by normaliser 1, which this build
 * refuses, so they are never looked up. Schema 1's CHECK on kind stays, so such a file cannot record
 * `similar` rows: rebuild it (see assertSameParams).
 */
export const SCHEMA_1_TO_2 = [
  'ALTER TABLE documents ADD COLUMN text_key INTEGER',
  'ALTER TABLE documents ADD COLUMN sketch BLOB',
  'ALTER TABLE documents ADD COLUMN similarity REAL',
  'ALTER TABLE documents ADD COLUMN containment REAL',
  TEXT_KEY_INDEX,
  "INSERT OR IGNORE INTO counters (name, value) VALUES ('similar', 0)",
  'PRAGMA user_version = 2',
];

/**
 * The text_key of a text hash: for neardup's hashes (32 hex digits) their first 16 as a signed 64-bit
 * integer; any other string (the library accepts any) is hashed to 64 bits (FNV-1a). Equal hashes,
 * equal keys; a key match is confirmed on the whole text_hash.
 */
export function textKeyOf(textHash: string): bigint {
  if (/^[0-9a-f]{16}/.test(textHash)) return BigInt.asIntN(64, BigInt(`0x${textHash.slice(0, 16)}`));
  let h = 0xcbf29ce484222325n;
  for (let i = 0; i < textHash.length; i++) h = BigInt.asUintN(64, (h ^ BigInt(textHash.charCodeAt(i))) * 0x100000001b3n);
  return BigInt.asIntN(64, h);
}

/** Names of the block columns: b0, b1, ... */
export function blockColumns(layout: BlockLayout): string[] {
  return Array.from({ length: layout.count }, (_, i) => `b${i}`);
}

/** Statements creating an empty index for a layout. */
export function schemaStatements(layout: BlockLayout): string[] {
  const blocks = blockColumns(layout).map((c) => `  ${c} INTEGER NOT NULL,`).join('\n');
  return [
    `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID`,
    `CREATE TABLE documents (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('stored', 'exact', 'near', 'similar')),
  url TEXT NOT NULL,
  url_key INTEGER NOT NULL,
  fingerprint INTEGER NOT NULL,
${blocks}
  text_hash TEXT NOT NULL,
  distance INTEGER,
  match_id INTEGER,
  final_url TEXT,
  title TEXT,
  language TEXT,
  text_length INTEGER,
  fetched_at INTEGER,
  canonical_url TEXT,
  published_at TEXT,
  last_modified TEXT,
  depth INTEGER,
  text_key INTEGER,
  sketch BLOB,
  similarity REAL,
  containment REAL
)`,
    TEXT_KEY_INDEX,
    `CREATE TABLE url_index (url_key INTEGER NOT NULL, id INTEGER NOT NULL, PRIMARY KEY (url_key, id)) WITHOUT ROWID`,
    `CREATE TABLE skipped (url TEXT PRIMARY KEY, reason TEXT NOT NULL, detail TEXT, at INTEGER NOT NULL) WITHOUT ROWID`,
    // in_main: 1 when the link lies inside the linking page's main text (a citation, not a template
    // link). Added after schema version 1 without a version bump: older indexes get it on opening
    // for writing (index-database.ts), and readers treat a missing column as 0.
    `CREATE TABLE links (to_url TEXT NOT NULL, from_url TEXT NOT NULL, in_main INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (to_url, from_url)) WITHOUT ROWID`,
    `CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID`,
    `INSERT INTO counters (name, value) VALUES ('stored', 0), ('exact', 0), ('near', 0), ('similar', 0), ('skipped', 0), ('url_indexed_to', 0)`,
    BUCKET_COUNTS_TABLE,
    `CREATE VIEW stored_documents AS SELECT * FROM documents WHERE kind = 'stored'`,
    `CREATE VIEW rejected_documents AS SELECT * FROM documents WHERE kind <> 'stored'`,
    `PRAGMA application_id = ${APPLICATION_ID}`,
    `PRAGMA user_version = ${SCHEMA_VERSION}`,
  ];
}

const PARAM_KEYS = ['distance', 'shingleSize', 'hash', 'weighting', 'normalizerVersion'] as const;

/** The JSON stored in meta.params (keys in a fixed order). */
export function paramsToJson(params: FingerprintParams): string {
  return JSON.stringify(Object.fromEntries(PARAM_KEYS.map((key) => [key, params[key]])));
}

/** Throws ParameterMismatchError naming every parameter that differs. */
export function assertSameParams(stored: FingerprintParams, wanted: FingerprintParams, path: string): void {
  const differences = PARAM_KEYS.filter((key) => stored[key] !== wanted[key]).map(
    (key) => `${key} ${JSON.stringify(stored[key])} (asked for ${JSON.stringify(wanted[key])})`,
  );
  if (differences.length > 0) {
    // A normaliser change moves fingerprints: no parameter choice makes the old index usable again.
    const remedy = stored.normalizerVersion !== wanted.normalizerVersion
      ? `it was built by an older normaliser (v${stored.normalizerVersion}; this neardup uses v${wanted.normalizerVersion}), whose fingerprints cannot be compared with new ones: ` +
        'rebuild it by running the crawl again, or `neardup dedup` over its corpus.jsonl (or your inputs), into a new --data directory'
      : 'use the same parameters or another --data directory';
    throw new ParameterMismatchError(`Index \`${path}\` was made with other fingerprint parameters: ${differences.join(', ')}; ${remedy}`);
  }
}
