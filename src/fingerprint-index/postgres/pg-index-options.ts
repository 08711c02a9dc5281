/**
 * The options of a PostgreSQL index (PgFingerprintIndex.open), checked at the boundary, and the cut of
 * checkAndInsertMany's documents into transactions that they set (batch size, lock budget).
 */
import { ValidationError, describeValue } from '../../errors.js';
import { validateParams } from '../../fingerprint/fingerprint-params.js';
import type { FingerprintParams, IndexCandidate } from '../../types.js';
import { resolveSecondStage, type SecondStageOptions } from '../second-stage.js';
import type { PgSessionOptions } from './pg-session.js';

export interface PgIndexOptions extends PgSessionOptions {
  /** Fingerprint parameters; a database made with other ones is refused. */
  readonly params: FingerprintParams;
  /**
   * Documents per check-and-insert transaction in checkAndInsertMany, at most: each takes k + 2 advisory
   * locks (block keys and URL), plus up to `verify.candidateKeys` with the second stage, and a
   * transaction takes at most LOCK_BUDGET of them (a batch is cut earlier when they would pass it), so
   * that 8 writers fit the server's lock table (max_locks_per_transaction × max_connections, 6,400 by
   * default, shared by all writers). @default 100
   */
  readonly batchSize?: number;
  /** Recorded with each document this process stores (see corpusTransaction). @default null */
  readonly writer?: string | null;
  /** Open for reading only: no schema is created, writes are refused. @default false */
  readonly readonly?: boolean;
  /**
   * The verified second stage (as IndexOptions.verify on SQLite): documents with a sketch that the k
   * rule did not match are checked against stored ones sharing sketch keys, kind `similar`. Null: k
   * only. Every writer of an index should use the same settings. @default null
   */
  readonly verify?: SecondStageOptions | null;
}

/** PgIndexOptions checked, with their defaults (the session's own options are read by PgSession). */
export interface ResolvedPgIndexOptions {
  readonly params: FingerprintParams;
  readonly batchSize: number;
  readonly readonly: boolean;
  readonly writer: string | null;
  readonly verify: SecondStageOptions | null;
}

/** Checks PgIndexOptions (ValidationError saying what was expected and what came) and fills in the defaults. */
export function resolvePgIndexOptions(options: PgIndexOptions): ResolvedPgIndexOptions {
  if (typeof options !== 'object' || options === null) {
    throw new ValidationError(`Expected index options {params, ...}, got ${describeValue(options)}`);
  }
  const params = validateParams(options.params);
  const batchSize = options.batchSize ?? 100;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000) {
    throw new ValidationError(`Expected \`batchSize\` to be an integer 1–10000, got ${describeValue(batchSize)}`);
  }
  const readonly = options.readonly ?? false;
  const writer = options.writer ?? null;
  if (writer !== null && (typeof writer !== 'string' || writer === '')) {
    throw new ValidationError(`Expected \`writer\` to be a non-empty string or null, got ${describeValue(writer)}`);
  }
  const verify = resolveSecondStage(options.verify);
  return { params, batchSize, readonly, writer, verify };
}

/** Lock keys per check-and-insert transaction, at most (see PgIndexOptions.batchSize): 8 writers × 500 fit 6,400. */
const LOCK_BUDGET = 500;

/**
 * Where the transaction of docs[at..] ends: after at most `batchSize` documents and LOCK_BUDGET lock
 * keys (counted per document, an upper bound: `perDoc` block and URL keys, and with the second stage
 * the sketch keys it locks), but never before one document.
 */
export function batchEnd(docs: readonly IndexCandidate[], at: number, batchSize: number, perDoc: number, verify: SecondStageOptions | null): number {
  let end = at;
  for (let keys = 0; end < docs.length && end - at < batchSize; end++) {
    const sketch = verify === null ? null : (docs[end]!.sketch ?? null);
    keys += perDoc + (sketch === null ? 0 : Math.min(sketch.length, verify!.candidateKeys));
    if (keys > LOCK_BUDGET && end > at) break;
  }
  return end;
}
