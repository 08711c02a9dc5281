/**
 * What a crawl enqueues, bounded by what its page budget can use. A page may carry any number of
 * links (a sitemap-like hub, a generated trap); queued, each becomes a request file, a journal
 * line and memory in crawlee's queue, though the budget (`crawl.maxPages`) will fetch only a few.
 * Two bounds, both configurable, and what they leave out is counted (`linksDropped` in the crawl
 * summary), never recorded one by one:
 *
 * - per page: at most `maxLinksPerPage` of a page's in-scope links are considered, in page order;
 * - per queue: the queue never holds more than `queueBudgetMultiple` × the pages the budget has
 *   left. Links are admitted (reserved) before they are added, so handlers running at once cannot
 *   together overshoot the bound.
 *
 * A dropped link is lost to this run and to a later run with a larger budget; a page linked from
 * several pages gets more chances, and the multiple leaves room for links that turn out to be
 * duplicates, disallowed or failing.
 */

export interface LinkBudgetOptions {
  /** In-scope links of one page considered, at most. @default 1000 (crawl.maxLinksPerPage) */
  readonly maxLinksPerPage: number;
  /** The queue holds at most this many times the pages the budget has left. @default 10 (crawl.queueBudgetMultiple) */
  readonly queueBudgetMultiple: number;
  /** Requests this run may start (crawl.maxPages less the requests handled by earlier runs). */
  readonly budget: number;
  /** Requests pending in the queue when the run starts (a resumed crawl's). */
  readonly pendingAtStart: number;
}

export class LinkBudget {
  private readonly options: LinkBudgetOptions;
  /** Requests that were new to the queue, added in this run. */
  private added = 0;
  /** Links admitted whose adding has not been settled yet. */
  private reserved = 0;
  private droppedLinks = 0;

  constructor(options: LinkBudgetOptions) {
    this.options = options;
  }

  /** Links left out by either bound, in this run. */
  get dropped(): number {
    return this.droppedLinks;
  }

  /**
   * How many of a page's `count` in-scope links may be queued now, `started` being the requests
   * this run has started; they are reserved until {@link settle}. The rest count as dropped.
   */
  admit(count: number, started: number): number {
    const { budget, maxLinksPerPage, pendingAtStart, queueBudgetMultiple } = this.options;
    const remaining = Math.max(0, budget - started);
    const pending = Math.max(0, pendingAtStart + this.added + this.reserved - started);
    const room = Math.max(0, queueBudgetMultiple * remaining - pending);
    const admitted = Math.min(count, maxLinksPerPage, room);
    this.reserved += admitted;
    this.droppedLinks += count - admitted;
    return admitted;
  }

  /** After adding: `admitted` reserved links are no longer reserved; `added` of them were new to the queue. */
  settle(admitted: number, added: number): void {
    this.reserved = Math.max(0, this.reserved - admitted);
    this.added += added;
  }

  /** Requests added outside {@link admit} (seeds, a repair from the journal) that were new to the queue. */
  addedOutside(added: number): void {
    this.added += added;
  }
}

/** Requests of a crawlee `addRequests` result that were new to the queue. */
export function newRequestCount(result: { readonly addedRequests: readonly { readonly wasAlreadyPresent: boolean }[] }): number {
  let added = 0;
  for (const request of result.addedRequests) if (!request.wasAlreadyPresent) added++;
  return added;
}

/**
 * Options for crawlee's `addRequests` that add `count` requests before it resolves, in one batch:
 * crawlee adds 1,000 a batch by default and sleeps a second after each further batch, so a long
 * list held a page handler for minutes (past its timeout, and crawlee then fetched the page again).
 */
export function addAllOptions(count: number): { waitForAllRequestsToBeAdded: true; batchSize: number } {
  return { waitForAllRequestsToBeAdded: true, batchSize: Math.max(1000, count) };
}
