/**
 * Rows of the PostgreSQL index read as the SQLite index reads its own (index-statements.ts maps them
 * to the library's records), and the checks a document passes before it is judged.
 */
import { ValidationError, describeValue } from '../../errors.js';
import type { IndexCandidate } from '../../types.js';
import { assertCandidate } from '../index-options.js';

/** Columns of a document read back; bigints as float8 (ids < 2^32, halves < 2^32, ms timestamps < 2^53). */
export const DOCUMENT_COLUMNS =
  'id::float8 AS id, kind, url, ((fingerprint >> 32) & 4294967295)::float8 AS hi, (fingerprint & 4294967295)::float8 AS lo, ' +
  'text_hash, distance, match_id::float8 AS match_id, final_url, title, language, text_length, fetched_at::float8 AS fetched_at, ' +
  'canonical_url, published_at, last_modified, depth, ' +
  // No second stage on PostgreSQL yet: every rejection there is exact or near.
  'NULL::float8 AS similarity, NULL::float8 AS containment';

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
