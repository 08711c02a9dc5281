/**
 * Gunzips a stream member by member, so that one damaged member costs only itself: reading
 * resumes at the next gzip member, and the damage is reported with its byte offset in the
 * compressed file. A per-record .warc.gz (one member per record, the Common Crawl layout) loses
 * one record to a cut or overwritten member instead of every record after it.
 *
 * Each member is inflated whole with zlib's synchronous raw inflate, which says how many
 * compressed bytes it consumed: that is where the member ends and its trailer (CRC-32, size)
 * starts, checked here. A member larger than `streamAfterBytes` compressed (a whole-file .warc.gz
 * is one huge member) is handed to a streaming gunzip instead, from its first byte, so memory
 * stays bounded; such a member's damage ends the file, as before.
 */
import { pipeline, Readable } from 'node:stream';
import { crc32, createGunzip, inflateRawSync } from 'node:zlib';

/** A damaged member, or bytes between members that are not one. */
export interface GzipProblem {
  /** Byte offset of the damage in the compressed file. */
  readonly compressedOffset: number;
  /** Bytes of decompressed output before the damage (where the gap is in the output). */
  readonly outputOffset: number;
  readonly message: string;
}

export interface GunzipMembersOptions {
  /** Called for each damaged stretch, once it is known where reading resumed. */
  readonly onProblem: (problem: GzipProblem) => void;
  /**
   * A member still unfinished after this many compressed bytes is streamed rather than inflated
   * whole. @default 2097152
   */
  readonly streamAfterBytes?: number;
}

const firstWindow = 1 << 16;

/** Pulls compressed bytes on demand and keeps the unconsumed ones, with their offset in the file. */
class CompressedBytes {
  pending: Buffer = Buffer.alloc(0);
  /** Compressed offset of pending[0]. */
  base = 0;
  eof = false;
  private readonly source: AsyncIterator<Buffer>;

  constructor(source: AsyncIterable<Buffer>) {
    this.source = source[Symbol.asyncIterator]();
  }

  /** Reads until at least `n` bytes are pending or the input ends. */
  async ensure(n: number): Promise<void> {
    const parts = [this.pending];
    let total = this.pending.length;
    while (total < n && !this.eof) {
      const next = await this.source.next();
      if (next.done === true) {
        this.eof = true;
        break;
      }
      const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
      parts.push(chunk);
      total += chunk.length;
    }
    if (parts.length > 1) this.pending = Buffer.concat(parts, total);
  }

  consume(n: number): void {
    this.pending = this.pending.subarray(n);
    this.base += n;
  }

  /** The rest of the input, pending bytes first. */
  async *rest(): AsyncGenerator<Buffer> {
    if (this.pending.length > 0) yield this.pending;
    this.pending = Buffer.alloc(0);
    if (this.eof) return;
    for (;;) {
      const next = await this.source.next();
      if (next.done === true) return;
      yield next.value;
    }
  }
}

const FHCRC = 2;
const FEXTRA = 4;
const FNAME = 8;
const FCOMMENT = 16;

/**
 * Length of the gzip header at the start of `bytes`; 0 when the bytes are not a gzip header, -1
 * when more bytes are needed to tell.
 */
export function gzipHeaderLength(bytes: Uint8Array): number {
  if (bytes.length < 10) return bytes.length >= 3 && !(bytes[0] === 0x1f && bytes[1] === 0x8b && bytes[2] === 8) ? 0 : -1;
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b || bytes[2] !== 8) return 0;
  const flags = bytes[3]!;
  if ((flags & 0xe0) !== 0) return 0;
  let at = 10;
  if ((flags & FEXTRA) !== 0) {
    if (bytes.length < at + 2) return -1;
    at += 2 + (bytes[at]! | (bytes[at + 1]! << 8));
  }
  for (const flag of [FNAME, FCOMMENT]) {
    if ((flags & flag) === 0) continue;
    const end = bytes.indexOf(0, at);
    if (end === -1) return -1;
    at = end + 1;
  }
  if ((flags & FHCRC) !== 0) at += 2;
  return bytes.length < at ? -1 : at;
}

type MemberResult =
  | { readonly kind: 'member'; readonly output: Buffer; readonly length: number }
  | { readonly kind: 'damaged'; readonly reason: string }
  | { readonly kind: 'large' };

/** Inflates the member at the start of `input.pending` (its header already checked, `headerLength` bytes). */
async function inflateMember(input: CompressedBytes, headerLength: number, streamAfterBytes: number): Promise<MemberResult> {
  let window = firstWindow;
  for (;;) {
    await input.ensure(window);
    const body = input.pending.subarray(headerLength);
    let output: Buffer;
    let consumed: number;
    try {
      const result = inflateRawSync(body, { info: true }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
      output = result.buffer;
      consumed = result.engine.bytesWritten;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'Z_BUF_ERROR') return { kind: 'damaged', reason: (error as Error).message };
      if (input.eof && input.pending.length < window) return { kind: 'damaged', reason: 'the file ends inside this member' };
      if (window >= streamAfterBytes) return { kind: 'large' };
      window *= 2;
      continue;
    }
    const trailerAt = headerLength + consumed;
    await input.ensure(trailerAt + 8);
    if (input.pending.length < trailerAt + 8) return { kind: 'damaged', reason: 'the file ends inside this member\'s trailer' };
    const crc = input.pending.readUInt32LE(trailerAt);
    const size = input.pending.readUInt32LE(trailerAt + 4);
    if (crc !== crc32(output) || size !== output.length % 2 ** 32) return { kind: 'damaged', reason: 'its CRC-32 or size does not match its data' };
    return { kind: 'member', output, length: trailerAt + 8 };
  }
}

/**
 * Skips to the next gzip member header after the first pending byte whose member inflates, or to
 * the end of the input. Returns the compressed offset where reading resumes, or null at the end.
 */
async function resync(input: CompressedBytes, streamAfterBytes: number): Promise<number | null> {
  input.consume(1);
  for (;;) {
    await input.ensure(firstWindow);
    const at = input.pending.indexOf(0x1f);
    if (at === -1) {
      if (input.eof) {
        input.consume(input.pending.length);
        return null;
      }
      input.consume(input.pending.length);
      continue;
    }
    input.consume(at);
    await input.ensure(1024);
    const header = gzipHeaderLength(input.pending);
    if (header > 0) {
      // A candidate is taken only when it inflates: deflate data can hold the magic bytes by chance.
      const probe = await inflateMember(input, header, streamAfterBytes);
      if (probe.kind !== 'damaged') return input.base;
    } else if (header === -1 && input.eof) {
      input.consume(input.pending.length);
      return null;
    }
    input.consume(1);
  }
}

/**
 * The decompressed bytes of a gzip stream (single- or multi-member), member by member. Damage is
 * reported through `onProblem` (compressed offset, what is wrong, where reading resumed) and
 * reading goes on at the next member that inflates.
 */
export async function* gunzipMembers(source: AsyncIterable<Buffer>, options: GunzipMembersOptions): AsyncGenerator<Buffer> {
  const streamAfterBytes = options.streamAfterBytes ?? 2 * 1024 * 1024;
  const input = new CompressedBytes(source);
  let output = 0;
  for (;;) {
    await input.ensure(1024);
    if (input.pending.length === 0) return;
    const start = input.base;
    const header = gzipHeaderLength(input.pending);
    const result: MemberResult = header > 0
      ? await inflateMember(input, header, streamAfterBytes)
      : { kind: 'damaged', reason: header === 0 ? 'these bytes are not a gzip member' : 'the file ends inside a gzip header' };
    if (result.kind === 'member') {
      input.consume(result.length);
      output += result.output.length;
      if (result.output.length > 0) yield result.output;
      continue;
    }
    if (result.kind === 'large') {
      yield* streamMember(input);
      return;
    }
    const resumed = await resync(input, streamAfterBytes);
    options.onProblem({
      compressedOffset: start,
      outputOffset: output,
      message: `damaged gzip member at compressed offset ${start} (${result.reason}): `
        + (resumed === null ? 'no gzip member after it, rest of file skipped' : `${resumed - start} compressed bytes skipped, resumed at the next member at compressed offset ${resumed}`),
    });
  }
}

/** The rest of the input through a streaming gunzip (one large member, and any after it). Errors propagate. */
async function* streamMember(input: CompressedBytes): AsyncGenerator<Buffer> {
  // pipeline() destroys the gunzip stream with the source's error, so iteration rejects either way.
  const gunzip = pipeline(Readable.from(input.rest(), { objectMode: false }), createGunzip({ chunkSize: 256 * 1024 }), () => {});
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) yield chunk;
  } finally {
    gunzip.destroy();
  }
}
