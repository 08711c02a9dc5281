/**
 * The SQL of a fingerprint index, prepared once per connection, and the mapping between its rows
 * and the records the index hands out (StoredDocument, RejectedDocument) or takes in
 * (IndexCandidate → INSERT arguments).
 */
import type Database from 'better-sqlite3';
import { ValidationError, describeValue } from '../errors.js';
import { fingerprintToBigInt } from '../fingerprint/fingerprint-codec.js';
import type { Decision, DocumentMeta, IndexCandidate, RejectedDocument, SkipReason, StoredDocument } from '../types.js';
import { blockValue, type BlockLayout } from './block-layout.js';
import { sketchToBytes } from '../fingerprint/shingle-sketch.js';
import { blockColumns, textKeyOf } from './index-schema.js';

/** Rows per page when iterating (no cursor stays open between yields, so callers may query meanwhile). */
export const PAGE_ROWS = 1000;

/** @internal */
export type Statement = Database.Statement;

/** A URL's earlier decision as read back: [id, kind, distance, match id]. */
export type PriorRow = [
  id: number, kind: 'stored' | 'exact' | 'near' | 'similar', distance: number | null, matchId: number | null,
  similarity: number | null, containment: number | null,
];

/** A kind of judged document, as the documents table records it. */
export type DocumentKind = 'stored' | 'exact' | 'near' | 'similar';

const DOCUMENT_COLUMNS =
  'id, kind, url, (fingerprint >> 32) & 4294967295 AS hi, fingerprint & 4294967295 AS lo, text_hash, distance, ' +
  'match_id, final_url, title, language, text_length, fetched_at, canonical_url, published_at, last_modified, depth, similarity, containment';

/** A documents row as read with DOCUMENT_COLUMNS (fingerprint as two unsigned 32-bit halves). */
export interface DocumentRow {
  id: number;
  kind: DocumentKind;
  url: string;
  hi: number;
  lo: number;
  text_hash: string;
  distance: number | null;
  match_id: number | null;
  final_url: string | null;
  title: string | null;
  language: string | null;
  text_length: number | null;
  fetched_at: number | null;
  canonical_url: string | null;
  published_at: string | null;
  last_modified: string | null;
  depth: number | null;
  similarity: number | null;
  containment: number | null;
}

/** Rows per kind. */
export interface IndexStats {
  readonly stored: number;
  readonly exact: number;
  readonly near: number;
  readonly similar: number;
  readonly skipped: number;
}

export interface SkippedRow {
  url: string;
  reason: SkipReason;
  detail: string | null;
  at: number;
}

/** Every statement the index runs more than once. @internal */
export interface IndexStatements {
  readonly maxId: Statement;
  readonly rowChunk: Statement;
  readonly keyChunk: Statement;
  readonly tailRows: Statement;
  readonly catchUp: Statement;
  readonly urlIndexedTo: Statement;
  readonly setUrlIndexedTo: Statement;
  readonly mergeUrls: Statement;
  readonly priorById: Statement;
  readonly priorIndexed: Statement;
  readonly probeSkipped: Statement;
  readonly candidate: Statement;
  readonly exactByText: Statement;
  readonly sketchRows: Statement;
  readonly sketchChunk: Statement;
  readonly urlOf: Statement;
  readonly insert: Statement;
  readonly insertSkipped: Statement;
  readonly bumpCount: Statement;
  readonly counts: Statement;
  readonly insertLink: Statement;
  readonly inLinks: Statement;
  readonly byId: Statement;
  readonly byIdAndUrl: Statement;
  readonly byUrlIndexed: Statement;
  readonly storedPage: Statement;
  readonly rejectedPage: Statement;
  readonly skippedPage: Statement;
}

/** Prepares every statement of an index with this block layout. @internal */
export function prepareStatements(db: Database.Database, layout: BlockLayout): IndexStatements {
  const insertColumns = [
    'kind', 'url', 'url_key', 'fingerprint', ...blockColumns(layout), 'text_hash', 'distance', 'match_id', 'final_url', 'title',
    'language', 'text_length', 'fetched_at', 'canonical_url', 'published_at', 'last_modified', 'depth', 'text_key', 'sketch',
    'similarity', 'containment',
  ];
  const p = (sql: string) => db.prepare(sql);
  return {
    maxId: p('SELECT coalesce(max(id), 0) FROM documents').pluck(),
    // Rows packed as hex, five 32-bit words a row (id, stored?, hi, lo, low half of url_key), one string
    // per id range: half the cost of fetching a row per call.
    rowChunk: p(
      `SELECT group_concat(printf('%08x%08x%08x%08x%08x', id, kind = 'stored', (fingerprint >> 32) & 4294967295,
         fingerprint & 4294967295, url_key & 4294967295), '')
       FROM documents WHERE id > ? AND id <= ?`,
    ).pluck(),
    keyChunk: p(`SELECT group_concat(printf('%08x', url_key & 4294967295), '') FROM documents WHERE id > ? AND id <= ?`).pluck(),
    tailRows: p('SELECT id, url_key FROM documents WHERE id > ? AND id <= ? ORDER BY id').raw(),
    catchUp: p(
      `SELECT id, kind = 'stored', (fingerprint >> 32) & 4294967295, fingerprint & 4294967295, url_key, sketch FROM documents
       WHERE id > ? ORDER BY id`,
    ).raw(),
    urlIndexedTo: p("SELECT value FROM counters WHERE name = 'url_indexed_to'").pluck(),
    setUrlIndexedTo: p("UPDATE counters SET value = ? WHERE name = 'url_indexed_to'"),
    mergeUrls: p('INSERT INTO url_index (url_key, id) SELECT url_key, id FROM documents WHERE id > ? AND id <= ? ORDER BY url_key, id'),
    priorById: p('SELECT id, kind, distance, match_id, similarity, containment FROM documents WHERE id = ? AND url = ?').raw(),
    priorIndexed: p(
      `SELECT id, kind, distance, match_id, similarity, containment FROM documents
       WHERE id IN (SELECT id FROM url_index WHERE url_key = ?) AND url = ? ORDER BY id LIMIT 1`,
    ).raw(),
    probeSkipped: p('SELECT reason FROM skipped WHERE url = ?').pluck(),
    candidate: p('SELECT (fingerprint >> 32) & 4294967295, fingerprint & 4294967295, url, text_hash FROM documents WHERE id = ?').raw(),
    urlOf: p('SELECT url FROM documents WHERE id = ?').pluck(),
    exactByText: p("SELECT id, url, text_hash FROM documents WHERE text_key = ? AND kind = 'stored' ORDER BY id").raw(),
    // The rows with a sketch among a JSON array of ids, packed as hex (sketch-rows.ts): id, hi, lo, the
    // cluster's stored document (itself when stored), the sketch's length in bytes (8 hex digits each),
    // then the sketch as stored. One read for all of a lookup's candidates.
    sketchRows: p(
      `SELECT group_concat(printf('%08x%08x%08x%08x%08x', id, (fingerprint >> 32) & 4294967295, fingerprint & 4294967295,
         coalesce(match_id, id), length(sketch)) || hex(sketch), '')
       FROM documents WHERE id IN (SELECT value FROM json_each(?)) AND sketch IS NOT NULL`,
    ).pluck(),
    // Rows with a sketch (stored documents and the members of their clusters), packed as hex, one string per id range: id, hi, lo (8 hex digits each),
    // the sketch's length in values (4 digits), the number n of values that follow (2 digits, at most the first parameter) and the first n
    // values as stored (uint32 little-endian). The key table needs no more than its keys and the values its bound keeps.
    sketchChunk: p(
      `SELECT group_concat(printf('%08x%08x%08x%04x%02x', id, (fingerprint >> 32) & 4294967295, fingerprint & 4294967295,
         length(sketch) / 4, min(length(sketch) / 4, ?)) || hex(substr(sketch, 1, 4 * ?)), '')
       FROM documents WHERE id > ? AND id <= ? AND sketch IS NOT NULL`,
    ).pluck(),
    insert: p(`INSERT INTO documents (${insertColumns.join(', ')}) VALUES (${insertColumns.map(() => '?').join(', ')})`),
    insertSkipped: p('INSERT INTO skipped (url, reason, detail, at) VALUES (?, ?, ?, ?)'),
    bumpCount: p('UPDATE counters SET value = value + ? WHERE name = ?'),
    counts: p("SELECT name, value FROM counters WHERE name IN ('stored', 'exact', 'near', 'similar', 'skipped')").raw(),
    // A link seen in the main text once stays a citation (the same pair from a re-crawl may lack it).
    insertLink: p('INSERT INTO links (to_url, from_url, in_main) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET in_main = max(in_main, excluded.in_main)'),
    // `*`: an index opened read-only from before links.in_main has two columns (citation-counts.ts).
    inLinks: p('SELECT * FROM links').raw(),
    byId: p(`SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE id = ? AND kind = 'stored'`),
    byIdAndUrl: p(`SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE id = ? AND url = ?`),
    byUrlIndexed: p(
      `SELECT ${DOCUMENT_COLUMNS} FROM documents
       WHERE id IN (SELECT id FROM url_index WHERE url_key = ?) AND url = ? ORDER BY id LIMIT 1`,
    ),
    storedPage: p(`SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE kind = 'stored' AND id > ? ORDER BY id LIMIT ${PAGE_ROWS}`),
    rejectedPage: p(`SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE kind <> 'stored' AND id > ? ORDER BY id LIMIT ${PAGE_ROWS}`),
    skippedPage: p(`SELECT url, reason, detail, at FROM skipped WHERE url > ? ORDER BY url LIMIT ${PAGE_ROWS}`),
  };
}

function toMeta(row: DocumentRow): DocumentMeta {
  return {
    url: row.url,
    finalUrl: row.final_url,
    title: row.title ?? undefined,
    language: row.language ?? undefined,
    textLength: row.text_length ?? undefined,
    fetchedAt: row.fetched_at ?? undefined,
    canonicalUrl: row.canonical_url,
    publishedAt: row.published_at,
    lastModified: row.last_modified,
    depth: row.depth,
  };
}

export function toStored(row: DocumentRow): StoredDocument {
  return { id: row.id, ...toMeta(row), fingerprint: { hi: row.hi, lo: row.lo }, textHash: row.text_hash };
}

export function toRejected(row: DocumentRow): RejectedDocument {
  return {
    id: row.id,
    ...toMeta(row),
    kind: row.kind as 'exact' | 'near' | 'similar',
    distance: row.distance ?? 0,
    matchId: row.match_id ?? 0,
    similarity: row.similarity,
    containment: row.containment,
    fingerprint: { hi: row.hi, lo: row.lo },
    textHash: row.text_hash,
  };
}

/**
 * Every row of a paged query, page after page of PAGE_ROWS rows (`fetchPage(after)` reads the rows
 * after a key), so that no cursor stays open between yields.
 */
export function* pagedRows<R, K>(fetchPage: (after: K) => R[], first: K, keyOf: (row: R) => K): Generator<R> {
  for (let after = first; ;) {
    const rows = fetchPage(after);
    yield* rows;
    if (rows.length < PAGE_ROWS) return;
    after = keyOf(rows[rows.length - 1]!);
  }
}

/** The decision recorded in a URL's row; `urlOf` reads the matched document's URL. @internal */
export function toPriorDecision(row: PriorRow, urlOf: Statement): Decision {
  const [id, kind, distance, matchId, similarity, containment] = row;
  if (kind === 'stored') return { kind, id, repeated: true };
  const matchUrl = (urlOf.get(matchId) as string | undefined) ?? '';
  if (kind === 'exact') return { kind, id, matchId: matchId ?? 0, matchUrl, distance: 0, repeated: true };
  if (kind === 'similar') {
    return { kind, id, matchId: matchId ?? 0, matchUrl, distance: distance ?? 0, similarity: similarity ?? 0, containment: containment ?? 0, repeated: true };
  }
  return { kind, id, matchId: matchId ?? 0, matchUrl, distance: distance ?? 0, repeated: true };
}

function optionalString(doc: DocumentMeta, key: keyof DocumentMeta): string | null {
  const value = doc[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new ValidationError(`Expected \`${key}\` to be a string or null, got ${describeValue(value)}`);
  return value;
}

function optionalInt(doc: DocumentMeta, key: keyof DocumentMeta): number | null {
  const value = doc[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new ValidationError(`Expected \`${key}\` to be a non-negative integer or null, got ${describeValue(value)}`);
  }
  return value;
}

/** The stored document a new one matched (null: none, it is stored). */
export interface MatchedRow {
  readonly id: number;
  readonly distance: number;
  /** Second-stage estimates (kind `similar`). */
  readonly similarity?: number;
  readonly containment?: number;
}

/** The arguments of the `insert` statement for a judged document (its fingerprint halves unsigned). */
export function insertArguments(
  layout: BlockLayout, kind: DocumentKind, doc: IndexCandidate, key: number, hi: number, lo: number,
  found: MatchedRow | null,
): unknown[] {
  const args: unknown[] = [kind, doc.url, BigInt(key), fingerprintToBigInt({ hi, lo })];
  for (let b = 0; b < layout.count; b++) args.push(blockValue(hi, lo, layout.starts[b]!, layout.widths[b]!));
  args.push(
    doc.textHash,
    found === null ? null : found.distance,
    found === null ? null : found.id,
    optionalString(doc, 'finalUrl'),
    optionalString(doc, 'title'),
    optionalString(doc, 'language'),
    optionalInt(doc, 'textLength'),
    optionalInt(doc, 'fetchedAt'),
    optionalString(doc, 'canonicalUrl'),
    optionalString(doc, 'publishedAt'),
    optionalString(doc, 'lastModified'),
    optionalInt(doc, 'depth'),
    textKeyOf(doc.textHash),
    // Stored documents and every member of their clusters are compared with later ones (a variant of
    // a variant is a copy of the base, issue 25). An exact copy too: its tokens are its stored
    // document's, not always its paragraphs, and PostgreSQL cannot tell exact from near before the insert.
    doc.sketch !== undefined && doc.sketch !== null ? sketchToBytes(doc.sketch) : null,
    found?.similarity ?? null,
    found?.containment ?? null,
  );
  return args;
}
