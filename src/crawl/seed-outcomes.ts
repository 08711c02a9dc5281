/**
 * What became of each seed of a crawl, so that a seed that could not be fetched is reported with
 * its cause (`http://127.0.0.1:8899/: connection refused`) rather than only counted as a skip, and
 * a crawl none of whose seeds could be fetched can end with its own exit code.
 */
import type { Decision, SkipReason } from '../types.js';
import { requestKey } from './frontier-journal.js';

/** Skip reasons that mean the page itself was never received. */
const NOT_FETCHED: ReadonlySet<SkipReason> = new Set<SkipReason>(['robots', 'unreachable', 'fetch-error', 'http-error', 'out-of-scope']);

export interface SeedOutcome {
  readonly url: string;
  /**
   * `fetched`: the page came (whatever its decision); `failed`: it could not be fetched (see
   * `reason` and `cause`); `not-reached`: no outcome in this run (handled by an earlier run, or
   * the run stopped first).
   */
  readonly status: 'fetched' | 'failed' | 'not-reached';
  /** The skip reason of a failed seed. */
  readonly reason?: SkipReason;
  /** A short cause for people (`connection refused`, `HTTP 404`), then the recorded detail. */
  readonly cause?: string;
}

/** A short, plain cause for a fetch failure's recorded detail. */
export function failureCause(reason: SkipReason, detail: string): string {
  const plain = /ECONNREFUSED/.test(detail) ? 'connection refused'
    : /ENOTFOUND|EAI_AGAIN|getaddrinfo/.test(detail) ? 'host not found (DNS)'
      : /ECONNRESET|socket hang up/.test(detail) ? 'connection reset'
        : /ETIMEDOUT|timed? ?out|TimeoutError/i.test(detail) ? 'timed out'
          : reason === 'robots' ? 'disallowed by robots.txt'
            : null;
  if (plain === null) return detail;
  return detail === '' || detail === plain ? plain : `${plain} (${detail})`;
}

/** Collects the seeds' outcomes from a crawl's page events. */
export class SeedOutcomes {
  private readonly byKey = new Map<string, SeedOutcome>();
  /**
   * Seeds not fetched yet (no outcome, or failed: a failed seed may be tried again, seed-retry.ts):
   * once none is left, events are not looked at (a key costs a crawlee Request).
   */
  private unresolved = 0;

  constructor(seeds: readonly string[]) {
    for (const url of seeds) {
      const key = requestKey(url);
      if (this.byKey.has(key)) continue;
      this.byKey.set(key, { url, status: 'not-reached' });
      this.unresolved++;
    }
  }

  /** Takes note of one page's outcome (events of other URLs are ignored). */
  observe(url: string, decision: Decision, detail: string): void {
    if (this.unresolved === 0) return;
    const key = requestKey(url);
    const seed = this.byKey.get(key);
    if (seed === undefined) return;
    if (seed.status === 'fetched') return;
    if (decision.kind === 'skipped' && NOT_FETCHED.has(decision.reason)) {
      this.byKey.set(key, { url: seed.url, status: 'failed', reason: decision.reason, cause: failureCause(decision.reason, detail) });
    } else {
      this.unresolved--;
      this.byKey.set(key, { url: seed.url, status: 'fetched' });
    }
  }

  /** One outcome per distinct seed, in the seeds' order. */
  outcomes(): SeedOutcome[] {
    return [...this.byKey.values()];
  }
}
