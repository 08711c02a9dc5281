/**
 * The crawlee request queue of a partitioned crawl: in memory, fed from the shared PostgreSQL
 * frontier (pg-frontier.ts) instead of the frontier journal of a lone crawl
 * (durable-request-queue.ts).
 *
 * - Links go to the frontier, whatever their partition (`enqueue`); none enters the local queue
 *   directly. The local queue holds only rows this run claimed from its own partition: a feeder
 *   claims a batch whenever fewer than `lowWater` claimed rows are left unhandled.
 * - A request's row is marked done only after its deferred work (verdict committed, links inserted:
 *   `deferDone`) has ended; `done` writes are batched, and a row whose `done` was not written is
 *   handled again by the next run (a refetch, never a loss).
 * - The end. A partition's owner cannot stop when its own rows run out: another process may still
 *   find links to its hosts. It stops once nothing of its own is claimed and no row of any partition
 *   with a running owner is pending or claimed: then no page is being handled anywhere, so no link can
 *   come any more. Rows left in partitions with no running owner (a crawler killed and not restarted
 *   yet, or never started) hold it for `orphanWaitMs` more, time for that crawler to come back; then it
 *   ends and says which partitions still have work.
 */
import { Request, RequestQueue } from '@crawlee/cheerio';
import type { Configuration } from '@crawlee/cheerio';
import { CrawlError } from '../errors.js';
import { parseHttpUrl } from '../url/url-host.js';
import { requestKey, type JournalEntry } from './frontier-journal.js';
import type { FrontierStatus, PgFrontier } from './pg-frontier.js';

export interface FeedOptions {
  /** Claim more when fewer claimed rows than this are unhandled. @default 50 */
  readonly lowWater?: number;
  /** Claim up to this many unhandled rows in all. @default 200 */
  readonly highWater?: number;
  /** How often an idle feeder looks at the frontier again. @default 500 */
  readonly pollMs?: number;
  /** How long rows in partitions without a running owner hold this process. @default 600000 */
  readonly orphanWaitMs?: number;
  /** One line for people (waiting for another partition). */
  readonly onNotice?: (message: string) => void;
}

/** How a partitioned crawl's frontier stood when this process ended. */
export interface PartitionEnd {
  /** Rows of this partition not done. */
  readonly pending: number;
  /** Rows not done in other partitions with no running owner, by partition. */
  readonly orphaned: ReadonlyMap<number, number>;
}

export class PgFrontierQueue extends RequestQueue {
  #frontier: PgFrontier | null = null;
  #options: FeedOptions = {};
  #onFatal: (error: unknown) => void = () => undefined;
  /** Keys this run sent to the frontier (a link met again is not sent again). */
  readonly #sent = new Set<string>();
  /** Keys this run claimed whose `done` is not written yet. */
  readonly #claimed = new Set<string>();
  readonly #deferred = new Map<string, Promise<void>>();
  readonly #doneLater = new Set<Promise<void>>();
  #doneBuffer: string[] = [];
  #flushing: Promise<void> | null = null;
  #feeding: Promise<void> | null = null;
  #wake: (() => void) | null = null;
  #stopping = false;
  #finished = false;

  /** 1 until the feeder has seen the end of the crawl (the crawler must not finish before), then 0. */
  get waiting(): number {
    return this.#finished ? 0 : 1;
  }

  /** Wires the frontier (links may be sent from now on). */
  attach(frontier: PgFrontier, options: FeedOptions): void {
    this.#frontier = frontier;
    this.#options = options;
  }

  /** Starts feeding the local queue from the frontier; `onFatal` (a frontier failure) stops the crawl. */
  start(onFatal: (error: unknown) => void): void {
    this.#requireFrontier();
    this.#onFatal = onFatal;
    this.#feeding = this.#feed().catch((error: unknown) => {
      this.#finished = true;
      onFatal(error);
    });
  }

  /**
   * Sends links to the frontier, each once per run; resolves with how many were new rows of this
   * process's partition (what its queue gained).
   */
  async enqueue(entries: readonly JournalEntry[]): Promise<number> {
    const frontier = this.#requireFrontier();
    const found: { uniqueKey: string; url: string; crawlDepth: number; host: string }[] = [];
    for (const entry of entries) {
      const url = parseHttpUrl(entry.url);
      if (url === null) continue;
      const uniqueKey = entry.uniqueKey ?? requestKey(entry.url);
      if (this.#sent.has(uniqueKey)) continue;
      this.#sent.add(uniqueKey);
      found.push({ uniqueKey, url: entry.url, crawlDepth: entry.crawlDepth, host: url.hostname });
    }
    if (found.length === 0) return 0;
    const parts = await frontier.partitionsOf(found.map((f) => f.host));
    const rows = found.map((f) => ({ uniqueKey: f.uniqueKey, url: f.url, crawlDepth: f.crawlDepth, part: parts.get(f.host)! }));
    const own = await frontier.insert(rows);
    if (own > 0) this.#wake?.();
    return own;
  }

  /** The `done` of `request` waits for `work` (see durable-request-queue.ts, deferDone). */
  deferDone(request: Request, work: Promise<void>): void {
    this.#deferred.set(request.uniqueKey, work);
  }

  override async markRequestHandled(request: Request): ReturnType<RequestQueue['markRequestHandled']> {
    const result = await super.markRequestHandled(request);
    const key = request.uniqueKey;
    const work = this.#deferred.get(key);
    if (work === undefined) {
      this.#recordDone(key);
    } else {
      this.#deferred.delete(key);
      // A failed page (its verdict never committed) keeps its row claimed: the next run handles it.
      const later = work.then(() => this.#recordDone(key)).catch(() => undefined).finally(() => this.#doneLater.delete(later));
      this.#doneLater.add(later);
    }
    return result;
  }

  /** Resolves once every `done` waiting for deferred work is written. */
  async settled(): Promise<void> {
    while (this.#doneLater.size > 0) await Promise.all([...this.#doneLater]);
    await this.#flush();
  }

  /**
   * After the crawler stopped: stops the feeder, writes the last `done`s, puts back the rows claimed
   * and not handled, and says how the frontier stands. The frontier stays open (the caller closes it).
   */
  async finish(): Promise<PartitionEnd> {
    const frontier = this.#requireFrontier();
    this.#stopping = true;
    this.#wake?.();
    await this.#feeding;
    await this.settled();
    await frontier.unclaim([...this.#claimed]);
    this.#claimed.clear();
    const status = await frontier.status();
    const orphaned = new Map([...status.openOrphaned].filter(([part]) => part !== frontier.partition.index));
    return { pending: status.openOwn, orphaned };
  }

  #recordDone(key: string): void {
    this.#doneBuffer.push(key);
    void this.#flush().catch((error: unknown) => this.#onFatal(error));
  }

  /** Writes the buffered `done`s, one statement at a time (a flush in progress is awaited, then the rest written). */
  async #flush(): Promise<void> {
    while (this.#flushing !== null) await this.#flushing;
    if (this.#doneBuffer.length === 0) return;
    const keys = this.#doneBuffer;
    this.#doneBuffer = [];
    this.#flushing = this.#requireFrontier().done(keys).then(() => {
      for (const key of keys) this.#claimed.delete(key);
      if (this.#claimed.size <= (this.#options.lowWater ?? 50)) this.#wake?.();
    }).finally(() => {
      this.#flushing = null;
    });
    await this.#flushing;
  }

  async #feed(): Promise<void> {
    const frontier = this.#requireFrontier();
    const lowWater = this.#options.lowWater ?? 50;
    const highWater = this.#options.highWater ?? 200;
    let orphanedSince: number | null = null;
    while (!this.#stopping) {
      if (this.#claimed.size < lowWater) {
        const rows = await frontier.claim(highWater - this.#claimed.size);
        if (rows.length > 0) {
          for (const row of rows) this.#claimed.add(row.uniqueKey);
          await super.addRequests(rows.map((row) => new Request({ url: row.url, uniqueKey: row.uniqueKey, crawlDepth: row.crawlDepth })));
          orphanedSince = null;
          continue;
        }
      }
      if (this.#claimed.size === 0 && this.#doneBuffer.length === 0 && this.#flushing === null) {
        const status = await frontier.status();
        // No host of the crawl was dealt to this partition, and it has no rows: nothing to wait for.
        if (status.openOwn === 0 && !(await frontier.hasOwnHosts())) {
          this.#options.onNotice?.(`partition ${frontier.partition.index}/${frontier.partition.count}: no host of this crawl is in this partition (hosts are dealt to partitions in the order the crawl meets them); nothing to do`);
          break;
        }
        if (status.openOwned === 0) {
          if (status.openOrphaned.size === 0) break;
          if (orphanedSince === null) {
            orphanedSince = Date.now();
            this.#options.onNotice?.(orphanNotice(status, frontier.partition.count, this.#options.orphanWaitMs ?? 600_000));
          }
          if (Date.now() - orphanedSince >= (this.#options.orphanWaitMs ?? 600_000)) break;
        } else {
          orphanedSince = null;
        }
      }
      await this.#sleep(this.#options.pollMs ?? 500);
    }
    this.#finished = true;
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#wake = null;
        resolve();
      }, ms);
      this.#wake = () => {
        clearTimeout(timer);
        this.#wake = null;
        resolve();
      };
    });
  }

  #requireFrontier(): PgFrontier {
    if (this.#frontier === null) throw new CrawlError('PgFrontierQueue used before start()');
    return this.#frontier;
  }
}

// crawlee's StorageManager picks the storage client by the class's name (`requestQueue`).
Object.defineProperty(PgFrontierQueue, 'name', { value: 'RequestQueue' });

function orphanNotice(status: FrontierStatus, count: number, waitMs: number): string {
  const parts = [...status.openOrphaned].sort((a, b) => a[0] - b[0]).map(([part, n]) => `${part}/${count} (${n} URL${n === 1 ? '' : 's'})`).join(', ');
  return `partition work left with no crawler running it: ${parts}; waiting up to ${Math.round(waitMs / 1000)} s for it (start \`--partition\` for it with the same --index)`;
}

/** Opens the in-memory queue of a partitioned crawl (fed by `start`). */
export async function openPgFrontierQueue(config: Configuration): Promise<PgFrontierQueue> {
  return (await PgFrontierQueue.open(null, { config })) as PgFrontierQueue;
}
