/**
 * Opens an input file as a byte stream, gunzipping it when it starts with the gzip magic bytes
 * (whatever its name says). Multi-member gzip files (concatenated .gz) are read whole.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

/** Chunk size for reading inputs: large enough to amortise syscalls, small enough to stay bounded. */
export const readChunkBytes = 1 << 20;

/** True when the file begins with the gzip magic bytes 1f 8b. */
export async function isGzipFile(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await handle.read(head, 0, 2, 0);
    return bytesRead === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

/** The file's bytes, decompressed if gzip. Errors (a truncated .gz included) surface while iterating. */
export async function openInputStream(path: string): Promise<Readable> {
  const source = createReadStream(path, { highWaterMark: readChunkBytes });
  if (!(await isGzipFile(path))) return source;
  // pipeline() destroys the gunzip stream with the source's error, so iteration rejects either way.
  return pipeline(source, createGunzip({ chunkSize: 256 * 1024 }), () => {});
}
