/**
 * The two messages of a check-and-insert transaction. Locks are held from the first message's second
 * statement until the second message's COMMIT, so the time they are held is about one round trip plus
 * the in-memory judgement, whatever the batch size: everything is sent as multi-statement simple
 * queries with every value inlined as an escaped, typed literal (pg's escapeLiteral; numbers are
 * checked integers), instead of one round trip per statement.
 *
 *   1. BEGIN; take the locks (ascending); catch up; earlier decisions of the URLs; allocate ids
 *      (after the catch-up, so every row it saw has a lower id than this batch's rows).
 *   2. INSERT the documents (the kind of a row matched in the database at distance 0 decided by its
 *      text hash, the matched URL returned); INSERT the skips; COMMIT.
 */
import { escapeLiteral } from 'pg';
import { fingerprintToBigInt } from '../../fingerprint/fingerprint-codec.js';
import { sketchToBytes } from '../../fingerprint/shingle-sketch.js';
import { blockValue, type BlockLayout } from '../block-layout.js';
import type { PlannedRow } from './batch-judge.js';
import { catchUpSql, type CatchUpWindow } from './pg-catch-up.js';
import { insertColumns, insertTypes } from './pg-schema.js';

/** A typed SQL literal for a value a document supplies (validated before: strings, safe integers, null). */
function literal(value: unknown, type: string): string {
  if (value === null || value === undefined) return `NULL::${type}`;
  if (typeof value === 'number') {
    if (type === 'float8' ? !Number.isFinite(value) : !Number.isSafeInteger(value)) throw new Error(`not a ${type}: ${value}`);
    return `${value}::${type}`;
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return `${escapeLiteral(String(value))}::${type}`;
}

function textArray(values: readonly string[]): string {
  return values.length === 0 ? `'{}'::text[]` : `ARRAY[${values.map((v) => escapeLiteral(v)).join(', ')}]::text[]`;
}

function intArray(values: readonly number[]): string {
  for (const v of values) if (!Number.isSafeInteger(v)) throw new Error(`not an integer: ${v}`);
  return `'{${values.join(',')}}'::bigint[]`;
}

/**
 * The earlier decisions of the URLs in `urls` (a SQL text[] expression): rows of (url, id, kind, distance,
 * match id, matched URL, skip reason, similarity, containment); see priorDecisions.
 */
export function priorSql(urls: string): string {
  return `SELECT d.url, d.id::float8, d.kind, d.distance, d.match_id::float8, m.url, NULL, d.similarity, d.containment
       FROM neardup_documents d LEFT JOIN neardup_documents m ON m.id = d.match_id WHERE d.url = ANY(${urls})
     UNION ALL
     SELECT s.url, NULL, NULL, NULL, NULL, NULL, s.reason, NULL, NULL FROM neardup_skipped s WHERE s.url = ANY(${urls})`;
}

/**
 * Message 1; its results: [BEGIN, locks, catch-up, prior, ids]. `headBytes`: bytes of sketch values
 * the catch-up brings per row in its sketch's head (0: second stage off; see catchUpSql).
 */
export function beginSql(lockKeys: readonly number[], window: CatchUpWindow, urls: readonly string[], idCount: number, headBytes = 0): string {
  return [
    'BEGIN',
    `SELECT count(pg_advisory_xact_lock(k)) FROM unnest(${intArray(lockKeys)}) AS k`,
    catchUpSql(window.horizon, headBytes, window.seen),
    priorSql(textArray(urls)),
    // One row ('{1,2,...}' or null) rather than a row per id.
    `SELECT array_agg(nextval('neardup_documents_id_seq'))::text FROM generate_series(1, ${Math.max(0, Math.trunc(idCount))})`,
  ].join(';\n');
}

/**
 * Message 2; its results: [documents insert if any rows (a first row with the xid, then (null, id, kind,
 * matched URL) of each row matched in the database), sketches insert if
 * any stored row has a sketch, skips insert if any skips, COMMIT].
 */
export function commitSql(layout: BlockLayout, rows: readonly PlannedRow[], skips: readonly string[], now: number, writer: string | null): string {
  const statements: string[] = [];
  if (rows.length > 0) {
    const columns = insertColumns(layout);
    const types = ['bigint', ...insertTypes(layout), 'boolean'];
    const tuples = rows.map((row) => {
      const d = row.doc;
      const values: unknown[] = [row.id, row.kind, d.url, fingerprintToBigInt({ hi: row.hi, lo: row.lo }).toString()];
      for (let b = 0; b < layout.count; b++) values.push(blockValue(row.hi, row.lo, layout.starts[b]!, layout.widths[b]!));
      values.push(
        d.textHash, row.distance, row.matchId, d.finalUrl, d.title, d.language, d.textLength, d.fetchedAt, d.canonicalUrl,
        d.publishedAt, d.lastModified, d.depth, writer, row.similarity, row.containment, row.checkExact,
      );
      // The fingerprint is a decimal string of a signed 64-bit integer: inline it as a number.
      return `(${values.map((v, i) => (i === 3 ? `${v as string}::bigint` : literal(v, types[i]!))).join(', ')})`;
    });
    const picked = ['t.id', ...columns.map((c) => (c === 'kind' ? `CASE WHEN t.check_exact AND m.text_hash = t.text_hash THEN 'exact' ELSE t.kind END` : `t.${c}`))];
    // Back: the transaction's xid, and (id, kind, matched URL) of the rows matched in the database only
    // (the others' decisions are known here), not a row per document.
    const asked = rows.filter((row) => row.matchUrl === null && row.matchId !== null).map((row) => row.id);
    statements.push(
      `WITH ins AS (INSERT INTO neardup_documents (id, ${columns.join(', ')})
       SELECT ${picked.join(', ')} FROM (VALUES ${tuples.join(',\n')}) AS t(id, ${columns.join(', ')}, check_exact)
       LEFT JOIN neardup_documents m ON t.check_exact AND m.id = t.match_id
       RETURNING id, kind, match_id)
       SELECT pg_current_xact_id()::text, NULL::float8, NULL::text, NULL::text
       UNION ALL
       SELECT NULL, ins.id::float8, ins.kind, u.url FROM ins JOIN neardup_documents u ON u.id = ins.match_id WHERE ins.id = ANY(${intArray(asked)})`,
    );
  }
  // Stored rows and the members of clusters keep their sketch (see pg-second-stage.ts).
  const sketches = rows.filter((row) => row.doc.sketch !== undefined && row.doc.sketch !== null);
  if (sketches.length > 0) {
    const values = sketches.map((row) => `(${row.id}, decode('${Buffer.from(sketchToBytes(row.doc.sketch!)).toString('hex')}', 'hex'))`);
    statements.push(`INSERT INTO neardup_sketches (id, sketch) VALUES ${values.join(', ')}`);
  }
  if (skips.length > 0) {
    statements.push(
      `INSERT INTO neardup_skipped (url, reason, detail, at) SELECT u, 'no-text', NULL, ${Math.trunc(now)} FROM unnest(${textArray(skips)}) AS u
       ON CONFLICT DO NOTHING`,
    );
  }
  statements.push('COMMIT');
  return statements.join(';\n');
}

/** The ids message 1 allocated (its `array_agg(...)::text`), ascending. */
export function allocatedIds(text: string | null): number[] {
  if (text === null || text === '{}') return [];
  const ids = text.slice(1, -1).split(',').map(Number);
  for (const id of ids) if (!Number.isSafeInteger(id) || id < 1) throw new Error(`not an id: ${id}`);
  return ids.sort((a, b) => a - b);
}
