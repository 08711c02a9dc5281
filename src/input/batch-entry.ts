/**
 * What the batch readers yield: one entry per document, record or problem, in input order.
 * Every entry carries its position (`file`, `file:line`, `file@offset`) so that a problem can be
 * reported where it is, and so that the stored set depends only on the order of the inputs.
 */
import type { PageInput, SkipReason } from '../types.js';

/** A document to extract (if HTML) and fingerprint. */
export interface PageEntry {
  readonly kind: 'page';
  readonly position: string;
  readonly input: PageInput;
  /** Characters of html/text carried, to bound the bytes in flight. */
  readonly size: number;
}

/** A document known without analysis to be skipped (e.g. larger than `crawl.maxPageBytes`). */
export interface SkipEntry {
  readonly kind: 'skip';
  readonly position: string;
  readonly url: string;
  readonly reason: SkipReason;
  readonly detail: string;
}

/** A record that is not a document for this run (a WARC request record, a non-HTML response). */
export interface IgnoredEntry {
  readonly kind: 'ignored';
  readonly position: string;
  /** Short reason, used as a counter key: `warc-request`, `not-html`, `http-404`, ... */
  readonly reason: string;
}

/** A malformed line, record or file: counted and reported, never fatal. */
export interface ProblemEntry {
  readonly kind: 'problem';
  readonly position: string;
  readonly message: string;
}

/**
 * A JSONL line not parsed yet (readers' `rawJsonl` mode): batch dedup decodes and parses it in a
 * worker thread, where it becomes a page, a skip or a problem exactly as `jsonlLineToEntry` (read-jsonl.ts)
 * says, so the reading thread never builds the document's strings.
 */
export interface JsonlLineEntry {
  readonly kind: 'jsonl-line';
  readonly position: string;
  /** The file, as named in URLs made from ids (`<file>#<id>`). */
  readonly file: string;
  /** The line's UTF-8 bytes (may be a view of the stream's chunk). */
  readonly bytes: Uint8Array;
  /** Bytes carried, to bound the bytes in flight. */
  readonly size: number;
  /** Larger documents become `too-large` skips. */
  readonly maxDocumentBytes: number;
}

export type BatchEntry = PageEntry | SkipEntry | IgnoredEntry | ProblemEntry | JsonlLineEntry;

/** A problem met while reading or analysing, with where it happened. */
export interface BatchProblem {
  readonly position: string;
  readonly message: string;
}

/** Options every reader takes. */
export interface ReaderOptions {
  /**
   * A document larger than this (bytes of HTML or text) is not read into memory: it becomes a
   * `too-large` skip. Bounds the memory one document can take.
   * @default 10485760 (config `crawl.maxPageBytes`)
   */
  readonly maxDocumentBytes?: number;
  /**
   * JSONL lines are yielded unparsed, as `jsonl-line` entries, for a consumer that parses them
   * elsewhere (batch dedup parses them in its worker threads). @default false
   */
  readonly rawJsonl?: boolean;
}

export const defaultMaxDocumentBytes = 10 * 1024 * 1024;
