/**
 * Thrown inside the crawler's fetch path when a page is not to be processed (not HTML, too large,
 * an HTTP error, a redirect out of scope); the crawl records it as a skip with this reason.
 * Never reaches a user as an error.
 */
import { NeardupError } from '../errors.js';
import type { SkipReason } from '../types.js';

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
