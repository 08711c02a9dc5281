/**
 * Rows of the PostgreSQL index read as the SQLite index reads its own (index-statements.ts maps them
 * to the library's records), and the checks a document passes before it is judged.
 */
import { ValidationError, describeValue } from '../../errors.js';
import type { Decision, IndexCandidate, SkipReason } from '../../types.js';
import { assertCandidate } from '../index-options.js';

/**
 * Columns of a document read back; bigints as float8 (ids < 2^32, halves < 2^32, ms timestamps < 2^53).
 * `secondStage` false: an index of schema 1 opened read-only, without similarity/containment (read as null).
 */
export function documentColumns(secondStage: boolean): string {
  return (
    'id::float8 AS id, kind, url, ((fingerprint >> 32) & 4294967295)::float8 AS hi, (fingerprint & 4294967295)::float8 AS lo, ' +
    'text_hash, distance, match_id::float8 AS match_id, final_url, title, language, text_length, fetched_at::float8 AS fetched_at, ' +
    'canonical_url, published_at, last_modified, depth, ' +
    (secondStage ? 'similarity, containment' : 'NULL::float8 AS similarity, NULL::float8 AS containment')
  );
}

/** A row of priorSql (pg-batch-sql.ts). */
export type PriorRow = [
  url: string, id: number | null, kind: 'stored' | 'exact' | 'near' | 'similar' | null, distance: number | null, matchId: number | null,
  matchUrl: string | null, reason: SkipReason | null, similarity: number | null, containment: number | null,
];

/** The decisions recorded for URLs, by URL (a document row wins over a skip). */
export function priorDecisions(rows: readonly PriorRow[]): Map<string, Decision> {
  const prior = new Map<string, Decision>();
  for (const [url, id, kind, distance, matchId, matchUrl, reason, similarity, containment] of rows) {
    if (kind === null) {
      if (!prior.has(url)) prior.set(url, { kind: 'skipped', reason: reason! });
      continue;
    }
    const match = { id: id!, matchId: matchId ?? 0, matchUrl: matchUrl ?? '' };
    if (kind === 'stored') prior.set(url, { kind, id: id! });
    else if (kind === 'exact') prior.set(url, { kind, ...match, distance: 0 });
    else if (kind === 'similar') prior.set(url, { kind, ...match, distance: distance ?? 0, similarity: similarity ?? 0, containment: containment ?? 0 });
    else prior.set(url, { kind, ...match, distance: distance ?? 0 });
  }
  return prior;
}

/**
 * The SQLite index's check of a document, plus its metadata's types up front: the PostgreSQL index
 * inlines every value into its statements as a typed literal, so it must know them all before.
 */
export function assertCandidateForPg(doc: unknown): asserts doc is IndexCandidate {
  assertCandidate(doc);
  const d = doc;
  for (const key of ['finalUrl', 'title', 'language', 'canonicalUrl', 'publishedAt', 'lastModified'] as const) {
    const v = d[key];
    if (v !== undefined && v !== null && typeof v !== 'string') {
      throw new ValidationError(`Expected \`${key}\` to be a string or null, got ${describeValue(v)}`);
    }
  }
  for (const key of ['textLength', 'fetchedAt', 'depth'] as const) {
    const v = d[key];
    if (v !== undefined && v !== null && (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)) {
      throw new ValidationError(`Expected \`${key}\` to be a non-negative integer or null, got ${describeValue(v)}`);
    }
  }
}
