/**
 * Per-host politeness: requests to one host start at least `intervalMs` apart (or the host's
 * robots.txt Crawl-delay, when longer). The pacer only answers "how long until this host may
 * be asked again"; the crawler books a start slot a little ahead (page-crawler.ts) and parks
 * requests whose host is busier than that (host-parking.ts).
 */

export interface HostPacerOptions {
  /** Minimum gap between two request starts on one host, in ms. @default 100 */
  readonly intervalMs?: number;
  /** Longest gap ever imposed, whatever a Crawl-delay says, in ms. @default 30000 */
  readonly maxIntervalMs?: number;
}

export class HostPacer {
  /** host → earliest start time of its next request (ms since epoch). */
  private readonly nextStart = new Map<string, number>();
  /** host → interval from robots.txt Crawl-delay, when longer than the default. */
  private readonly hostInterval = new Map<string, number>();
  private readonly intervalMs: number;
  private readonly maxIntervalMs: number;

  constructor(options: HostPacerOptions = {}) {
    this.intervalMs = options.intervalMs ?? 100;
    this.maxIntervalMs = options.maxIntervalMs ?? 30_000;
  }

  /** Sets a host's interval from its Crawl-delay (seconds); never below the default interval. */
  setCrawlDelay(host: string, crawlDelaySecs: number | null): void {
    if (crawlDelaySecs === null) return;
    const ms = Math.min(this.maxIntervalMs, Math.max(this.intervalMs, crawlDelaySecs * 1000));
    if (ms > this.intervalMs) this.hostInterval.set(host, ms);
  }

  /** The host's interval: the default, or its longer Crawl-delay. */
  intervalOf(host: string): number {
    return this.hostInterval.get(host) ?? this.intervalMs;
  }

  /**
   * Books the host's next free start slot when it comes within `horizonMs` of `now`
   * (`startInMs`: wait that long, then start), or says when to ask again (`retryInMs`: the slot
   * will then be within the horizon). Slots are booked back to back, `intervalOf(host)` apart, so
   * a host with pages waiting is asked at its limit, not at the limit minus the time a request
   * spends travelling back to the queue.
   */
  book(host: string, now: number = Date.now(), horizonMs = 0): HostBooking {
    const slot = Math.max(now, this.nextStart.get(host) ?? now);
    if (slot - now > horizonMs) return { retryInMs: slot - now - horizonMs };
    this.nextStart.set(host, slot + this.intervalOf(host));
    return { startInMs: slot - now };
  }

  /** How long until `book(host, …, horizonMs)` would succeed (0: now); books nothing. */
  waitToBook(host: string, now: number = Date.now(), horizonMs = 0): number {
    const slot = Math.max(now, this.nextStart.get(host) ?? now);
    return Math.max(0, slot - now - horizonMs);
  }

  /** `book` with no horizon: 0 when a request may start now (and books it), else the ms to wait. */
  reserve(host: string, now: number = Date.now()): number {
    const booking = this.book(host, now, 0);
    return 'startInMs' in booking ? 0 : booking.retryInMs;
  }
}

/** A booked start slot, or when to ask again. */
export type HostBooking = { readonly startInMs: number } | { readonly retryInMs: number };
