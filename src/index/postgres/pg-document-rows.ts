/**
 * Rows of the PostgreSQL index read back as the library's records (the same shapes the SQLite index
 * returns), and the checks a document passes before it is judged.
 * (The SQLite index has twins of these as private helpers; once both backends sit behind one interface
 * they belong in one shared module.)
 */
import { ValidationError, describeValue } from '../../errors.js';
import type { DocumentMeta, Fingerprint, IndexCandidate, RejectedDocument, StoredDocument } from '../../types.js';

/** Columns of a document read back; bigints as float8 (ids < 2^32, halves < 2^32, ms timestamps < 2^53). */
export const DOCUMENT_COLUMNS =
  'id::float8 AS id, kind, url, ((fingerprint >> 32) & 4294967295)::float8 AS hi, (fingerprint & 4294967295)::float8 AS lo, ' +
  'text_hash, distance, match_id::float8 AS match_id, final_url, title, language, text_length, fetched_at::float8 AS fetched_at, ' +
  'canonical_url, published_at, last_modified, depth';

export interface DocumentRow {
  id: number;
  kind: 'stored' | 'exact' | 'near';
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
    kind: row.kind as 'exact' | 'near',
    distance: row.distance ?? 0,
    matchId: row.match_id ?? 0,
    fingerprint: { hi: row.hi, lo: row.lo },
    textHash: row.text_hash,
  };
}

function isFingerprint(value: unknown): value is Fingerprint {
  if (typeof value !== 'object' || value === null) return false;
  const { hi, lo } = value as { hi?: unknown; lo?: unknown };
  return typeof hi === 'number' && typeof lo === 'number' && Number.isInteger(hi) && Number.isInteger(lo) &&
    hi >= 0 && hi <= 0xffffffff && lo >= 0 && lo <= 0xffffffff;
}

export function assertFingerprint(value: unknown): asserts value is Fingerprint | null {
  if (value !== null && !isFingerprint(value)) {
    throw new ValidationError(`Expected \`fingerprint\` to be {hi, lo} unsigned 32-bit integers or null, got ${describeValue(value)}`);
  }
}

export function assertUrl(value: unknown, name = 'url'): asserts value is string {
  if (typeof value !== 'string' || value === '') {
    throw new ValidationError(`Expected \`${name}\` to be a non-empty string, got ${describeValue(value)}`);
  }
}

export function assertTextHash(value: unknown): asserts value is string {
  if (typeof value !== 'string') throw new ValidationError(`Expected \`textHash\` to be a string, got ${describeValue(value)}`);
}

export function assertCandidate(doc: unknown): asserts doc is IndexCandidate {
  if (typeof doc !== 'object' || doc === null) {
    throw new ValidationError(`Expected a document {url, fingerprint, textHash, ...}, got ${describeValue(doc)}`);
  }
  const d = doc as IndexCandidate;
  assertUrl(d.url);
  assertFingerprint(d.fingerprint);
  assertTextHash(d.textHash);
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
