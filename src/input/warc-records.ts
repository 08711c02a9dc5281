/**
 * WARC framing: a byte stream → its records (header and, when asked for, block), checked against
 * what the stream holds. warcio trusts a record's Content-Length: a file that ends inside a
 * skipped record made its skip loop forever, and a wrong length silently swallowed or cut records.
 *
 * Invariants:
 * - Every read is bounded by the bytes the stream has: a record declaring more than is left ends
 *   the file with a problem (truncated) instead of waiting.
 * - A record is yielded only when its declared end is followed by the end of the stream or by the
 *   next `WARC/` header (after the CRLFs the standard puts between records). Otherwise its
 *   Content-Length is wrong: the record is a problem, and reading resynchronises on the next line
 *   that starts `WARC/1.` — inside the declared block when the length was too large, after it when
 *   it was too small or not a number.
 * - A block is held in memory only when `keepBlock` asks for it (the caller bounds its size); a
 *   skipped block is streamed past, holding at most `maxWindowBytes` from the first `WARC/1.` line
 *   inside it, so that a length too large can still be resynchronised on.
 */
import { ByteSource } from './byte-source.js';

/** One record: its WARC header fields and, when kept, its block. */
export interface WarcFrameRecord {
  readonly kind: 'record';
  /** Offset of the record's first byte in the (uncompressed) stream. */
  readonly offset: number;
  /** The header bytes, version line to the blank line that ends them (included). */
  readonly header: Buffer;
  /** Header fields, names lower case (a repeated name keeps its first value). */
  readonly fields: ReadonlyMap<string, string>;
  readonly contentLength: number;
  /** The block, or null when it was skipped. */
  readonly block: Buffer | null;
  /** The first bytes of a skipped block (at most `headBytes`: enough for its HTTP headers), else null. */
  readonly head: Buffer | null;
}

/** Something in the stream that is not a record: a wrong length, a truncation, stray bytes. */
export interface WarcFrameProblem {
  readonly kind: 'problem';
  readonly offset: number;
  readonly message: string;
}

/** The stream does not start like a WARC: nothing was read from it. */
export interface WarcFrameNotWarc {
  readonly kind: 'not-warc';
  /** Its first characters, control characters shown as spaces. */
  readonly start: string;
}

export type WarcFrame = WarcFrameRecord | WarcFrameProblem | WarcFrameNotWarc;

export interface WarcFramingOptions {
  /** Whether to read a record's block into memory (else it is skipped unread). */
  readonly keepBlock: (type: string, contentLength: number) => boolean;
  /** @default 67108864 */
  readonly maxWindowBytes?: number;
}

/** A WARC header longer than this has no end: the bytes are not a WARC header. */
const maxHeaderBytes = 1 << 16;
const recordMarker = Buffer.from('WARC/1.', 'latin1');
const lineRecordMarker = Buffer.from('\nWARC/1.', 'latin1');
const headerEnd = Buffer.from('\r\n\r\n', 'latin1');

function printable(bytes: Buffer): string {
  return bytes.toString('latin1').replace(/[\x00-\x1f\x7f-\x9f]/g, ' ');
}

/** Index of the first line in `bytes` that starts `WARC/1.` (at 0, or after a `\n`), or -1. */
export function findRecordStart(bytes: Buffer, from = 0): number {
  if (from === 0 && bytes.subarray(0, recordMarker.length).equals(recordMarker)) return 0;
  const at = bytes.indexOf(lineRecordMarker, Math.max(0, from - 1));
  return at === -1 ? -1 : at + 1;
}

/** Skips CR and LF bytes; returns how many. */
async function skipNewlines(source: ByteSource): Promise<number> {
  let skipped = 0;
  for (;;) {
    if (!(await source.fill(1))) return skipped;
    const b = source.peek(1)[0];
    if (b !== 0x0d && b !== 0x0a) return skipped;
    skipped += await source.skip(1);
  }
}

/**
 * Skips to the next line that starts `WARC/1.` (or to the end of the stream), holding one chunk at
 * most. `atLineStart`: the current position is the start of a line. Returns the bytes skipped.
 */
async function resync(source: ByteSource, atLineStart: boolean): Promise<number> {
  let skipped = 0;
  let lineStart = atLineStart;
  for (;;) {
    await source.fill(1 << 16);
    const held = source.peek(source.available);
    if (held.length === 0) return skipped;
    const found = lineStart && held.subarray(0, recordMarker.length).equals(recordMarker) ? 0 : held.indexOf(lineRecordMarker);
    if (found === 0 && lineStart) return skipped;
    if (found > 0 || (found === 0 && !lineStart)) {
      return skipped + (await source.skip(found + 1));
    }
    if (held.length < lineRecordMarker.length && !(await source.fill(held.length + 1))) {
      return skipped + (await source.skip(held.length));
    }
    // Keep the last bytes: a marker may straddle two chunks.
    const keep = lineRecordMarker.length - 1;
    const drop = held.length - keep;
    if (drop <= 0) {
      if (!(await source.fill(held.length + 1))) return skipped + (await source.skip(held.length));
      continue;
    }
    lineStart = held[drop - 1] === 0x0a;
    skipped += await source.skip(drop);
  }
}

/** The header fields of a header block (after its version line). */
function parseFields(header: Buffer): Map<string, string> {
  const fields = new Map<string, string>();
  const lines = header.toString('utf8').split(/\r?\n/);
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!fields.has(name)) fields.set(name, line.slice(colon + 1).trim());
  }
  return fields;
}

/** How the bytes after a record's declared end look. */
type Boundary = 'next-record' | 'stray-bytes' | 'inside-record';

async function boundaryAfter(source: ByteSource): Promise<Boundary> {
  await source.fill(64);
  const held = source.peek(64);
  let newlines = 0;
  while (newlines < held.length && (held[newlines] === 0x0d || held[newlines] === 0x0a)) newlines++;
  if (newlines === held.length && source.available === held.length && (await source.fill(held.length + 1)) === false) return 'next-record';
  const rest = held.subarray(newlines);
  if (rest.subarray(0, 5).toString('latin1') === 'WARC/') return 'next-record';
  // The standard's two CRLFs, then something else: the record is whole and stray bytes follow.
  return held.subarray(0, 4).equals(headerEnd) ? 'stray-bytes' : 'inside-record';
}

/** Reads a header block (version line to blank line), or null when none ends within the limit. */
async function readHeader(source: ByteSource): Promise<Buffer | null> {
  let want = 4096;
  for (;;) {
    await source.fill(want);
    const held = source.peek(Math.min(source.available, maxHeaderBytes));
    const end = held.indexOf(headerEnd);
    if (end !== -1) return source.read(end + headerEnd.length);
    if (held.length >= maxHeaderBytes || held.length < want) return null;
    want *= 2;
  }
}

/** How much of a skipped block is kept as its `head`. */
const headBytes = 1 << 14;

/** Skips a block, keeping its first bytes and the bytes from its first `WARC/1.` line on (up to `maxWindow`). */
async function skipBlock(source: ByteSource, length: number, maxWindow: number): Promise<{ skipped: number; window: Buffer | null; head: Buffer }> {
  const head: Buffer[] = [];
  let headHeld = 0;
  let window: Buffer[] | null = null;
  let windowBytes = 0;
  let searching = true;
  let tail = Buffer.alloc(0);
  const skipped = await source.skip(length, (piece) => {
    if (headHeld < headBytes) {
      const part = Buffer.from(piece.subarray(0, headBytes - headHeld));
      head.push(part);
      headHeld += part.length;
    }
    if (window !== null) {
      if (windowBytes + piece.length > maxWindow) {
        window = null;
        searching = false;
      } else {
        window.push(Buffer.from(piece));
        windowBytes += piece.length;
      }
      return;
    }
    if (!searching) return;
    const joined = tail.length === 0 ? piece : Buffer.concat([tail, piece]);
    const at = findRecordStart(joined, 1);
    if (at !== -1) {
      window = [Buffer.from(joined.subarray(at))];
      windowBytes = joined.length - at;
      return;
    }
    tail = Buffer.from(joined.subarray(Math.max(0, joined.length - lineRecordMarker.length)));
  });
  return { skipped, window: window === null ? null : Buffer.concat(window, windowBytes), head: Buffer.concat(head, headHeld) };
}

/** The records of a WARC byte stream, and the problems met between them, in order. */
export async function* warcFrames(chunks: AsyncIterable<Buffer | string>, options: WarcFramingOptions): AsyncGenerator<WarcFrame> {
  const source = new ByteSource(chunks);
  const maxWindow = options.maxWindowBytes ?? 64 * 1024 * 1024;
  let first = true;
  try {
    for (;;) {
      await skipNewlines(source);
      if (!(await source.fill(1))) return;
      const offset = source.offset;
      const header = await readHeader(source);
      if (header === null && source.available < maxHeaderBytes && source.peek(5).toString('latin1') === 'WARC/') {
        yield { kind: 'problem', offset, message: `file ends inside this record's header (${source.available} bytes present): truncated WARC` };
        return;
      }
      const isWarc = header !== null && header.subarray(0, 5).toString('latin1') === 'WARC/';
      if (first && !isWarc) {
        yield { kind: 'not-warc', start: printable((header ?? source.peek(40)).subarray(0, 40)) };
        return;
      }
      first = false;
      if (!isWarc) {
        // Progress: a header without an end was not consumed; step past its first byte.
        const skipped = (header === null ? await source.skip(1) : 0) + (await resync(source, header !== null));
        yield { kind: 'problem', offset, message: `${skipped} bytes that are not a WARC record skipped${source.ended ? ' (to the end of the file)' : ''}` };
        continue;
      }
      const fields = parseFields(header);
      const declared = fields.get('content-length') ?? '';
      if (!/^\d{1,15}$/.test(declared)) {
        const skipped = await resync(source, true);
        yield {
          kind: 'problem', offset,
          message: `record with Content-Length \`${printable(Buffer.from(declared.slice(0, 40)))}\` (not a byte count): skipped ${skipped} bytes `
            + (source.ended ? 'to the end of the file' : 'to the next `WARC/1.` header'),
        };
        continue;
      }
      const length = Number(declared);
      const type = fields.get('warc-type') ?? '';
      const keep = options.keepBlock(type, length);
      let block: Buffer | null = null;
      let got: number;
      let window: Buffer | null;
      let head: Buffer | null = null;
      if (keep) {
        block = await source.read(length);
        got = block.length;
        window = block;
      } else {
        ({ skipped: got, window, head } = await skipBlock(source, length, maxWindow));
      }
      const boundary: Boundary = got < length ? 'inside-record' : await boundaryAfter(source);
      if (boundary === 'next-record') {
        yield { kind: 'record', offset, header, fields, contentLength: length, block, head };
        continue;
      }
      if (boundary === 'stray-bytes') {
        yield { kind: 'record', offset, header, fields, contentLength: length, block, head };
        const at = source.offset;
        await skipNewlines(source);
        const skipped = await resync(source, true);
        yield { kind: 'problem', offset: at, message: `${skipped} bytes after this record are not a WARC record: skipped${source.ended ? ' to the end of the file' : ''}` };
        continue;
      }
      // The declared end is not a record boundary: a wrong length, or a cut file.
      const inside = window === null ? -1 : findRecordStart(window);
      if (inside !== -1) {
        const rest = window!.subarray(inside);
        source.unshift(rest);
        yield {
          kind: 'problem', offset,
          message: `record's Content-Length ${length} runs past its end: the next \`WARC/1.\` header starts at byte ${source.offset}, `
            + `${length - (source.offset - offset - header.length)} bytes before the declared end; record skipped`,
        };
        continue;
      }
      if (got < length) {
        yield {
          kind: 'problem', offset,
          message: `file ends inside this record (Content-Length ${length}, ${got} bytes present, ${length - got} missing): truncated WARC, or a wrong Content-Length`,
        };
        return;
      }
      const end = source.offset;
      const skipped = await resync(source, false);
      yield {
        kind: 'problem', offset,
        message: `record's Content-Length ${length} ends inside the record (no \`WARC/\` header at byte ${end}): skipped ${skipped} bytes `
          + (source.ended ? 'to the end of the file' : `to the next \`WARC/1.\` header at byte ${source.offset}`),
      };
    }
  } finally {
    await source.close();
  }
}
