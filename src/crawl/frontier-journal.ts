/**
 * Every request a crawl adds to crawlee's queue, also appended to a journal of its own
 * (`<data>/crawlee/neardup-frontier.jsonl`, one `{"url","depth"}` a line), written before the
 * queue's files.
 *
 * Why: crawlee's file-backed queue rewrites a request's file in place (truncate, then write) each
 * time the request changes state, so a process killed at the wrong moment leaves an empty or
 * half-written file, which crawlee then ignores: that request is lost, and if it was still
 * pending its page would never be crawled (the page that linked to it is already handled). After
 * such a crash (persisted-queue.ts finds the torn files) the crawl adds every journalled request
 * again: crawlee keeps the ones it still has, handled or not, and recreates the lost ones.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { StorageError } from '../errors.js';

/** The journal's file name inside the crawlee folder. */
export const frontierJournalName = 'neardup-frontier.jsonl';

export interface JournalEntry {
  readonly url: string;
  readonly crawlDepth: number;
}

export class FrontierJournal {
  readonly path: string;

  constructor(path: string) {
    this.path = path;
  }

  /** Appends requests, one line each, in one write. */
  append(entries: readonly JournalEntry[]): void {
    if (entries.length === 0) return;
    let text = '';
    for (const entry of entries) text += `${JSON.stringify({ url: entry.url, depth: entry.crawlDepth })}\n`;
    try {
      appendFileSync(this.path, text);
    } catch (error) {
      throw new StorageError(`Cannot write \`${this.path}\`: ${(error as Error).message}`, { cause: error });
    }
  }

  /** Every request journalled, first depth kept for a URL; lines that do not parse (a torn last line) are skipped. */
  read(): JournalEntry[] {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch {
      return [];
    }
    const seen = new Set<string>();
    const entries: JournalEntry[] = [];
    for (const line of text.split('\n')) {
      if (line === '') continue;
      let parsed: { url?: unknown; depth?: unknown };
      try {
        parsed = JSON.parse(line) as { url?: unknown; depth?: unknown };
      } catch {
        continue;
      }
      if (typeof parsed.url !== 'string' || typeof parsed.depth !== 'number' || seen.has(parsed.url)) continue;
      seen.add(parsed.url);
      entries.push({ url: parsed.url, crawlDepth: parsed.depth });
    }
    return entries;
  }
}
