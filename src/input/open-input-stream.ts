/**
 * Opens an input file as a byte stream, gunzipping it when it starts with the gzip magic bytes
 * (whatever its name says). Multi-member gzip files (concatenated .gz) are read whole.
 *
 * The magic bytes are read from the stream itself, never at an offset: a named pipe (a FIFO,
 * `<(zcat ...)`) cannot be read at an offset (ESPIPE), and is streamed like a file.
 */
import { createReadStream } from 'node:fs';
import { pipeline, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

/** Chunk size for reading inputs: large enough to amortise syscalls, small enough to stay bounded. */
export const readChunkBytes = 1 << 20;

/** A file's raw bytes, in order, and whether they start with the gzip magic bytes 1f 8b. */
export interface RawInput {
  readonly gzip: boolean;
  /** The bytes as read; closes the file when iteration ends or stops. */
  readonly chunks: AsyncGenerator<Buffer>;
}

/** Opens a file (or named pipe) for streaming; the first bytes are read to tell gzip from the rest. Open errors reject. */
export async function openRawInput(path: string): Promise<RawInput> {
  const file = createReadStream(path, { highWaterMark: readChunkBytes });
  const source = file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const head: Buffer[] = [];
  let headBytes = 0;
  let done = false;
  try {
    // A pipe may deliver its first byte alone.
    while (headBytes < 2) {
      const next = await source.next();
      if (next.done === true) {
        done = true;
        break;
      }
      head.push(next.value);
      headBytes += next.value.length;
    }
  } catch (error) {
    file.destroy();
    throw error;
  }
  const first = head.length === 1 ? head[0]! : Buffer.concat(head, headBytes);
  const gzip = first.length >= 2 && first[0] === 0x1f && first[1] === 0x8b;
  async function* chunks(): AsyncGenerator<Buffer> {
    try {
      if (first.length > 0) yield first;
      if (done) return;
      for (;;) {
        const next = await source.next();
        if (next.done === true) return;
        yield next.value;
      }
    } finally {
      file.destroy();
    }
  }
  return { gzip, chunks: chunks() };
}

/** The file's bytes, decompressed if gzip. Errors (a truncated .gz included) surface while iterating. */
export async function openInputStream(path: string): Promise<Readable> {
  const { gzip, chunks } = await openRawInput(path);
  const source = Readable.from(chunks, { objectMode: false });
  if (!gzip) return source;
  // pipeline() destroys the gunzip stream with the source's error, so iteration rejects either way.
  return pipeline(source, createGunzip({ chunkSize: 256 * 1024 }), () => {});
}
