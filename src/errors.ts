/**
 * Every error neardup throws on purpose, and how they cross threads. Each has a stable `code`; the
 * CLI prints `neardup: <message>` on one line and exits with `exitCode` (never a stack trace for
 * user mistakes).
 */
import type { SkipReason } from './types.js';

export class NeardupError extends Error {
  readonly code: string;
  readonly exitCode: number;
  constructor(code: string, message: string, options?: { cause?: unknown; exitCode?: number }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.exitCode = options?.exitCode ?? 1;
  }
}

/** A flag, option or config value is not what was expected (exit 2). */
export class ValidationError extends NeardupError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_VALIDATION', message, { ...options, exitCode: 2 });
  }
}

/** An input file is missing, unreadable or malformed. */
export class InputError extends NeardupError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_INPUT', message, options);
  }
}

/** The configuration file or environment is invalid. */
export class ConfigError extends NeardupError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_CONFIG', message, { ...options, exitCode: 2 });
  }
}

/** The database cannot be opened, is corrupt, or is not a neardup database. */
export class IndexError extends NeardupError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_INDEX', message, options);
  }
}

/** The database was made with other fingerprint parameters than the ones asked for. */
export class ParameterMismatchError extends NeardupError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_PARAMS', message, options);
  }
}

/** Writing outputs failed (disk full, read-only folder, ...). */
export class StorageError extends NeardupError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_STORAGE', message, options);
  }
}

/** A crawl could not start or run (bad seed, crawler failure). */
export class CrawlError extends NeardupError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_CRAWL', message, options);
  }
}

/** The input gave no feature to fingerprint (no words at all). */
export class NoFeaturesError extends NeardupError {
  constructor(message: string) {
    super('E_NO_FEATURES', message);
  }
}

/** A worker thread exited or failed while it held a batch (it is replaced; the batch may be retried). */
export class WorkerCrashError extends NeardupError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_WORKER', message, options);
  }
}

/** A worker thread could not start (its modules failed to load): the pool cannot work at all. */
export class WorkerStartError extends NeardupError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_WORKER_START', message, options);
  }
}

/**
 * A page or document is not to be processed (not HTML, too large, an HTTP error, a redirect out of
 * scope, a body that cannot be decoded): thrown inside a fetch or read path, recorded by the caller
 * as a skip with this reason. Never reaches a user as an error.
 */
export class PageSkipError extends NeardupError {
  readonly reason: SkipReason;
  readonly detail: string;

  constructor(reason: SkipReason, detail: string) {
    super('E_PAGE_SKIP', `${reason}: ${detail}`);
    this.reason = reason;
    this.detail = detail;
  }
}

/** The PageSkipError inside an error (got wraps errors thrown in its hooks), or null. */
export function findPageSkip(error: unknown): PageSkipError | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth++) {
    if (current instanceof PageSkipError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * Saved bucket counts do not fit the index's rows (a damaged bucket_counts row): the in-memory
 * table is built from the rows alone instead. Internal; never reaches a user.
 */
export class BucketCountsMismatchError extends NeardupError {
  constructor(message: string) {
    super('E_BUCKET_COUNTS', message);
  }
}

// ---------------------------------------------------------------- across threads

/** A NeardupError as it crosses threads. */
export interface SerializedError {
  readonly name: string;
  readonly code: string;
  readonly message: string;
  readonly exitCode: number;
}

export function serializeError(error: unknown): SerializedError {
  if (error instanceof NeardupError) return { name: error.name, code: error.code, message: error.message, exitCode: error.exitCode };
  const message = error instanceof Error ? error.message : String(error);
  return { name: error instanceof Error ? error.name : 'Error', code: 'E_UNEXPECTED', message, exitCode: 70 };
}

/** Rebuilds an error from another thread, as the class it was when it is one of neardup's. */
export function deserializeError(e: SerializedError): Error {
  switch (e.name) {
    case 'ValidationError': return new ValidationError(e.message);
    case 'InputError': return new InputError(e.message);
    case 'ConfigError': return new ConfigError(e.message);
    case 'IndexError': return new IndexError(e.message);
    case 'ParameterMismatchError': return new ParameterMismatchError(e.message);
    case 'StorageError': return new StorageError(e.message);
    case 'CrawlError': return new CrawlError(e.message);
    default: return e.code === 'E_UNEXPECTED' ? new Error(e.message) : new NeardupError(e.code, e.message, { exitCode: e.exitCode });
  }
}

/** Describes a value for error messages: `x` (string), 12 (number). */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return `\`${value}\` (string)`;
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `${String(value)} (${typeof value})`;
}
