/**
 * Writing whole lines to a corpus file (corpus-writer.ts, invariant 3): all the pieces of a batch in
 * one writev, and on a failed write the file cut back to where it ended, so that no torn line is
 * left for the next line to follow.
 */
import { ftruncateSync, writeSync, writevSync } from 'node:fs';
import { StorageError } from '../errors.js';

/** Writes every piece, in order, with one writev (and plain writes for what a short write left). */
export function writeAll(fd: number, pieces: readonly Uint8Array[], total: number): void {
  let done = writevSync(fd, pieces as Uint8Array[]);
  if (done >= total) return;
  const rest = Buffer.concat(pieces as Uint8Array[], total);
  while (done < total) done += writeSync(fd, rest, done, total - done);
}

/**
 * writeAll at the end of the file, which ends at `end`; on a failure, the bytes that may have
 * reached the file are cut (best effort; `open` cuts a torn last line anyway) and a StorageError
 * naming `path` is thrown.
 */
export function appendOrCutBack(fd: number, pieces: readonly Uint8Array[], total: number, end: number, path: string): void {
  try {
    writeAll(fd, pieces, total);
  } catch (error) {
    try {
      ftruncateSync(fd, end);
    } catch { /* the write error is what to report */ }
    throw new StorageError(`Cannot write to corpus file \`${path}\`: ${(error as Error).message}`, { cause: error });
  }
}
