/**
 * Requests taken from the queue whose host may not be asked yet, held in memory per host until
 * their host's start slot comes near, instead of going back to the queue.
 *
 * Why: with a few busy hosts and more concurrency slots than hosts, most requests the crawler takes
 * are for a host already booked ahead. Put back in the queue, each comes back by the queue's own
 * latency and costs a reclaim (and, for a forefront reclaim, a relisting of the queue head): in
 * scripts/bench-pacing.ts 25 put-backs per page, the crawl spinning instead of fetching. Parked, a
 * request leaves as soon as its host can take it, and the queue keeps serving other hosts.
 *
 * A parked request stays locked in crawlee's queue (in memory), so the crawl does not count as
 * finished while requests are parked; a stopped process loses the parking with the rest of its
 * memory, and the frontier journal has the requests as pending for the next run.
 */
import type { Request } from '@crawlee/cheerio';

export interface HostParkingOptions {
  /**
   * How long the requests parked for one host may take to leave, at the host's pace (requests
   * parked × interval); beyond it a request goes back to the queue instead. Keeps a slow host (a
   * long Crawl-delay) from holding locked requests longer than their queue lock (crawlee locks a
   * request it hands out for the handler timeout + 5 s, at least 60 s). @default 30000
   */
  readonly maxWaitMs?: number;
}

/** Parked requests per host, oldest first. */
export class HostParking {
  private readonly byHost = new Map<string, Request[]>();
  private readonly maxWaitMs: number;
  private count = 0;

  constructor(options: HostParkingOptions = {}) {
    this.maxWaitMs = options.maxWaitMs ?? 30_000;
  }

  /** Requests parked. */
  get size(): number {
    return this.count;
  }

  /** Parks a request for `host`, whose requests start `intervalMs` apart; false when the host's parking is full. */
  park(request: Request, host: string, intervalMs: number): boolean {
    let queue = this.byHost.get(host);
    const parked = queue?.length ?? 0;
    if ((parked + 1) * intervalMs > this.maxWaitMs) return false;
    if (queue === undefined) {
      queue = [];
      this.byHost.set(host, queue);
    }
    queue.push(request);
    this.count++;
    return true;
  }

  /** Parks a request whatever the host's parking holds (a request that has waited already, for robots.txt). */
  parkReady(request: Request, host: string): void {
    let queue = this.byHost.get(host);
    if (queue === undefined) {
      queue = [];
      this.byHost.set(host, queue);
    }
    queue.unshift(request);
    this.count++;
  }

  /**
   * The oldest parked request of a host for which `waitMs(host)` is 0, taken out of the parking;
   * null when no host is ready.
   */
  take(waitMs: (host: string) => number): Request | null {
    for (const [host, queue] of this.byHost) {
      if (waitMs(host) > 0) continue;
      const request = queue.shift()!;
      if (queue.length === 0) this.byHost.delete(host);
      this.count--;
      return request;
    }
    return null;
  }

  /** Whether some host with parked requests is ready. */
  hasReady(waitMs: (host: string) => number): boolean {
    for (const host of this.byHost.keys()) if (waitMs(host) === 0) return true;
    return false;
  }
}
