/**
 * One HTML or text file (optionally gzipped) → one entry. The document's URL is the file's path
 * as reached from the input given on the command line (e.g. `corpus/2024/a.html`), which is
 * stable across runs and machines as long as the same input path is given; its Last-Modified is
 * the file's mtime. A file larger than the document limit is skipped unread; a truncated or
 * corrupt .gz is a problem entry.
 */
import { stat } from 'node:fs/promises';
import { PageSkipError } from '../errors.js';
import { defaultMaxDocumentBytes, type BatchEntry, type ReaderOptions } from './batch-entry.js';
import { decodeHtmlBytes, decodeTextBytes, looksBinary } from './decode-html-bytes.js';
import { openInputStream } from './open-input-stream.js';

async function readCapped(path: string, maxBytes: number): Promise<Buffer> {
  const stream = await openInputStream(path);
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > maxBytes) throw new PageSkipError('too-large', `more than ${maxBytes} bytes (limit)`);
      chunks.push(chunk);
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks, total);
}

/** Reads one .html/.htm/.txt (or .gz of them) file. */
export async function readDocumentFile(path: string, kind: 'html' | 'text', options: ReaderOptions = {}): Promise<BatchEntry> {
  const maxBytes = options.maxDocumentBytes ?? defaultMaxDocumentBytes;
  const url = path;
  let bytes: Buffer;
  let mtime: Date;
  try {
    const info = await stat(path);
    mtime = info.mtime;
    if (info.size > maxBytes) {
      return { kind: 'skip', position: path, url, reason: 'too-large', detail: `${info.size} bytes (limit ${maxBytes})` };
    }
    bytes = await readCapped(path, maxBytes);
  } catch (error) {
    if (error instanceof PageSkipError) return { kind: 'skip', position: path, url, reason: error.reason, detail: error.detail };
    return { kind: 'problem', position: path, message: `read failed: ${(error as Error).message}` };
  }
  const lastModified = mtime.toISOString();
  if (looksBinary(bytes)) return { kind: 'skip', position: path, url, reason: 'not-html', detail: 'binary body' };
  if (kind === 'html') {
    const { html } = decodeHtmlBytes(bytes);
    return { kind: 'page', position: path, input: { url, html, lastModified }, size: html.length };
  }
  const { html: text } = decodeTextBytes(bytes);
  return { kind: 'page', position: path, input: { url, text, lastModified }, size: text.length };
}
