/**
 * WARC / WARC.gz input (Common Crawl style), read with warcio's streaming WARCParser, one
 * record at a time. Documents are `response` records with a 2xx HTTP status and an HTML
 * content type (text/html, application/xhtml+xml; or, with no Content-Type, a body that starts
 * like HTML), plus `resource` records whose WARC-Content-Type is HTML. The URL is the record's
 * WARC-Target-URI; the body is decoded from the HTTP charset (else `<meta>`, else sniffed) with
 * iconv-lite; HTTP Last-Modified and WARC-Date are kept. Every other record is counted as
 * ignored with a reason.
 *
 * A .warc.gz is gunzipped by Node's zlib before warcio sees it (faster than warcio's pako, and
 * it fails loudly on a truncated file where pako ends silently), so positions are
 * `file@<byte offset of the record in the uncompressed WARC>`. A file that ends inside a record
 * (truncated) or that is not a WARC gives a problem entry after the records read before it.
 */
import { brotliDecompressSync } from 'node:zlib';
import { WARCParser, type WARCRecord } from 'warcio';
import { PageSkipError } from '../errors.js';
import { defaultMaxDocumentBytes, type BatchEntry, type ReaderOptions } from './batch-entry.js';
import { decodeHtmlBytes, looksBinary } from './decode-html-bytes.js';
import { openInputStream } from './open-input-stream.js';

const htmlTypes = /^\s*(text\/html|application\/xhtml\+xml)\b/i;

function looksLikeHtml(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).toString('latin1').toLowerCase();
  return /<(!doctype html|html|head|body)\b/.test(head);
}

function isoDate(value: string | null | undefined): string | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** The decoded (de-chunked, un-gzipped) HTTP body, at most `maxBytes`. */
async function readBody(record: WARCRecord, maxBytes: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of record) {
    total += chunk.byteLength;
    if (total > maxBytes) throw new PageSkipError('too-large', `body larger than ${maxBytes} bytes (limit)`);
    chunks.push(chunk);
  }
  let body: Uint8Array = Buffer.concat(chunks, total);
  // warcio inflates gzip/deflate itself; a brotli body comes through de-chunked but still compressed.
  const encoding = record.httpHeaders?.headers.get('content-encoding')?.trim().toLowerCase();
  if (encoding === 'br') {
    try {
      body = brotliDecompressSync(body, { maxOutputLength: maxBytes });
    } catch (error) {
      // Some crawlers store the decoded body but keep the header: take it as it is if it reads as HTML.
      if (!looksLikeHtml(body)) throw new PageSkipError('decode-error', `brotli body cannot be decoded: ${(error as Error).message}`);
    }
  }
  return body;
}

/** The content type of a record worth reading (null: not declared), or the entry saying why it is not read. */
function contentTypeOf(record: WARCRecord, position: string): { readonly contentType: string | null } | BatchEntry {
  const type: string = record.warcType ?? '';
  let contentType: string | null;
  if (type === 'response') {
    const status = Number(record.httpHeaders?.statusCode);
    if (record.httpHeaders === null || record.httpHeaders === undefined) return { kind: 'ignored', position, reason: 'not-http' };
    if (!(status >= 200 && status < 300)) return { kind: 'ignored', position, reason: `http-${Number.isFinite(status) ? status : 'unknown'}` };
    contentType = record.httpHeaders.headers.get('content-type') ?? null;
  } else if (type === 'resource') {
    contentType = record.warcContentType ?? null;
  } else {
    return { kind: 'ignored', position, reason: `warc-${type === '' ? 'untyped' : type}` };
  }
  if (contentType !== null && !htmlTypes.test(contentType)) return { kind: 'ignored', position, reason: 'not-html' };
  return { contentType };
}

/** The entry of one WARC record: a page, or why it is skipped, ignored or a problem. A broken stream throws. */
async function recordEntry(record: WARCRecord, position: string, maxBytes: number): Promise<BatchEntry> {
  const gate = contentTypeOf(record, position);
  if ('kind' in gate) return gate;
  const { contentType } = gate;
  const url = record.warcTargetURI ?? '';
  if (url === '') return { kind: 'problem', position, message: `${record.warcType ?? ''} record without WARC-Target-URI` };
  if (record.warcContentLength > maxBytes * 4) {
    return { kind: 'skip', position, url, reason: 'too-large', detail: `record of ${record.warcContentLength} bytes (limit ${maxBytes})` };
  }
  let body: Uint8Array;
  try {
    body = await readBody(record, maxBytes);
  } catch (error) {
    // A body too large or that cannot be decoded is that page's problem; a broken stream ends the file.
    if (error instanceof PageSkipError) return { kind: 'skip', position, url, reason: error.reason, detail: error.detail };
    throw error;
  }
  if (contentType === null && !looksLikeHtml(body)) return { kind: 'ignored', position, reason: 'not-html' };
  if (looksBinary(body)) return { kind: 'skip', position, url, reason: 'not-html', detail: 'binary body' };
  const { html } = decodeHtmlBytes(body, contentType);
  const lastModified = isoDate(record.httpHeaders?.headers.get('last-modified'));
  const warcDate = record.warcDate === null || record.warcDate === undefined ? Number.NaN : Date.parse(record.warcDate);
  return {
    kind: 'page',
    position,
    size: html.length,
    input: {
      url,
      html,
      lastModified,
      ...(Number.isNaN(warcDate) ? {} : { fetchedAt: warcDate }),
    },
  };
}

/** Entries of one WARC file (plain or gzip, whole-file or per-record), streaming. */
export async function* readWarc(path: string, options: ReaderOptions = {}): AsyncGenerator<BatchEntry> {
  const maxBytes = options.maxDocumentBytes ?? defaultMaxDocumentBytes;
  const stream = await openInputStream(path);
  const parser = new WARCParser(stream);
  let position = `${path}@0`;
  let last: WARCRecord | null = null;
  try {
    for (;;) {
      const record = await parser.parse();
      if (record === null) break;
      last = record;
      position = `${path}@${parser.offset}`;
      if (!record.warcHeaders.statusline.startsWith('WARC/')) {
        yield { kind: 'problem', position, message: `not a WARC record (starts with \`${record.warcHeaders.statusline.slice(0, 40)}\`); rest of file skipped` };
        return;
      }
      yield await recordEntry(record, position, maxBytes);
    }
    // warcio ends quietly when the file stops inside a record: its body reader still expects bytes.
    const unread = (last as unknown as { _reader?: { limit?: unknown } } | null)?._reader?.limit;
    if (typeof unread === 'number' && unread > 0) {
      yield { kind: 'problem', position, message: `file ends inside this record (${unread} bytes missing): truncated WARC` };
    }
  } catch (error) {
    yield { kind: 'problem', position, message: `WARC read failed at or after this record, rest of file skipped: ${(error as Error).message}` };
  } finally {
    stream.destroy();
  }
}
