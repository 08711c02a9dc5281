/**
 * Every error neardup throws on purpose. Each has a stable `code`; the CLI prints
 * `neardup: <message>` on one line and exits with `exitCode` (never a stack trace for user mistakes).
 */
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

/**
 * Another crawl holds the data folder (src/crawl/crawl-lock.ts). Exit 75 (EX_TEMPFAIL of
 * sysexits.h): nothing is wrong with the command, it can run once the other crawl has ended.
 */
export class CrawlLockedError extends NeardupError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_CRAWL_LOCKED', message, { ...options, exitCode: 75 });
  }
}

/** Describes a value for error messages: `x` (string), 12 (number). */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return `\`${value}\` (string)`;
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `${String(value)} (${typeof value})`;
}
