/**
 * Pages handed to the dedup stage whose verdict (and the links it lets the crawl follow) has not
 * arrived yet. The page handler returns once its page is handed over, so a concurrency slot fetches
 * the next page while the dedup worker commits this one, instead of waiting for the commit
 * (scripts/bench-crawl.ts: the crawl's overhead over a plain crawl).
 *
 * Bounded: when `limit` verdicts are outstanding, or their pages' HTML is longer than `maxChars`
 * characters in all, a handler waits for one to arrive, so a fast fetcher cannot pile up pages the dedup stage
 * has not judged (memory, and links found late).
 * The crawl allows several per concurrency slot ({@link verdictLimit}), not one: the dedup worker
 * gathers pages and commits them together (dedup-worker.ts), so a verdict comes some ms after its
 * page, and a handler that waits holds its slot (scripts/bench-crawl.ts: with one verdict per slot,
 * handlers spent about a fifth of the crawl waiting).
 *
 * What keeps a killed crawl whole: the frontier journal records a page `done` only once its verdict
 * work finished (DurableRequestQueue.deferDone), so a page whose links were not journalled yet is
 * fetched again by the next run.
 */
/** Verdicts outstanding per concurrency slot before a handler waits. */
const verdictsPerSlot = 4;

/**
 * The crawl's limit of outstanding verdicts at a concurrency of `concurrency`. At 1 it stays 1: a
 * crawl of one request at a time judges each page, and queues its links, before it fetches the
 * next, so its order is breadth-first and the same every run.
 */
export function verdictLimit(concurrency: number): number {
  return concurrency === 1 ? 1 : concurrency * verdictsPerSlot;
}

export class PendingVerdicts {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly limit: number;
  private readonly maxChars: number;
  private readonly onError: (error: unknown) => void;
  /** Length of the HTML of the pages whose verdicts are outstanding (as `track` was told). */
  private chars = 0;

  /**
   * `onError` gets the failure of a verdict's work (a failed write: it stops the crawl); `maxChars`
   * bounds the length of the outstanding pages' HTML, in all (one page alone may exceed it).
   * @default maxChars 64 Mi characters
   */
  constructor(limit: number, onError: (error: unknown) => void, maxChars = 64 * 1024 * 1024) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`Expected \`limit\` to be a positive integer, got ${limit}`);
    if (!(maxChars > 0)) throw new RangeError(`Expected \`maxChars\` to be a positive number, got ${maxChars}`);
    this.limit = limit;
    this.maxChars = maxChars;
    this.onError = onError;
  }

  /** Verdicts outstanding. */
  get size(): number {
    return this.inFlight.size;
  }

  /**
   * Tracks a verdict's work on a page whose HTML is `chars` long; resolves once fewer than `limit`
   * are outstanding and their HTML is at most `maxChars` long in all, or this one alone is left.
   */
  async track(work: Promise<void>, chars = 0): Promise<void> {
    const tracked = work.catch((error: unknown) => this.onError(error)).finally(() => {
      this.inFlight.delete(tracked);
      this.chars -= chars;
    });
    this.inFlight.add(tracked);
    this.chars += chars;
    while (this.inFlight.size >= this.limit || (this.chars > this.maxChars && this.inFlight.size > 1)) await Promise.race(this.inFlight);
  }

  /** Resolves when every tracked verdict's work has finished (including work tracked meanwhile). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }
}
