/**
 * Writes a report file whole or not at all: the text goes to a temporary file beside the target,
 * is flushed to disk, then renamed over the target (a rename within one folder is atomic), so a
 * reader never sees half a report and a failed write leaves the old file as it was.
 * The target's folder must exist: it is not created (a typo in --out should not make folders).
 */
import { closeSync, fsyncSync, openSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join, resolve } from 'node:path';
import { StorageError } from '../errors.js';

export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const target = resolve(path);
  const folder = dirname(target);
  let folderIsDir = false;
  try {
    folderIsDir = statSync(folder).isDirectory();
  } catch {
    folderIsDir = false;
  }
  if (!folderIsDir) throw new StorageError(`Cannot write \`${path}\`: folder \`${folder}\` does not exist`);
  try {
    if (statSync(target).isDirectory()) throw new StorageError(`Cannot write \`${path}\`: it is a folder`);
  } catch (error) {
    if (error instanceof StorageError) throw error;
    // Not there yet: fine.
  }
  const temp = join(folder, `.${basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  let fd: number | null = null;
  try {
    fd = openSync(temp, 'wx', 0o644);
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
    fsyncSync(fd);
    closeSync(fd);
    fd = null;
    renameSync(temp, target);
  } catch (error) {
    if (fd !== null) {
      try {
        closeSync(fd);
      } catch {
        // Already failing; the first error is the one to report.
      }
    }
    try {
      unlinkSync(temp);
    } catch {
      // The temporary file may never have been made.
    }
    const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
    throw new StorageError(`Cannot write \`${path}\`: ${message}`, { cause: error });
  }
}
