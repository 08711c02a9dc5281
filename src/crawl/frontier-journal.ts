/**
 * The crawl frontier's durable record (`<data>/crawlee/neardup-frontier.jsonl`): an append-only
 * log of what happened to each request, one JSON object a line:
 *
 * - `{"url","depth","key"}`: a request was added (written before it enters crawlee's queue);
 * - `{"start":key}`: the crawler took the request from the queue;
 * - `{"done":key}`: the request was handled (its handler returned, or it failed for good).
 *
 * `key` is crawlee's uniqueKey (the normalised URL). crawlee's queue itself lives in memory (see
 * durable-request-queue.ts); a new run rebuilds it from this file: every added request that is not
 * done is pending again, and those started but not done were in flight when the last run stopped.
 *
 * Invariants that make a killed crawl resume without losing or refetching pages:
 * 1. A page's links are appended before its `done` line (the handler enqueues them before it
 *    returns; appends are synchronous and in order), so a page recorded done always has its links
 *    recorded too.
 * 2. A kill during an append leaves at most one torn last line. Opening the journal ends that line
 *    with a newline, so the next append starts a whole line; reading skips lines that do not parse.
 *    A lost `done` line costs one refetch (the index answers a URL seen before with its earlier
 *    decision); a lost `url` line belongs to a page not yet done, which is fetched again and adds
 *    its links again.
 *
 * Why not crawlee's file-backed queue (what earlier versions used): @crawlee/memory-storage 3.18
 * rewrites a request's JSON file under a proper-lockfile lock (mkdir/rmdir) for every state
 * change and re-reads every locked request's file each time it lists the queue head: about 16
 * locked writes and 11 locked reads per page in scripts/bench-pacing.ts, the crawl's main CPU cost
 * and the cause of its pacing gaps. It also truncated then rewrote files in place, so a kill could
 * tear a request away for good.
 */
import { appendFileSync, closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { Request } from '@crawlee/cheerio';
import { StorageError } from '../errors.js';

/** The journal's file name inside the crawlee folder. */
export const frontierJournalName = 'neardup-frontier.jsonl';

export interface JournalEntry {
  readonly url: string;
  readonly crawlDepth: number;
  /** The request key when not the URL's own (a seed tried again: seed-retry.ts). @default requestKey(url) */
  readonly uniqueKey?: string;
}

/** A pending request rebuilt from the journal. */
export interface PendingEntry extends JournalEntry {
  readonly uniqueKey: string;
}

/** What the journal says about the frontier when a crawl opens it. */
export interface FrontierState {
  /** Requests added and not done, in the order they were added (first depth of a URL kept). */
  readonly pending: readonly PendingEntry[];
  /** uniqueKeys of every request added. */
  readonly added: ReadonlySet<string>;
  /** uniqueKeys of the requests handled. */
  readonly done: ReadonlySet<string>;
  /** Requests started but not done: in flight when the last run stopped. */
  readonly interrupted: number;
  /** Lines that did not parse (a torn last line of a killed run). */
  readonly tornLines: number;
}

/** crawlee's uniqueKey of a URL (its normalised form), as its queue computes it. */
export function requestKey(url: string): string {
  return new Request({ url }).uniqueKey;
}

type JournalLine = { url?: unknown; depth?: unknown; key?: unknown; start?: unknown; done?: unknown };

export class FrontierJournal {
  readonly path: string;

  constructor(path: string) {
    this.path = path;
  }

  /**
   * Ends a torn last line (a kill during an append) with a newline, so that the next append
   * starts a line of its own. Returns whether it did. Call once, before the first append of a run.
   */
  repairTail(): boolean {
    let size: number;
    try {
      size = statSync(this.path).size;
    } catch {
      return false;
    }
    if (size === 0) return false;
    const last = Buffer.alloc(1);
    const fd = openSync(this.path, 'r');
    try {
      readSync(fd, last, 0, 1, size - 1);
    } finally {
      closeSync(fd);
    }
    if (last[0] === 0x0a) return false;
    this.write('\n');
    return true;
  }

  /** Appends added requests, one line each, in one write. */
  append(entries: readonly (JournalEntry & { readonly uniqueKey?: string })[]): void {
    if (entries.length === 0) return;
    let text = '';
    for (const entry of entries) {
      const key = entry.uniqueKey ?? requestKey(entry.url);
      text += `${JSON.stringify({ url: entry.url, depth: entry.crawlDepth, key })}\n`;
    }
    this.write(text);
  }

  /** Records that the crawler took a request from the queue. */
  started(uniqueKey: string): void {
    this.write(`${JSON.stringify({ start: uniqueKey })}\n`);
  }

  /** Records that a request was handled. */
  done(uniqueKey: string): void {
    this.write(`${JSON.stringify({ done: uniqueKey })}\n`);
  }

  /** Every request ever added, first depth kept for a URL (lines that do not parse are skipped). */
  read(): JournalEntry[] {
    return this.readState().pendingAndDone.map(({ url, crawlDepth }) => ({ url, crawlDepth }));
  }

  /** The frontier as the journal leaves it. */
  state(): FrontierState {
    const { pendingAndDone, done, started, tornLines } = this.readState();
    const added = new Set(pendingAndDone.map((entry) => entry.uniqueKey));
    let interrupted = 0;
    for (const key of started) if (!done.has(key) && added.has(key)) interrupted++;
    return { pending: pendingAndDone.filter((entry) => !done.has(entry.uniqueKey)), added, done, interrupted, tornLines };
  }

  private readState(): { pendingAndDone: PendingEntry[]; done: Set<string>; started: Set<string>; tornLines: number } {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch {
      return { pendingAndDone: [], done: new Set(), started: new Set(), tornLines: 0 };
    }
    const seen = new Set<string>();
    const entries: PendingEntry[] = [];
    const done = new Set<string>();
    const started = new Set<string>();
    let tornLines = 0;
    for (const line of text.split('\n')) {
      if (line === '') continue;
      let parsed: JournalLine;
      try {
        parsed = JSON.parse(line) as JournalLine;
      } catch {
        tornLines++;
        continue;
      }
      if (typeof parsed.done === 'string') done.add(parsed.done);
      else if (typeof parsed.start === 'string') started.add(parsed.start);
      else if (typeof parsed.url === 'string' && typeof parsed.depth === 'number') {
        // Lines written before keys were journalled have none: computed as the queue would.
        const key = typeof parsed.key === 'string' ? parsed.key : requestKey(parsed.url);
        if (seen.has(key)) continue;
        seen.add(key);
        entries.push({ url: parsed.url, crawlDepth: parsed.depth, uniqueKey: key });
      }
    }
    return { pendingAndDone: entries, done, started, tornLines };
  }

  private write(text: string): void {
    try {
      appendFileSync(this.path, text);
    } catch (error) {
      throw new StorageError(`Cannot write \`${this.path}\`: ${(error as Error).message}`, { cause: error });
    }
  }
}
