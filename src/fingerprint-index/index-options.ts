/** The options of FingerprintIndex.open and the checks of the arguments its methods take. */
import { ValidationError, describeValue } from '../errors.js';
import { SKIP_REASONS, type Fingerprint, type FingerprintParams, type IndexCandidate, type SkipReason } from '../types.js';
import { validateParams } from '../fingerprint/fingerprint-params.js';

export interface IndexOptions {
  /** Fingerprint parameters; a database made with other ones is refused. */
  readonly params: FingerprintParams;
  /** How long a write waits for another process's transaction to end. @default 5000 */
  readonly busyTimeoutMs?: number;
  /** Open read-only (reports). @default false */
  readonly readonly?: boolean;
  /** SQLite page cache in MiB. @default 8 */
  readonly cacheSizeMb?: number;
  /**
   * Newest URLs kept in memory before a write transaction merges them, sorted, into the SQLite URL
   * index (see url-tail.ts). @default 262144
   */
  readonly urlMergeThreshold?: number;
  /**
   * Documents the index must hold before a write transaction saves the in-memory table's bucket counts
   * (and again after each further sixteenth), so that opening builds the table in one pass over SQLite
   * instead of two. @default 262144
   */
  readonly saveCountsAfter?: number;
}

/** IndexOptions checked, with every default filled in. */
export type ResolvedIndexOptions = Required<IndexOptions>;

/** An integer option within [min, max], or its default when not given. */
function intOption(options: IndexOptions, name: keyof IndexOptions, fallback: number, min: number, max: number): number {
  const value = (options[name] as number | undefined) ?? fallback;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ValidationError(`Expected \`${name}\` to be an integer ${min}–${max}, got ${describeValue(value)}`);
  }
  return value;
}

/** Checks FingerprintIndex.open's options and fills in the defaults. */
export function resolveIndexOptions(options: IndexOptions): ResolvedIndexOptions {
  if (typeof options !== 'object' || options === null) {
    throw new ValidationError(`Expected index options {params, ...}, got ${describeValue(options)}`);
  }
  const params = validateParams(options.params);
  const busyTimeoutMs = intOption(options, 'busyTimeoutMs', 5000, 0, 3_600_000);
  const readonly = options.readonly ?? false;
  if (typeof readonly !== 'boolean') throw new ValidationError(`Expected \`readonly\` to be a boolean, got ${describeValue(readonly)}`);
  const cacheSizeMb = intOption(options, 'cacheSizeMb', 8, 1, 65_536);
  const urlMergeThreshold = intOption(options, 'urlMergeThreshold', 262_144, 1, 16_777_216);
  const saveCountsAfter = intOption(options, 'saveCountsAfter', 262_144, 1, 2 ** 32);
  return { params, busyTimeoutMs, readonly, cacheSizeMb, urlMergeThreshold, saveCountsAfter };
}

function isCandidateFingerprint(value: unknown): value is Fingerprint {
  if (typeof value !== 'object' || value === null) return false;
  const { hi, lo } = value as { hi?: unknown; lo?: unknown };
  return (
    typeof hi === 'number' && typeof lo === 'number' && Number.isInteger(hi) && Number.isInteger(lo) &&
    hi >= 0 && hi <= 0xffffffff && lo >= 0 && lo <= 0xffffffff
  );
}

export function assertFingerprint(value: unknown, allowNull: boolean): asserts value is Fingerprint | null {
  if (value === null && allowNull) return;
  if (!isCandidateFingerprint(value)) {
    throw new ValidationError(
      `Expected \`fingerprint\` to be {hi, lo} unsigned 32-bit integers${allowNull ? ' or null' : ''}, got ${describeValue(value)}`,
    );
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
  assertFingerprint(d.fingerprint, true);
  assertTextHash(d.textHash);
}

/** The arguments of FingerprintIndex.recordSkip. */
export function assertSkip(url: unknown, reason: SkipReason, detail: unknown): void {
  assertUrl(url);
  if (!SKIP_REASONS.includes(reason)) {
    throw new ValidationError(`Expected \`reason\` to be one of ${SKIP_REASONS.join('|')}, got ${describeValue(reason)}`);
  }
  if (detail !== null && typeof detail !== 'string') {
    throw new ValidationError(`Expected \`detail\` to be a string or null, got ${describeValue(detail)}`);
  }
}

/** The arguments of FingerprintIndex.recordLinks. */
export function assertLinks(fromUrl: unknown, toUrls: unknown): asserts toUrls is readonly string[] {
  assertUrl(fromUrl, 'fromUrl');
  if (!Array.isArray(toUrls)) throw new ValidationError(`Expected \`toUrls\` to be an array of URLs, got ${describeValue(toUrls)}`);
  for (const to of toUrls) assertUrl(to, 'toUrls[]');
}
