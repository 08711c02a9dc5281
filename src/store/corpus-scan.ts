/**
 * Reading which ids a corpus file holds (corpus-writer.ts, invariants 2 and 5) and repairing it on
 * open: the ids come from the start of each complete line (corpus-line.ts), read in chunks, never by
 * parsing a line; a torn last line (a crash mid-append, invariant 3) is cut off.
 */
import { fstatSync, ftruncateSync, readSync } from 'node:fs';
import { StorageError } from '../errors.js';
import { ID_PREFIX, NEWLINE, idAt, isTombstone } from './corpus-line.js';

/** What `open` found in an existing file. */
export interface CorpusOpenReport {
  /** Complete lines found. */
  readonly lines: number;
  /** Bytes of a torn last line that were cut off (0 when the file ended cleanly). */
  readonly truncatedBytes: number;
  /** Lines whose id could not be read (left in place, not counted as written ids). */
  readonly unreadableLines: number;
}

/** Bytes read from the file at a time. */
export const CHUNK_BYTES = 1 << 20;

/** The ids of a file's complete lines, and where the last of them ends. */
export interface ScannedCorpus {
  readonly ids: Set<number>;
  readonly superseded: Set<number>;
  readonly report: CorpusOpenReport;
  readonly end: number;
}

/** Reads the ids of every complete line of the open file `fd`, and cuts a torn last line away. */
export function scanAndRepair(fd: number, path: string): ScannedCorpus {
  const size = fstatSync(fd).size;
  const ids = new Set<number>();
  const superseded = new Set<number>();
  const { lines, unreadableLines, end: lastNewlineEnd } = scanLines(fd, 0, size, ids, superseded);
  let truncatedBytes = 0;
  if (lastNewlineEnd < size) {
    truncatedBytes = size - lastNewlineEnd;
    try {
      ftruncateSync(fd, lastNewlineEnd);
    } catch (error) {
      throw new StorageError(`Cannot cut the torn last line of \`${path}\`: ${(error as Error).message}`, { cause: error });
    }
  }
  return { ids, superseded, report: { lines, truncatedBytes, unreadableLines }, end: lastNewlineEnd };
}

/** Adds the ids of the complete lines in bytes [from, size) to `ids`; `end` is where the last of them ends. */
export function scanLines(fd: number, from: number, size: number, ids: Set<number>, superseded: Set<number>): { lines: number; unreadableLines: number; end: number } {
  let lines = 0;
  let unreadableLines = 0;
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  // The first bytes of the current line (enough for its id), which may span two chunks.
  const head = Buffer.alloc(48);
  let headLength = 0;
  const keep = (from: number, to: number) => {
    const n = Math.min(to - from, head.length - headLength);
    if (n > 0) {
      buffer.copy(head, headLength, from, from + n);
      headLength += n;
    }
  };
  let lastNewlineEnd = from;
  for (let offset = from; offset < size;) {
    const read = readSync(fd, buffer, 0, Math.min(CHUNK_BYTES, size - offset), offset);
    if (read <= 0) break;
    const chunk = buffer.subarray(0, read);
    let position = 0;
    while (position < read) {
      const nl = chunk.indexOf(NEWLINE, position);
      if (nl < 0) {
        keep(position, read);
        break;
      }
      keep(position, nl);
      const id = idAt(head, 0, headLength);
      const tombstone = id >= 0 && isTombstone(head, ID_PREFIX.length + String(id).length, headLength);
      headLength = 0;
      lines++;
      if (id < 0) unreadableLines++;
      else if (tombstone) superseded.add(id);
      else ids.add(id);
      position = nl + 1;
      lastNewlineEnd = offset + nl + 1;
    }
    offset += read;
  }
  return { lines, unreadableLines, end: lastNewlineEnd };
}
