/**
 * WARC / WARC.gz input (Common Crawl style), one record at a time. Documents are `response`
 * records with a 2xx HTTP status and an HTML content type (text/html, application/xhtml+xml; or,
 * with no Content-Type, a body that starts like HTML), plus `resource` records whose
 * WARC-Content-Type is HTML. The URL is the record's WARC-Target-URI; the body is decoded from the
 * HTTP charset (else `<meta>`, else sniffed) with iconv-lite; HTTP Last-Modified and WARC-Date are
 * kept. Every other record is counted as ignored with a reason.
 *
 * Records are framed by warc-records.ts, which checks each Content-Length against the bytes that
 * follow (a wrong one is a problem and reading resynchronises on the next `WARC/1.` header; a file
 * that ends inside a record is a problem, never a wait); warcio then parses the HTTP part of a
 * record already held whole. A .warc.gz is gunzipped member by member (gunzip-members.ts): a
 * damaged member is a problem naming its compressed offset, and reading resumes at the next one.
 * Positions are `file@<byte offset of the record in the uncompressed WARC>`. A file that does not
 * start like a WARC is refused with one problem.
 */
import { brotliDecompressSync } from 'node:zlib';
import { WARCParser, type WARCRecord } from 'warcio';
import { PageSkipError } from '../errors.js';
import { defaultMaxDocumentBytes, type BatchEntry, type ReaderOptions } from './batch-entry.js';
import { decodeHtmlBytes, looksBinary } from './decode-html-bytes.js';
import { fetchedAtFrom } from './read-jsonl.js';
import { gunzipMembers, type GzipProblem } from './gunzip-members.js';
import { openRawInput } from './open-input-stream.js';
import { warcFrames, type WarcFrameRecord } from './warc-records.js';

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
  // A date before 1970 (or unparsable) is no fetch time the index takes: the page is kept without one.
  const warcDate = record.warcDate === null || record.warcDate === undefined ? null : fetchedAtFrom(record.warcDate);
  return {
    kind: 'page',
    position,
    size: html.length,
    input: {
      url,
      html,
      lastModified,
      ...(warcDate === null ? {} : { fetchedAt: warcDate }),
    },
  };
}

/**
 * The WARC record in `frame`, parsed by warcio (HTTP headers, de-chunking, content encodings):
 * from its block held whole, or from the head of a skipped block (headers only; its body is not
 * read). Either way warcio reads only bytes that are here, so it cannot wait for more.
 */
async function parseRecord(frame: WarcFrameRecord): Promise<WARCRecord | null> {
  async function* bytes() {
    yield frame.header;
    if (frame.block !== null) {
      yield frame.block;
      yield Buffer.from('\r\n\r\n', 'latin1');
    } else if (frame.head !== null) {
      yield frame.head;
    }
  }
  return new WARCParser(bytes()).parse();
}

/** Records whose block is read: those that may hold a document, up to 4 × the document limit. */
const readTypes = new Set(['response', 'resource']);

/** Entries of one WARC file (plain or gzip, whole-file or per-record), streaming. */
export async function* readWarc(path: string, options: ReaderOptions = {}): AsyncGenerator<BatchEntry> {
  const maxBytes = options.maxDocumentBytes ?? defaultMaxDocumentBytes;
  const gzipProblems: GzipProblem[] = [];
  const raw = await openRawInput(path);
  const bytes = raw.gzip ? gunzipMembers(raw.chunks, { onProblem: (p) => gzipProblems.push(p) }) : raw.chunks;
  const frames = warcFrames(bytes, { keepBlock: (type, length) => readTypes.has(type) && length <= maxBytes * 4 });
  let position = `${path}@0`;
  // The gzip layer reads ahead of the records: its problems wait until the records before them are out.
  const gzipEntries = function* (before = Number.POSITIVE_INFINITY): Generator<BatchEntry> {
    while (gzipProblems.length > 0 && gzipProblems[0]!.outputOffset <= before) {
      yield { kind: 'problem', position: path, message: gzipProblems.shift()!.message };
    }
  };
  try {
    for await (const frame of frames) {
      yield* gzipEntries(frame.kind === 'not-warc' ? 0 : frame.offset);
      if (frame.kind === 'not-warc') {
        yield { kind: 'problem', position, message: `not a WARC file (starts with \`${frame.start}\`): file skipped` };
        return;
      }
      position = `${path}@${frame.offset}`;
      if (frame.kind === 'problem') {
        yield { kind: 'problem', position, message: frame.message };
        continue;
      }
      const type = frame.fields.get('warc-type') ?? '';
      if (!readTypes.has(type)) {
        yield { kind: 'ignored', position, reason: `warc-${type === '' ? 'untyped' : type}` };
        continue;
      }
      const record = await parseRecord(frame);
      if (record === null) {
        yield { kind: 'problem', position, message: 'record cannot be parsed' };
        continue;
      }
      yield await recordEntry(record, position, maxBytes);
    }
    yield* gzipEntries();
  } catch (error) {
    yield* gzipEntries();
    yield { kind: 'problem', position, message: `WARC read failed at or after this record, rest of file skipped: ${(error as Error).message}` };
  } finally {
    await frames.return(undefined);
  }
}
