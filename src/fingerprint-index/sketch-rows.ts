/**
 * The second stage's candidates read back in one SQLite statement a lookup (issue 25), rather than
 * one statement per candidate (~25 a lookup on issue 25's corpus): IndexStatements.sketchRows packs
 * the rows with a sketch among the given ids as one hex string, each row a header of five 32-bit
 * words (id, fingerprint hi and lo, the cluster's stored document, the sketch's length in bytes;
 * big-endian hex) followed by the sketch as stored (uint32 little-endian values). The string is
 * decoded into one reusable buffer: every field sits on a 4-byte boundary, so the sketches are read
 * in place through a Uint32Array view of it (no object or array per row).
 *
 * Rows come in SQLite's order, not the list's: the second stage's choice does not depend on order
 * (betterMatch).
 */
import { LITTLE_ENDIAN } from '../fingerprint/shingle-sketch.js';
import type { IdList } from './id-list.js';
import type { Statement } from './index-statements.js';

/** Bytes of a row's header: id, hi, lo, root, sketch bytes. */
const HEADER = 20;

export class SketchRows {
  readonly #statement: Statement;
  #bytes = Buffer.alloc(16 * 1024);
  /** The buffer as uint32 values (sketch values on a little-endian machine; see #decodeSketches). */
  values: Uint32Array = new Uint32Array(this.#bytes.buffer, this.#bytes.byteOffset, this.#bytes.length >>> 2);
  /** Rows read by the last read(). */
  count = 0;
  // Word offset of each row's header in `values`.
  #rowAt: Uint32Array = new Uint32Array(64);

  /** `statement`: IndexStatements.sketchRows. */
  constructor(statement: Statement) {
    this.#statement = statement;
  }

  /** Reads the rows of the listed ids that hold a sketch (ids gone or without a sketch are left out). */
  read(list: IdList): this {
    let ids = '[';
    for (let i = 0; i < list.count; i++) ids += (i === 0 ? '' : ',') + String(list.ids[i]);
    const hex = this.#statement.get(ids + ']') as string | null;
    this.count = 0;
    if (hex === null) return this;
    if (hex.length >>> 1 > this.#bytes.length) this.#grow(hex.length >>> 1);
    const length = this.#bytes.write(hex, 0, 'hex');
    for (let at = 0; at < length;) {
      const sketchBytes = this.#bytes.readUInt32BE(at + 16);
      if (sketchBytes % 4 !== 0) throw new RangeError(`Expected sketch bytes to be a multiple of 4 long, got ${sketchBytes}`);
      if (this.count === this.#rowAt.length) this.#rowAt = grownRows(this.#rowAt);
      this.#rowAt[this.count++] = at >>> 2;
      if (!LITTLE_ENDIAN) this.#decodeSketch(at + HEADER, sketchBytes >>> 2);
      at += HEADER + sketchBytes;
    }
    return this;
  }

  id(row: number): number {
    return this.#bytes.readUInt32BE(4 * this.#rowAt[row]!);
  }

  hi(row: number): number {
    return this.#bytes.readUInt32BE(4 * this.#rowAt[row]! + 4);
  }

  lo(row: number): number {
    return this.#bytes.readUInt32BE(4 * this.#rowAt[row]! + 8);
  }

  /** The row's cluster: its stored document (itself when stored). */
  root(row: number): number {
    return this.#bytes.readUInt32BE(4 * this.#rowAt[row]! + 12);
  }

  /** Where the row's sketch starts in `values`. */
  sketchStart(row: number): number {
    return this.#rowAt[row]! + HEADER / 4;
  }

  /** Values of the row's sketch. */
  sketchLength(row: number): number {
    return this.#bytes.readUInt32BE(4 * this.#rowAt[row]! + 16) >>> 2;
  }

  /** On a big-endian machine, the stored little-endian values rewritten as this machine's uint32. */
  #decodeSketch(byteAt: number, n: number): void {
    for (let i = 0; i < n; i++) this.values[(byteAt >>> 2) + i] = this.#bytes.readUInt32LE(byteAt + 4 * i);
  }

  #grow(needed: number): void {
    // Buffer.alloc is never pooled: the buffer starts its own ArrayBuffer, so the view is aligned.
    this.#bytes = Buffer.alloc(Math.max(needed, 2 * this.#bytes.length) + 3 & ~3);
    this.values = new Uint32Array(this.#bytes.buffer, this.#bytes.byteOffset, this.#bytes.length >>> 2);
  }
}

function grownRows(rows: Uint32Array): Uint32Array {
  const out = new Uint32Array(2 * rows.length);
  out.set(rows);
  return out;
}
