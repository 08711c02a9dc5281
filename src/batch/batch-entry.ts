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

export type BatchEntry = PageEntry | SkipEntry | IgnoredEntry | ProblemEntry;

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
}

export const defaultMaxDocumentBytes = 10 * 1024 * 1024;
