/**
 * corpus.jsonl: one stored (kept) document a line,
 * `{"id","url","finalUrl","title","language","text","flags","fingerprint","fetchedAt"}` (`flags` while
 * the cascade is on).
 *
 * Invariants (what makes the file crash-safe without an fsync per line):
 * 1. A line is appended only after the document's check-and-insert has committed in the
 *    database, so every line names a stored document.
 * 2. No id appears twice: the writer knows the id of every line already in the file (read once
 *    on open, from the start of each line, where `id` is always written first) and refuses to
 *    write an id again.
 * 3. Lines are written whole, `\n` last, by one append (one line, or the lines of a committed
 *    batch). A crash can only leave the last line torn (no final `\n`); `open` truncates it away.
 * 4. A stored document without its line (crash between the database commit and the append, or a
 *    torn line removed by 3) gets its line when its page is processed again: the index answers a
 *    URL seen before with its earlier decision, and the pipeline writes the line of any stored id
 *    the file lacks (from the database's record, and only if the page's text still has the text
 *    hash that was judged). A crawl re-processes such pages by itself, since crawlee marks a
 *    request handled only after the page handler (and so the append) returned. `missingIds`
 *    lists the stored ids still without a line.
 * 5. Several processes may append to one file (batch runs or crawls sharing a --data folder): each
 *    append happens while the caller holds the index's write lock (`FingerprintIndex.exclusive`),
 *    and first reads the ids of lines other processes appended since (`refresh`), so no id is
 *    written twice whichever process sees the document first.
 * 6. A line is withdrawn, never rewritten in place: when a better copy of a page takes the place of a
 *    stored document (the primary swap, src/pipeline.ts), the displaced document's line is superseded
 *    by a tombstone line `{"id":<old>,"supersededBy":<new>}` appended with (or after) the new line.
 *    A reader of the file skips a line whose id a later tombstone names (`CorpusWriter.readLive`
 *    does). `compact` rewrites the file without superseded lines and tombstones into a temporary file,
 *    fsyncs it and renames it over corpus.jsonl (atomic: a kill leaves the old file or the new one, and
 *    a stale temporary file is removed on open); writers of other processes see the new inode in
 *    `refresh` and reopen.
 *
 * The line format is corpus-line.ts's, reading the ids and cutting a torn line corpus-scan.ts's,
 * writing whole lines corpus-append.ts's, the rewrite corpus-compaction.ts's.
 */
import { closeSync, constants, fstatSync, fsyncSync, openSync, statSync } from 'node:fs';
import { StorageError } from '../errors.js';
import { appendOrCutBack } from './corpus-append.js';
import { removeStaleCompaction, rewriteLive } from './corpus-compaction.js';
import { linePieces, parseLiveRecords, tombstoneLine, type CorpusRecord } from './corpus-line.js';
import { scanAndRepair, scanLines, type CorpusOpenReport } from './corpus-scan.js';

export { tombstoneLine, type CorpusRecord } from './corpus-line.js';
export type { CorpusOpenReport } from './corpus-scan.js';

export class CorpusWriter {
  /** The file this writer appends to. */
  readonly path: string;
  /** What was found on open. */
  readonly openReport: CorpusOpenReport;
  private fd: number | null;
  private ids: Set<number>;
  /** Ids whose line a tombstone withdrew (invariant 6). */
  private superseded: Set<number>;
  /** Bytes of the file whose lines' ids are in `ids` (the end of its last complete line). */
  private scanned: number;

  private constructor(path: string, fd: number, ids: Set<number>, superseded: Set<number>, report: CorpusOpenReport, scanned: number) {
    this.path = path;
    this.fd = fd;
    this.ids = ids;
    this.superseded = superseded;
    this.openReport = report;
    this.scanned = scanned;
  }

  /**
   * Opens (or creates) the corpus file for appending: cuts a torn last line, and reads the id of
   * every line so that no document is ever written twice.
   */
  static open(path: string): CorpusWriter {
    removeStaleCompaction(path);
    let fd: number;
    try {
      fd = openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_APPEND | constants.O_NOFOLLOW, 0o666); // 'a+', never through a link
    } catch (error) {
      throw new StorageError(`Cannot open corpus file \`${path}\`: ${(error as Error).message}`, { cause: error });
    }
    try {
      const { ids, superseded, report, end } = scanAndRepair(fd, path);
      return new CorpusWriter(path, fd, ids, superseded, report, end);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  /**
   * Reads the ids of lines other processes appended since this writer last looked (invariant 5).
   * Call it while holding the index's write lock, right before `has` / `append`.
   */
  refresh(): void {
    if (this.fd === null) throw new StorageError(`Corpus file \`${this.path}\` is closed`);
    try {
      // Another process compacted the file (invariant 6): read the new one from its start.
      if (statSync(this.path).ino !== fstatSync(this.fd).ino) this.reopen();
      const size = fstatSync(this.fd).size;
      if (size > this.scanned) this.scanned = scanLines(this.fd, this.scanned, size, this.ids, this.superseded).end;
    } catch (error) {
      throw new StorageError(`Cannot read corpus file \`${this.path}\`: ${(error as Error).message}`, { cause: error });
    }
  }

  private reopen(): void {
    const old = this.fd!;
    this.fd = openSync(this.path, 'a+');
    closeSync(old);
    this.ids = new Set();
    this.superseded = new Set();
    this.scanned = 0;
  }

  /** Number of documents in the file (superseded lines not counted). */
  get size(): number {
    return this.ids.size - this.superseded.size;
  }

  /** Whether the document with this id has its line (a superseded one included: its id is never written again). */
  has(id: number): boolean {
    return this.ids.has(id);
  }

  /** Whether the document with this id has a line no tombstone withdrew. */
  isLive(id: number): boolean {
    return this.ids.has(id) && !this.superseded.has(id);
  }

  /** Ids of the lines no tombstone withdrew. */
  liveIds(): number[] {
    const live: number[] = [];
    for (const id of this.ids) if (!this.superseded.has(id)) live.push(id);
    return live;
  }

  /** Lines withdrawn by a tombstone and still in the file (0 after `compact`). */
  get supersededCount(): number {
    return this.superseded.size;
  }

  /**
   * Withdraws the lines of documents displaced by a better copy (invariant 6): one tombstone line
   * each, in one append. Ids without a live line are passed over. Call under the write lock, after `refresh`.
   */
  supersede(entries: readonly { readonly id: number; readonly by: number }[]): number {
    if (this.fd === null) throw new StorageError(`Corpus file \`${this.path}\` is closed`);
    const lines = entries.filter((e) => this.isLive(e.id)).map((e) => tombstoneLine(e.id, e.by));
    if (lines.length === 0) return 0;
    const bytes = Buffer.from(lines.join(''), 'utf8');
    appendOrCutBack(this.fd, [bytes], bytes.byteLength, fstatSync(this.fd).size, this.path);
    for (const e of entries) if (this.isLive(e.id)) this.superseded.add(e.id);
    this.scanned += bytes.byteLength;
    return lines.length;
  }

  /**
   * Rewrites the file without superseded lines and tombstones (invariant 6); nothing to do when no
   * line is superseded. Call under the write lock, after `refresh`. Returns the lines removed.
   */
  compact(): number {
    if (this.fd === null) throw new StorageError(`Corpus file \`${this.path}\` is closed`);
    if (this.superseded.size === 0) return 0;
    const removed = rewriteLive(this.fd, this.scanned, this.path, this.superseded);
    this.reopen();
    this.scanned = scanLines(this.fd!, 0, fstatSync(this.fd!).size, this.ids, this.superseded).end;
    return removed;
  }

  /** The live records of a corpus file (superseded lines and tombstones left out), parsed. */
  static readLive(text: string): CorpusRecord[] {
    return parseLiveRecords(text);
  }

  /** Of the given stored ids, those without a line (see invariant 4). */
  missingIds(storedIds: Iterable<number>): number[] {
    const missing: number[] = [];
    for (const id of storedIds) if (!this.ids.has(id)) missing.push(id);
    return missing;
  }

  /** Appends the document's line; false (and nothing written) when its id is already there. */
  append(record: CorpusRecord): boolean {
    return this.appendMany([record])[0]!;
  }

  /**
   * Appends the lines of several documents with one write (whole lines, `\n` last: a crash can
   * only tear the last of them, see invariant 3). A record whose id is already in the file, or
   * earlier in `records`, is not written. Returns, per record, whether its line was written.
   * On a write failure the file is cut back to where it ended, so no torn line is left between
   * lines, and nothing counts as written.
   */
  appendMany(records: readonly CorpusRecord[]): boolean[] {
    if (this.fd === null) throw new StorageError(`Corpus file \`${this.path}\` is closed`);
    for (const record of records) {
      if (!Number.isSafeInteger(record.id) || record.id < 0) {
        throw new StorageError(`Expected a corpus record id to be a non-negative integer, got ${String(record.id)}`);
      }
    }
    const written: boolean[] = new Array<boolean>(records.length).fill(false);
    const batchIds = new Set<number>();
    const pieces: Uint8Array[] = [];
    let length = 0;
    for (let i = 0; i < records.length; i++) {
      const record = records[i]!;
      if (this.ids.has(record.id) || batchIds.has(record.id)) continue;
      batchIds.add(record.id);
      written[i] = true;
      for (const piece of linePieces(record)) {
        pieces.push(piece);
        length += piece.byteLength;
      }
    }
    if (pieces.length === 0) return written;
    const fd = this.fd;
    let end: number;
    try {
      end = fstatSync(fd).size;
    } catch (error) {
      throw new StorageError(`Cannot read corpus file \`${this.path}\`: ${(error as Error).message}`, { cause: error });
    }
    // Bytes of a failed write are cut so the next line does not follow a torn one.
    appendOrCutBack(fd, pieces, length, end, this.path);
    for (const id of batchIds) this.ids.add(id);
    this.scanned += length;
    return written;
  }

  /** Flushes to disk and closes. Safe to call twice. */
  close(): void {
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}
