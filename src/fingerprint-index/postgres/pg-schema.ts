/**
 * The PostgreSQL schema of a shared neardup index: the same tables and meanings as the SQLite one
 * (index-schema.ts), with the names prefixed `neardup_` so the index can live in a database that holds
 * other tables.
 *
 * neardup_documents  every judged document; ids come from one sequence and only grow, but in a shared
 *                    database they are not committed in id order: `xid` (the inserting transaction,
 *                    pg_current_xact_id()) lets a process catch up on rows committed since it last
 *                    looked (see pg-catch-up.ts). b0..bN are the fingerprint's blocks, for people and for
 *                    sharding by block value (Citus); lookups use each process's in-memory table.
 *                    writer: the id of the process's data folder that stored the row (its corpus
 *                    has the line; see open-index-backend.ts), null when not given.
 *                    similarity, containment: the second stage's estimates (kind 'similar').
 * neardup_sketches   the feature-set sketch of stored documents (second stage on; 4 bytes a value,
 *                    little-endian, as on SQLite), in a table of its own so that the fingerprints' COPY
 *                    on open does not read them; loaded (keys only) when the second stage is on.
 * neardup_skipped    pages recorded with a reason instead of a fingerprint.
 * neardup_links      distinct (to_url, from_url) pairs with in_main (1: the link lies in the linking
 *                    page's main text), for citation counts (report/citation-counts.ts).
 * neardup_meta       params (JSON), layout, schema version, creation time.
 * url is UNIQUE on documents as a backstop: the URL's advisory lock already makes a URL judged once.
 */
import type { BlockLayout } from '../block-layout.js';
import { blockColumns } from '../index-schema.js';

/** The schema version this code writes (meta 'schema_version'); 2 added the second stage (additive, PG_SECOND_STAGE_UPGRADE). */
export const PG_SCHEMA_VERSION = 2;

/** The advisory lock key (bigint) serialising schema creation between processes opening a new database. */
export const SETUP_LOCK_KEY = '7954611965739925504'; // 'ndup' << 32: above every key lock-keys.ts makes (< 2^50)

/** Columns of neardup_documents written by an insert, in order, after id. */
export function insertColumns(layout: BlockLayout): string[] {
  return [
    'kind', 'url', 'fingerprint', ...blockColumns(layout), 'text_hash', 'distance', 'match_id', 'final_url', 'title',
    'language', 'text_length', 'fetched_at', 'canonical_url', 'published_at', 'last_modified', 'depth', 'writer',
    'similarity', 'containment',
  ];
}

/** The Postgres type of each insert column (for unnest of one array per column). */
export function insertTypes(layout: BlockLayout): string[] {
  return [
    'text', 'text', 'bigint', ...blockColumns(layout).map(() => 'bigint'), 'text', 'integer', 'bigint', 'text', 'text',
    'text', 'integer', 'bigint', 'text', 'text', 'text', 'integer', 'text', 'float8', 'float8',
  ];
}

/** Statements creating an empty index (run once, under SETUP_LOCK_KEY). */
export function pgSchemaStatements(layout: BlockLayout): string[] {
  const blocks = blockColumns(layout).map((c) => `  ${c} bigint NOT NULL,`).join('\n');
  return [
    `CREATE TABLE IF NOT EXISTS neardup_meta (key text PRIMARY KEY, value text NOT NULL)`,
    `CREATE TABLE neardup_documents (
  id bigint PRIMARY KEY,
  xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  kind text NOT NULL CONSTRAINT neardup_documents_kind_check CHECK (kind IN ('stored', 'exact', 'near', 'similar')),
  url text NOT NULL UNIQUE,
  fingerprint bigint NOT NULL,
${blocks}
  text_hash text NOT NULL,
  distance integer,
  match_id bigint,
  final_url text,
  title text,
  language text,
  text_length integer,
  fetched_at bigint,
  canonical_url text,
  published_at text,
  last_modified text,
  depth integer,
  writer text,
  similarity float8,
  containment float8
)`,
    `CREATE TABLE neardup_sketches (id bigint PRIMARY KEY, sketch bytea NOT NULL)`,
    `CREATE SEQUENCE neardup_documents_id_seq AS bigint MINVALUE 1 MAXVALUE 4294967295 OWNED BY neardup_documents.id`,
    `CREATE INDEX neardup_documents_xid ON neardup_documents (xid)`,
    `CREATE TABLE neardup_skipped (url text PRIMARY KEY, reason text NOT NULL, detail text, at bigint NOT NULL)`,
    `CREATE TABLE neardup_links (to_url text NOT NULL, from_url text NOT NULL, in_main smallint NOT NULL DEFAULT 0, PRIMARY KEY (to_url, from_url))`,
  ];
}

/**
 * neardup_links.in_main, added to an index made before it (additive, no version bump, as on SQLite:
 * old rows read as 0, not in the main text). Run when an index is opened for writing.
 */
export const PG_LINKS_IN_MAIN = 'ALTER TABLE neardup_links ADD COLUMN IF NOT EXISTS in_main smallint NOT NULL DEFAULT 0';

/**
 * Brings a schema-1 index up to schema 2 (the second stage: kind 'similar', similarity, containment,
 * neardup_sketches). Additive: old rows keep their meaning. Run under SETUP_LOCK_KEY by a writer that
 * finds schema_version 1.
 */
export const PG_SECOND_STAGE_UPGRADE = [
  'ALTER TABLE neardup_documents ADD COLUMN IF NOT EXISTS similarity float8, ADD COLUMN IF NOT EXISTS containment float8',
  'ALTER TABLE neardup_documents DROP CONSTRAINT IF EXISTS neardup_documents_kind_check',
  "ALTER TABLE neardup_documents ADD CONSTRAINT neardup_documents_kind_check CHECK (kind IN ('stored', 'exact', 'near', 'similar'))",
  'CREATE TABLE IF NOT EXISTS neardup_sketches (id bigint PRIMARY KEY, sketch bytea NOT NULL)',
  "UPDATE neardup_meta SET value = '2' WHERE key = 'schema_version'",
];
