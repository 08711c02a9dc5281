/**
 * Per-host politeness: requests to one host start at least `intervalMs` apart (or the host's
 * robots.txt Crawl-delay, when longer). The pacer only answers "how long until this host may
 * be asked again"; the crawler puts a request back in the queue for that long instead of
 * holding a concurrency slot while it waits.
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

  /**
   * 0 when a request to `host` may start now (and books that start), otherwise the ms to wait
   * before asking again.
   */
  reserve(host: string, now: number = Date.now()): number {
    const next = this.nextStart.get(host);
    if (next !== undefined && next > now) return next - now;
    this.nextStart.set(host, now + (this.hostInterval.get(host) ?? this.intervalMs));
    return 0;
  }
}
