/**
 * `COPY (SELECT id, fingerprint ...) TO STDOUT (FORMAT binary)` read straight off the connection's socket:
 * every row is handed to a visitor as (id, hi, lo) numbers, with no Buffer, string or object per row.
 *
 * Why not pg-copy-streams' reader: PostgreSQL sends one CopyData message per row (31 bytes for these
 * rows), and that reader allocates a Buffer per message and another per chunk it pushes; at 10M rows
 * that was most of opening's client time and left the garbage collector a large bill for later.
 *
 * How: a pg "submittable" (like pg-copy-streams) that, while the COPY runs, takes the place of pg's own
 * socket listener and frames the protocol messages itself. A CopyData message holding exactly one
 * (id, fingerprint) row, met at a row boundary, is read in place (the fast path: every row but the first
 * and the trailer in practice); anything else goes through RowStream, which parses the COPY binary byte
 * stream whatever way the server split it into messages. At CopyDone (or an ErrorResponse) pg's listener
 * is put back and handed the rest of the bytes, so pg sees CommandComplete/ReadyForQuery (or the error)
 * as for any query.
 */
import type pg from 'pg';

/** Receives each row: id (< 2^32) and the fingerprint's two 32-bit halves. */
export type RowVisitor = (id: number, hi: number, lo: number) => void;

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
/** A row: int16 field count 2, then (int32 length 8, 8 bytes) for id and for fingerprint. */
const ROW_BYTES = 2 + 12 + 12;
const COPY_DATA = 0x64; // 'd'
/** A row's first 4 bytes: field count 2, then the high half of the id field's length 8. */
const ROW_WORD = 0x0002_0000;
const COPY_DONE = 0x63; // 'c'
const COPY_OUT_RESPONSE = 0x48; // 'H'
const ERROR_RESPONSE = 0x45; // 'E'
const QUIET = new Set([0x4e, 0x53, 0x41]); // NoticeResponse, ParameterStatus, NotificationResponse

/** Whether `buf` holds one whole (id, fingerprint) row at `at` (both fields 8 bytes, id < 2^32). */
function isRow(buf: Buffer, at: number): boolean {
  return buf.readInt16BE(at) === 2 && buf.readInt32BE(at + 2) === 8 && buf.readUInt32BE(at + 6) === 0 && buf.readInt32BE(at + 14) === 8;
}

/** The COPY binary byte stream, however it is split: header, rows, trailer. */
class RowStream {
  #pending: Buffer = Buffer.alloc(0);
  #headerDone = false;
  ended = false;
  rows = 0;
  constructor(private readonly visit: RowVisitor) {}

  /** At a row boundary past the header with nothing buffered: the next row may be read in place. */
  get aligned(): boolean {
    return this.#headerDone && this.#pending.length === 0 && !this.ended;
  }

  push(chunk: Buffer): void {
    if (this.ended) throw new Error('COPY data after its trailer');
    const buf = this.#pending.length === 0 ? chunk : Buffer.concat([this.#pending, chunk]);
    let at = 0;
    if (!this.#headerDone) {
      if (buf.length < 19) {
        this.#pending = Buffer.from(buf);
        return;
      }
      if (!buf.subarray(0, 11).equals(SIGNATURE)) throw new Error('COPY output is not PostgreSQL binary format');
      at = 19 + buf.readUInt32BE(15);
      this.#headerDone = true;
    }
    while (buf.length - at >= 2) {
      const fields = buf.readInt16BE(at);
      if (fields === -1) {
        this.ended = true;
        at += 2;
        break;
      }
      if (buf.length - at < ROW_BYTES) break;
      if (!isRow(buf, at)) throw new Error(`COPY row is not (id, fingerprint) of 8 bytes each (fields ${fields})`);
      this.visit(buf.readUInt32BE(at + 10), buf.readUInt32BE(at + 18), buf.readUInt32BE(at + 22));
      this.rows++;
      at += ROW_BYTES;
    }
    if (this.ended && at !== buf.length) throw new Error('COPY data after its trailer');
    this.#pending = at === buf.length ? Buffer.alloc(0) : Buffer.from(buf.subarray(at));
  }

  finish(): void {
    if (!this.ended || this.#pending.length !== 0) throw new Error('COPY output ended in the middle of a row');
  }
}

type Listener = (chunk: Buffer) => void;
interface PgConnection {
  stream: NodeJS.ReadableStream & { destroy(error?: Error): void };
  query(text: string): void;
}

/** The submittable; see the module comment. */
class CopyFingerprints {
  readonly text: string;
  readonly #rows: RowStream;
  readonly #visit: RowVisitor;
  #connection: PgConnection | null = null;
  #pgListener: Listener | null = null;
  #carry: Buffer = Buffer.alloc(0);
  #error: Error | null = null;
  #settled = false;
  readonly done: Promise<number>;
  #resolve!: (rows: number) => void;
  #reject!: (error: Error) => void;
  readonly #onData: Listener = (chunk) => this.#data(chunk);

  constructor(text: string, visit: RowVisitor) {
    this.text = text;
    this.#visit = visit;
    this.#rows = new RowStream(visit);
    this.done = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
  }

  submit(connection: PgConnection): void {
    const listeners = connection.stream.listeners('data') as Listener[];
    if (listeners.length !== 1) throw new Error(`expected one listener on the PostgreSQL socket, found ${listeners.length}`);
    this.#connection = connection;
    this.#pgListener = listeners[0]!;
    connection.stream.removeListener('data', this.#pgListener);
    connection.stream.on('data', this.#onData);
    connection.query(this.text);
  }

  handleError(error: Error): void {
    this.#detach(null);
    this.#settle(error);
  }

  handleCommandComplete(): void {}

  handleReadyForQuery(): void {
    if (this.#error === null) {
      try {
        this.#rows.finish();
      } catch (error) {
        this.#error = error as Error;
      }
    }
    this.#settle(this.#error);
  }

  #settle(error: Error | null): void {
    if (this.#settled) return;
    this.#settled = true;
    if (error === null) this.#resolve(this.#rows.rows);
    else this.#reject(error);
  }

  #data(chunk: Buffer): void {
    try {
      this.#frames(chunk);
    } catch (error) {
      // The protocol state is unknown now: drop the connection (pg reports it; the session reconnects).
      this.#error = error as Error;
      this.#detach(null);
      this.#connection?.stream.destroy(error as Error);
    }
  }

  /** Splits `chunk` (after any carried partial message) into protocol messages. */
  #frames(chunk: Buffer): void {
    const buf = this.#carry.length === 0 ? chunk : Buffer.concat([this.#carry, chunk]);
    // DataView reads are inlined by V8; Buffer's readUInt32BE checks its arguments on every call.
    const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    const length = buf.length;
    const rows = this.#rows;
    const visit = this.#visit;
    let at = 0;
    while (length - at >= 5) {
      const type = view.getUint8(at);
      const end = at + 1 + view.getInt32(at + 1);
      if (end > length) break;
      if (type === COPY_DATA) {
        // One whole row: 31 bytes = 'd', length 30, fields 2, (8, id), (8, fingerprint), id below 2^32.
        if (end - at === 31 && view.getUint32(at + 5) === ROW_WORD && view.getUint32(at + 9) === 0x0008_0000 &&
          view.getUint16(at + 13) === 0 && view.getUint32(at + 19) === 8 && rows.aligned) {
          visit(view.getUint32(at + 15), view.getUint32(at + 23), view.getUint32(at + 27));
          rows.rows++;
        } else {
          rows.push(buf.subarray(at + 5, end));
        }
      } else if (type === COPY_DONE) {
        this.#detach(buf.subarray(end));
        return;
      } else if (type !== COPY_OUT_RESPONSE && !QUIET.has(type)) {
        // An ErrorResponse (or anything unexpected): pg parses it and fails the query.
        if (type !== ERROR_RESPONSE) this.#error = new Error(`unexpected message ${String.fromCharCode(type)} during COPY`);
        this.#detach(buf.subarray(at));
        return;
      }
      at = end;
    }
    this.#carry = at === length ? Buffer.alloc(0) : Buffer.from(buf.subarray(at));
  }

  /** Gives the socket back to pg, with the bytes after the COPY (null: none to give). */
  #detach(rest: Buffer | null): void {
    const connection = this.#connection;
    const listener = this.#pgListener;
    if (connection === null || listener === null) return;
    this.#connection = null;
    this.#pgListener = null;
    this.#carry = Buffer.alloc(0);
    connection.stream.removeListener('data', this.#onData);
    connection.stream.on('data', listener);
    if (rest !== null && rest.length > 0) listener(rest);
  }
}

/**
 * Runs `copySql` (a COPY ... TO STDOUT (FORMAT binary) of (id bigint, fingerprint bigint) rows) on
 * `client`, calling `visit` for each row; resolves with the number of rows.
 */
export function copyFingerprints(client: pg.Client, copySql: string, visit: RowVisitor): Promise<number> {
  const copy = new CopyFingerprints(copySql, visit);
  client.query(copy as unknown as pg.Submittable);
  return copy.done;
}
