/**
 * A seed that could not be fetched is tried again (issue 28, item 3): its host may have been down,
 * its robots.txt unreachable, or a bad User-Agent refused. A URL is judged once (the index answers a
 * URL seen before with its earlier decision) and handled once (the frontier journal), so a plain
 * re-run would fetch nothing: instead, the failed seed's skip is forgotten and the seed queued again
 * under a new request key (`<key>#retry-<run>-<attempt>`), with its origin's robots.txt read again.
 *
 * - On a new run: every seed whose recorded skip says it was never received is tried again once.
 * - Within a run: a seed that fails is tried again after back-off delays (`delaysMs`), while the
 *   crawl keeps running for it (`pending` counts the retries waiting).
 * A seed refused by a robots.txt that was read, or out of scope, is not tried again within a run
 * (the answer would be the same), only on a new run.
 */
import type { SkipReason } from '../types.js';
import { requestKey } from './frontier-journal.js';

/** Skip reasons of a seed worth another try on a new run: the page itself was never received. */
export const RETRY_ON_NEW_RUN: readonly SkipReason[] = ['unreachable', 'fetch-error', 'http-error', 'robots'];
/** Within a run, only failures that time may cure. */
const RETRY_IN_RUN: ReadonlySet<SkipReason> = new Set<SkipReason>(['unreachable', 'fetch-error', 'http-error']);

export interface SeedRetryOptions {
  /** Back-off before each retry within a run. @default [1000, 4000] */
  readonly delaysMs?: readonly number[];
  /** This run's id, in the retry request keys. */
  readonly runId: string;
}

export class SeedRetry {
  readonly #seeds: Set<string>;
  readonly #delays: readonly number[];
  readonly #runId: string;
  readonly #attempts = new Map<string, number>();
  readonly #timers = new Set<NodeJS.Timeout>();
  #pending = 0;
  #stopped = false;

  constructor(seeds: readonly string[], options: SeedRetryOptions) {
    this.#seeds = new Set(seeds.map((s) => requestKey(s)));
    this.#delays = options.delaysMs ?? [1000, 4000];
    this.#runId = options.runId;
  }

  /** The request key of a seed's next try. */
  retryKey(url: string): string {
    const attempt = (this.#attempts.get(requestKey(url)) ?? 0) + 1;
    this.#attempts.set(requestKey(url), attempt);
    return `${requestKey(url)}#retry-${this.#runId}-${attempt}`;
  }

  /**
   * After a failure of `url`: when it is a seed with a try left in this run, calls `retry` after the
   * back-off (the crawl counts it as pending work meanwhile) and returns true.
   */
  afterFailure(url: string, reason: SkipReason, retry: () => Promise<void>): boolean {
    if (this.#stopped || !RETRY_IN_RUN.has(reason)) return false;
    const key = requestKey(url);
    if (!this.#seeds.has(key)) return false;
    const done = this.#attempts.get(key) ?? 0;
    if (done >= this.#delays.length) return false;
    this.#pending++;
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      const run = this.#stopped ? Promise.resolve() : retry();
      void run.catch(() => undefined).finally(() => this.#pending--);
    }, this.#delays[done]);
    this.#timers.add(timer);
    return true;
  }

  /** Retries waiting or running. */
  get pending(): number {
    return this.#pending;
  }

  /** No more retries (the crawl stops): waiting ones are dropped. */
  stop(): void {
    this.#stopped = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#pending -= this.#timers.size;
    this.#timers.clear();
  }
}
