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
 */
import {
  closeSync, constants, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, renameSync, rmSync, statSync, writeSync, writevSync,
} from 'node:fs';
import { StorageError } from '../errors.js';

/** One line of corpus.jsonl. */
export interface CorpusRecord {
  /** The document's id in the database. */
  readonly id: number;
  readonly url: string;
  /** URL after redirects, or null when the same as `url`. */
  readonly finalUrl: string | null;
  readonly title: string;
  /** ISO 639-3 code, or 'und'. */
  readonly language: string;
  /** Main text; paragraphs separated by a blank line. */
  readonly text: string;
  /**
   * The main text already as the UTF-8 bytes of a JSON string (quotes included); written instead
   * of `text` when given (batch dedup's worker threads encode texts so).
   */
  readonly textJson?: Uint8Array;
  /** The 64-bit simhash, 16 hex digits. */
  readonly fingerprint: string;
  /** When the page was fetched (ISO 8601), or null when unknown. */
  readonly fetchedAt: string | null;
  /**
   * Kinds of the cascade's flags on the page (`homoglyph`, `generated`, `synonymised`, `compiled`;
   * evidence in the database's flags table); written after `text`, on every line while the cascade is on.
   */
  readonly flags?: readonly string[];
  /**
   * The input's own fields (JSONL fields neardup does not read, `judge()`'s extra fields), written
   * last, unchanged; one whose name the line uses already (`id`, `title`, ...) goes under `input`.
   */
  readonly fields?: Readonly<Record<string, unknown>>;
}

/** Names a corpus line uses itself: an input field so named is kept under `input` instead. */
const ownNames = new Set(['id', 'url', 'finalUrl', 'title', 'language', 'text', 'flags', 'fingerprint', 'fetchedAt', 'input']);

/** `,"name":value` for each carried field, the clashing ones as one `"input"` object. */
function fieldsJson(fields: Readonly<Record<string, unknown>> | undefined): string {
  if (fields === undefined) return '';
  let out = '';
  let clashing: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(fields)) {
    if (ownNames.has(key)) (clashing ??= {})[key] = value;
    else out += `,${JSON.stringify(key)}:${JSON.stringify(value)}`;
  }
  return clashing === undefined ? out : `${out},"input":${JSON.stringify(clashing)}`;
}

/** What `open` found in an existing file. */
export interface CorpusOpenReport {
  /** Complete lines found. */
  readonly lines: number;
  /** Bytes of a torn last line that were cut off (0 when the file ended cleanly). */
  readonly truncatedBytes: number;
  /** Lines whose id could not be read (left in place, not counted as written ids). */
  readonly unreadableLines: number;
}

const chunkBytes = 1 << 20;
const newline = 0x0a;
/** Every line starts with these bytes, then the id's digits. */
const idPrefix = Buffer.from('{"id":', 'utf8');

/** What follows the id of a tombstone line (invariant 6). */
const tombstoneMark = Buffer.from(',"supersededBy":', 'utf8');

/** The tombstone line withdrawing document `id` for `by`. */
export function tombstoneLine(id: number, by: number): string {
  return `{"id":${id},"supersededBy":${by}}\n`;
}

/** Whether the line held in `buffer` from `start` is a tombstone (its id's digits end at `afterId`). */
function isTombstone(buffer: Buffer, afterId: number, end: number): boolean {
  if (end - afterId < tombstoneMark.length) return false;
  for (let i = 0; i < tombstoneMark.length; i++) if (buffer[afterId + i] !== tombstoneMark[i]) return false;
  return true;
}

/** Reads the id at the start of a line held in `buffer` from `start`; -1 if it is not there. */
function idAt(buffer: Buffer, start: number, end: number): number {
  if (end - start < idPrefix.length + 1) return -1;
  for (let i = 0; i < idPrefix.length; i++) if (buffer[start + i] !== idPrefix[i]) return -1;
  let id = 0;
  let digits = 0;
  for (let i = start + idPrefix.length; i < end; i++) {
    const c = buffer[i]!;
    if (c < 0x30 || c > 0x39) break;
    id = id * 10 + (c - 0x30);
    digits++;
  }
  return digits === 0 || digits > 15 ? -1 : id;
}

/**
 * A record's line, `\n` last, as the pieces to write: the fields before the text, the text's JSON
 * (its given bytes, written where they are, or `text` encoded here) and the fields after it — the
 * bytes `JSON.stringify` gives for the whole record. `id` first: `open` reads it from the start of
 * the line without parsing the rest.
 */
function linePieces(record: CorpusRecord): Uint8Array[] {
  const head = { id: record.id, url: record.url, finalUrl: record.finalUrl, title: record.title, language: record.language };
  const text = record.textJson ?? Buffer.from(JSON.stringify(record.text), 'utf8');
  const flags = record.flags === undefined ? '' : `,"flags":${JSON.stringify(record.flags)}`;
  const tail = `${flags},"fingerprint":${JSON.stringify(record.fingerprint)},"fetchedAt":${JSON.stringify(record.fetchedAt)}${fieldsJson(record.fields)}}\n`;
  return [Buffer.from(`${JSON.stringify(head).slice(0, -1)},"text":`, 'utf8'), text, Buffer.from(tail, 'utf8')];
}

/** Writes every piece, in order, with one writev (and plain writes for what a short write left). */
function writeAll(fd: number, pieces: readonly Uint8Array[], total: number): void {
  let done = writevSync(fd, pieces as Uint8Array[]);
  if (done >= total) return;
  const rest = Buffer.concat(pieces as Uint8Array[], total);
  while (done < total) done += writeSync(fd, rest, done, total - done);
}

/** Where `compact` writes the new file before renaming it over the corpus. */
function compactPathOf(path: string): string {
  return `${path}.compact-tmp`;
}

/**
 * Copies the complete lines of `fd` (bytes [0, size)) to `out`, but the superseded ones and the
 * tombstones; returns the lines left out.
 */
function copyLive(fd: number, size: number, out: number, superseded: ReadonlySet<number>): number {
  let removed = 0;
  let carry: Buffer = Buffer.alloc(0);
  const buffer = Buffer.allocUnsafe(chunkBytes);
  for (let offset = 0; offset < size;) {
    const read = readSync(fd, buffer, 0, Math.min(chunkBytes, size - offset), offset);
    if (read <= 0) break;
    offset += read;
    const chunk = carry.length === 0 ? buffer.subarray(0, read) : Buffer.concat([carry, buffer.subarray(0, read)]);
    let position = 0;
    const keep: Buffer[] = [];
    for (;;) {
      const nl = chunk.indexOf(newline, position);
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
    // A compaction killed before its rename left its temporary file: the corpus itself is whole.
    rmSync(compactPathOf(path), { force: true });
    let fd: number;
    try {
      fd = openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_APPEND | constants.O_NOFOLLOW, 0o666); // 'a+', never through a link
    } catch (error) {
      throw new StorageError(`Cannot open corpus file \`${path}\`: ${(error as Error).message}`, { cause: error });
    }
    try {
      const { ids, superseded, report, end } = CorpusWriter.scan(fd, path);
      return new CorpusWriter(path, fd, ids, superseded, report, end);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  private static scan(fd: number, path: string): { ids: Set<number>; superseded: Set<number>; report: CorpusOpenReport; end: number } {
    const size = fstatSync(fd).size;
    const ids = new Set<number>();
    const superseded = new Set<number>();
    const { lines, unreadableLines, end: lastNewlineEnd } = CorpusWriter.scanRange(fd, 0, size, ids, superseded);
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
  private static scanRange(fd: number, from: number, size: number, ids: Set<number>, superseded: Set<number>): { lines: number; unreadableLines: number; end: number } {
    let lines = 0;
    let unreadableLines = 0;
    const buffer = Buffer.allocUnsafe(chunkBytes);
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
      const read = readSync(fd, buffer, 0, Math.min(chunkBytes, size - offset), offset);
      if (read <= 0) break;
      const chunk = buffer.subarray(0, read);
      let position = 0;
      while (position < read) {
        const nl = chunk.indexOf(newline, position);
        if (nl < 0) {
          keep(position, read);
          break;
        }
        keep(position, nl);
        const id = idAt(head, 0, headLength);
        headLength = 0;
        lines++;
        if (id < 0) unreadableLines++;
        else if (isTombstone(head, idPrefix.length + String(id).length, headLength)) superseded.add(id);
        else ids.add(id);
        position = nl + 1;
        lastNewlineEnd = offset + nl + 1;
      }
      offset += read;
    }
    return { lines, unreadableLines, end: lastNewlineEnd };
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
      if (size > this.scanned) this.scanned = CorpusWriter.scanRange(this.fd, this.scanned, size, this.ids, this.superseded).end;
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
    const fd = this.fd;
    const end = fstatSync(fd).size;
    try {
      writeAll(fd, [bytes], bytes.byteLength);
    } catch (error) {
      try {
        ftruncateSync(fd, end);
      } catch { /* the write error is what to report */ }
      throw new StorageError(`Cannot write to corpus file \`${this.path}\`: ${(error as Error).message}`, { cause: error });
    }
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
    const tmp = compactPathOf(this.path);
    const out = openSync(tmp, 'w');
    let removed = 0;
    try {
      removed = copyLive(this.fd, this.scanned, out, this.superseded);
      fsyncSync(out);
    } catch (error) {
      closeSync(out);
      rmSync(tmp, { force: true });
      throw new StorageError(`Cannot compact corpus file \`${this.path}\`: ${(error as Error).message}`, { cause: error });
    }
    closeSync(out);
    renameSync(tmp, this.path);
    this.reopen();
    this.scanned = CorpusWriter.scanRange(this.fd!, 0, fstatSync(this.fd!).size, this.ids, this.superseded).end;
    return removed;
  }

  /** The live records of a corpus file (superseded lines and tombstones left out), parsed. */
  static readLive(text: string): CorpusRecord[] {
    const records: CorpusRecord[] = [];
    const withdrawn = new Set<number>();
    const parsed: CorpusRecord[] = [];
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      const value = JSON.parse(line) as CorpusRecord & { supersededBy?: number };
      if (value.supersededBy !== undefined) withdrawn.add(value.id);
      else parsed.push(value);
    }
    for (const record of parsed) if (!withdrawn.has(record.id)) records.push(record);
    return records;
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
    try {
      writeAll(fd, pieces, length);
    } catch (error) {
      // Bytes of a failed write may have reached the file: cut them so the next line does not
      // follow a torn one (best effort; `open` cuts a torn last line anyway).
      try {
        ftruncateSync(fd, end);
      } catch { /* the write error is what to report */ }
      throw new StorageError(`Cannot write to corpus file \`${this.path}\`: ${(error as Error).message}`, { cause: error });
    }
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
