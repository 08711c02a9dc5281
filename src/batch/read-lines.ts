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

function decodeLine(parts: readonly Buffer[], total: number): string {
  let text: string;
  if (parts.length === 1) text = parts[0]!.toString('utf8');
  else text = Buffer.concat(parts as Buffer[], total).toString('utf8');
  return text.endsWith('\r') ? text.slice(0, -1) : text;
}

/** Lines of the stream, in order. Stream errors propagate after the complete lines before them. */
export async function* readLines(stream: Readable | AsyncIterable<Buffer>, maxLineBytes: number): AsyncGenerator<StreamLine> {
  let parts: Buffer[] = [];
  let partBytes = 0;
  let overflow = false;
  let lineNo = 0;
  for await (const raw of stream as AsyncIterable<Buffer | string>) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
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
      yield { lineNo, text: overflow ? null : decodeLine(parts, partBytes), bytes: partBytes };
      parts = [];
      partBytes = 0;
      overflow = false;
      start = nl + 1;
    }
  }
  if (partBytes > 0 || parts.length > 0) {
    lineNo += 1;
    yield { lineNo, text: overflow ? null : decodeLine(parts, partBytes), bytes: partBytes };
  }
}
