/**
 * Compaction of a corpus file (corpus-writer.ts, invariant 6): its live lines copied, without the
 * superseded ones and the tombstones, into a temporary file beside it, fsynced and renamed over it.
 * The rename is atomic: a kill leaves the old file or the new one, and at worst a stale temporary
 * file, which the next open removes.
 */
import { closeSync, fsyncSync, openSync, readSync, renameSync, rmSync } from 'node:fs';
import { StorageError } from '../errors.js';
import { writeAll } from './corpus-append.js';
import { NEWLINE, idAt } from './corpus-line.js';
import { CHUNK_BYTES } from './corpus-scan.js';

/** Where `compact` writes the new file before renaming it over the corpus. */
function compactPathOf(path: string): string {
  return `${path}.compact-tmp`;
}

/** Removes what a compaction killed before its rename left (the corpus itself is whole). */
export function removeStaleCompaction(path: string): void {
  rmSync(compactPathOf(path), { force: true });
}

/**
 * Replaces the corpus at `path` by its live lines: those of `fd`'s complete lines (bytes [0, size))
 * whose ids `superseded` does not hold. Returns the lines left out; `fd` still reads the old file.
 */
export function rewriteLive(fd: number, size: number, path: string, superseded: ReadonlySet<number>): number {
  const tmp = compactPathOf(path);
  const out = openSync(tmp, 'w');
  let removed = 0;
  try {
    removed = copyLive(fd, size, out, superseded);
    fsyncSync(out);
  } catch (error) {
    closeSync(out);
    rmSync(tmp, { force: true });
    throw new StorageError(`Cannot compact corpus file \`${path}\`: ${(error as Error).message}`, { cause: error });
  }
  closeSync(out);
  renameSync(tmp, path);
  return removed;
}

/**
 * Copies the complete lines of `fd` (bytes [0, size)) to `out`, but the superseded ones and the
 * tombstones; returns the lines left out.
 */
function copyLive(fd: number, size: number, out: number, superseded: ReadonlySet<number>): number {
  let removed = 0;
  let carry: Buffer = Buffer.alloc(0);
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  for (let offset = 0; offset < size;) {
    const read = readSync(fd, buffer, 0, Math.min(CHUNK_BYTES, size - offset), offset);
    if (read <= 0) break;
    offset += read;
    const chunk = carry.length === 0 ? buffer.subarray(0, read) : Buffer.concat([carry, buffer.subarray(0, read)]);
    let position = 0;
    const keep: Buffer[] = [];
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, position);
      if (nl < 0) break;
      const id = idAt(chunk, position, nl);
      if (id >= 0 && superseded.has(id)) removed++;
      else keep.push(chunk.subarray(position, nl + 1));
      position = nl + 1;
    }
    if (keep.length > 0) writeAll(out, keep, keep.reduce((n, b) => n + b.byteLength, 0));
    carry = Buffer.from(chunk.subarray(position));
  }
  return removed;
}
