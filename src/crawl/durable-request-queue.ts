/**
 * crawlee's request queue kept in memory, made durable by the frontier journal
 * (frontier-journal.ts): each request added is journalled before it enters the queue, each request
 * the crawler takes is journalled `start`, each request handled `done`. Opening the queue of a data
 * folder rebuilds the pending requests from the journal; requests handled by an earlier run are
 * never added again (crawlee's in-memory queue only remembers this run's).
 */
import { Request, RequestQueue } from '@crawlee/cheerio';
import type { Configuration, RequestQueueOperationOptions } from '@crawlee/cheerio';
import { CrawlError } from '../errors.js';
import { FrontierJournal, type FrontierState, type JournalEntry } from './frontier-journal.js';

/** What a crawl learns from the journal when it opens the queue. */
export interface FrontierResume {
  /** Requests handled by earlier runs. */
  readonly handledBefore: number;
  /** Requests in flight when the last run stopped, pending again. */
  readonly interrupted: number;
  /** 1 when the journal ended in a torn line (a run killed during an append), ended here; else 0. */
  readonly tornLines: number;
}

type AddRequestsArgs = Parameters<RequestQueue['addRequests']>;

export class DurableRequestQueue extends RequestQueue {
  private journal: FrontierJournal | null = null;
  /** uniqueKeys journalled as added (this run and earlier ones). */
  private added = new Set<string>();
  /** uniqueKeys handled (this run and earlier ones). */
  private handled = new Set<string>();
  /** Work a request's `done` line waits for (see deferDone). */
  private readonly deferred = new Map<string, Promise<void>>();
  /** `done` lines waiting for their deferred work. */
  private readonly doneLater = new Set<Promise<void>>();

  /** Requests added and not handled yet. */
  get pendingCount(): number {
    return this.added.size - this.handled.size;
  }

  /** Requests handled, in every run. */
  get handledTotal(): number {
    return this.handled.size;
  }

  /** Wires the journal and puts the journal's pending requests in the queue. */
  async attach(journal: FrontierJournal, state: FrontierState): Promise<void> {
    this.journal = journal;
    this.added = new Set(state.added);
    this.handled = new Set(state.done);
    const pending = state.pending.map((entry) => new Request({ url: entry.url, uniqueKey: entry.uniqueKey, crawlDepth: entry.crawlDepth }));
    if (pending.length > 0) await super.addRequests(pending);
  }

  /**
   * Journals, then queues, the requests not added before (requests of earlier runs, handled or
   * pending, are known by their uniqueKey and skipped).
   */
  override async addRequests(requestsLike: AddRequestsArgs[0], options?: RequestQueueOperationOptions): ReturnType<RequestQueue['addRequests']> {
    const journal = this.requireJournal();
    const fresh: Request[] = [];
    const entries: (JournalEntry & { uniqueKey: string })[] = [];
    for await (const like of requestsLike as AsyncIterable<unknown> | Iterable<unknown>) {
      const request = like instanceof Request ? like : new Request(typeof like === 'string' ? { url: like } : (like as ConstructorParameters<typeof Request>[0]));
      if (this.added.has(request.uniqueKey)) continue;
      this.added.add(request.uniqueKey);
      fresh.push(request);
      entries.push({ url: request.url, crawlDepth: request.crawlDepth, uniqueKey: request.uniqueKey });
    }
    journal.append(entries);
    return super.addRequests(fresh, options);
  }

  override async fetchNextRequest<T extends Record<string, unknown> = Record<string, unknown>>(): Promise<Request<T> | null> {
    const request = await super.fetchNextRequest<T>();
    if (request !== null) this.requireJournal().started(request.uniqueKey);
    return request;
  }

  /**
   * Makes the request's `done` line wait for `work` (its page's verdict, and the links that verdict
   * lets the crawl follow): crawlee marks a request handled when its handler returns, which is
   * before that work ends. If the work fails, or the process dies first, no `done` line is written
   * and the next run fetches the page again.
   */
  deferDone(request: Request, work: Promise<void>): void {
    this.deferred.set(request.uniqueKey, work);
  }

  override async markRequestHandled(request: Request): ReturnType<RequestQueue['markRequestHandled']> {
    const result = await super.markRequestHandled(request);
    const key = request.uniqueKey;
    const work = this.deferred.get(key);
    if (work === undefined) {
      this.recordDone(key);
    } else {
      this.deferred.delete(key);
      // A failed `done` write costs a refetch in the next run, never a lost page: not an error here.
      const later = work.then(() => this.recordDone(key)).catch(() => undefined).finally(() => this.doneLater.delete(later));
      this.doneLater.add(later);
    }
    return result;
  }

  /** Resolves once every `done` line waiting for deferred work is written (or given up with its work). */
  async settled(): Promise<void> {
    while (this.doneLater.size > 0) await Promise.all([...this.doneLater]);
  }

  private recordDone(key: string): void {
    this.requireJournal().done(key);
    this.handled.add(key);
  }

  private requireJournal(): FrontierJournal {
    if (this.journal === null) throw new CrawlError('DurableRequestQueue used before attach()');
    return this.journal;
  }
}

// crawlee's StorageManager picks the storage client by the class's name (`requestQueue`).
Object.defineProperty(DurableRequestQueue, 'name', { value: 'RequestQueue' });

/** Opens the in-memory queue of a crawl and fills it from the journal at `journalPath`. */
export async function openDurableRequestQueue(config: Configuration, journalPath: string): Promise<{ queue: DurableRequestQueue; resume: FrontierResume }> {
  const journal = new FrontierJournal(journalPath);
  const repaired = journal.repairTail();
  const state = journal.state();
  const queue = (await DurableRequestQueue.open(null, { config })) as DurableRequestQueue;
  await queue.attach(journal, state);
  return { queue, resume: { handledBefore: state.done.size, interrupted: state.interrupted, tornLines: repaired ? 1 : 0 } };
}
