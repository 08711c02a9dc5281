/**
 * Splits a byte stream into lines (on `\n`; a trailing `\r` is dropped) without ever holding more
 * than one line plus one chunk. A line longer than `maxLineBytes` is not kept: it is reported as
 * too long (with its length) and skipped, so one giant line cannot exhaust memory.
 */
import type { Readable } from 'node:stream';

/** One line of a stream. */
export interface StreamLine {
  /** 1-based line number. */
  readonly lineNo: number;
  /** The line's text (UTF-8), or null when it was longer than the limit. */
  readonly text: string | null;
  /** Bytes in the line (without the newline). */
  readonly bytes: number;
}

/** One line of a stream, as bytes. */
export interface StreamLineBytes {
  /** 1-based line number. */
  readonly lineNo: number;
  /** The line's bytes (a trailing `\r` dropped), or null when it was longer than the limit. May share memory with the stream's chunk. */
  readonly bytes: Buffer | null;
  /** Bytes in the line (without the newline). */
  readonly length: number;
}

function joinLine(parts: readonly Buffer[], total: number): Buffer {
  const line = parts.length === 1 ? parts[0]! : parts.length === 0 ? Buffer.alloc(0) : Buffer.concat(parts as Buffer[], total);
  return line.length > 0 && line[line.length - 1] === 0x0d ? line.subarray(0, line.length - 1) : line;
}

const utf8Bom = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * The stream's chunks without a UTF-8 byte-order mark at its very start (editors on Windows write
 * one; it would make the first line invalid JSON). A BOM elsewhere is text and stays.
 */
async function* withoutLeadingBom(stream: Readable | AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let head: Buffer = Buffer.alloc(0);
  let checked = false;
  for await (const raw of stream as AsyncIterable<Buffer | string>) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
    if (checked) {
      yield chunk;
      continue;
    }
    head = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
    if (head.length < utf8Bom.length && utf8Bom.subarray(0, head.length).equals(head)) continue;
    checked = true;
    yield head.subarray(0, utf8Bom.length).equals(utf8Bom) ? head.subarray(utf8Bom.length) : head;
  }
  if (!checked && head.length > 0 && !utf8Bom.subarray(0, head.length).equals(head)) yield head;
}

/** Lines of the stream as bytes, in order (see {@link readLines}); no decoding. A leading UTF-8 BOM is dropped. */
export async function* readLineBytes(stream: Readable | AsyncIterable<Buffer>, maxLineBytes: number): AsyncGenerator<StreamLineBytes> {
  let parts: Buffer[] = [];
  let partBytes = 0;
  let overflow = false;
  let lineNo = 0;
  for await (const chunk of withoutLeadingBom(stream)) {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      const end = nl === -1 ? chunk.length : nl;
      const pieceBytes = end - start;
      if (!overflow) {
        if (partBytes + pieceBytes > maxLineBytes) {
          overflow = true;
          parts = [];
        } else if (pieceBytes > 0) {
          // subarray shares the chunk's memory; copy only when the line continues into the next chunk.
          parts.push(nl === -1 ? Buffer.from(chunk.subarray(start, end)) : chunk.subarray(start, end));
        }
      }
      partBytes += pieceBytes;
      if (nl === -1) break;
      lineNo += 1;
      yield { lineNo, bytes: overflow ? null : joinLine(parts, partBytes), length: partBytes };
      parts = [];
      partBytes = 0;
      overflow = false;
      start = nl + 1;
    }
  }
  if (partBytes > 0 || parts.length > 0) {
    lineNo += 1;
    yield { lineNo, bytes: overflow ? null : joinLine(parts, partBytes), length: partBytes };
  }
}

/** Lines of the stream, in order. Stream errors propagate after the complete lines before them. */
export async function* readLines(stream: Readable | AsyncIterable<Buffer>, maxLineBytes: number): AsyncGenerator<StreamLine> {
  for await (const line of readLineBytes(stream, maxLineBytes)) {
    yield { lineNo: line.lineNo, text: line.bytes === null ? null : line.bytes.toString('utf8'), bytes: line.length };
  }
}
