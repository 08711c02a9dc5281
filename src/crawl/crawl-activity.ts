/**
 * What a slow crawl is waiting for, for the progress line: requests per second per host (over the
 * run), and how many requests wait on politeness (parked until their host's next start slot), on
 * robots.txt (their origin's file being read) and on the dedup stage (verdicts outstanding).
 */
import { hostnameOf } from '../url/url-host.js';

/** One host's pace. */
export interface HostRate {
  readonly host: string;
  /** Requests fetched (or failed for good) per second since the run started. */
  readonly rps: number;
}

/** Requests waiting, by what they wait for. */
export interface CrawlWaiting {
  readonly politeness: number;
  readonly robots: number;
  readonly dedup: number;
}

/** Requests handled per host in one run. */
export class HostRates {
  private readonly counts = new Map<string, number>();

  record(url: string): void {
    const host = hostnameOf(url);
    this.counts.set(host, (this.counts.get(host) ?? 0) + 1);
  }

  /** The `n` busiest hosts, fastest first. */
  top(n: number, elapsedMs: number): HostRate[] {
    const seconds = Math.max(elapsedMs, 1) / 1000;
    return [...this.counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, n)
      .map(([host, count]) => ({ host, rps: count / seconds }));
  }
}
