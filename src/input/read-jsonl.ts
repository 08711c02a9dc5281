/**
 * JSONL input: one JSON object a line, `{"url": ..., "text": ...}` or `{"url": ..., "html": ...}`.
 * - `text` wins when both are given (it is what the user already extracted);
 * - `url` may be replaced by `id` (the document's URL is then `<file>#<id>`);
 * - `finalUrl`, `lastModified` (strings) and `fetchedAt` (ms since epoch, or an ISO 8601 date) are
 *   read as such; a value of another type or out of range makes the line a problem;
 * - every other field is kept as `extra` metadata.
 * Blank lines are ignored. A malformed line (bad JSON, not an object, no url/id, no text/html)
 * becomes a problem entry at `file:line`, never an exception. `.jsonl.gz` is gunzipped.
 */
import { defaultMaxDocumentBytes, type BatchEntry, type PageEntry, type ProblemEntry, type ReaderOptions, type SkipEntry } from './batch-entry.js';
import { openInputStream } from './open-input-stream.js';
import { readLineBytes } from './read-lines.js';
import type { PageInput } from '../types.js';

/** Fields read into PageInput; the rest goes to `extra`. */
const knownFields = new Set(['url', 'id', 'text', 'html', 'finalUrl', 'lastModified', 'fetchedAt']);

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

/** The latest time a JavaScript Date can hold, in ms since 1970 (±8.64e15). */
const maxTimeMs = 8.64e15;

/**
 * A fetch time in ms since 1970 from a JSON value: an integer 0–8.64e15, or a date string
 * (ISO 8601) in that range. Null for a value that is neither: the caller makes the line a problem.
 */
export function fetchedAtFrom(value: unknown): number | null {
  const ms = typeof value === 'string' && value.trim() !== '' ? Date.parse(value) : value;
  return typeof ms === 'number' && Number.isSafeInteger(ms) && ms >= 0 && ms <= maxTimeMs ? ms : null;
}

/** Turns one parsed JSONL value into an entry (pure). `file` is the name used in URLs and positions. */
export function jsonlRecordToEntry(value: unknown, file: string, position: string, maxDocumentBytes: number): PageEntry | SkipEntry | ProblemEntry {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { kind: 'problem', position, message: `expected a JSON object, got ${typeName(value)}` };
  }
  const record = value as Record<string, unknown>;
  let url: string;
  const urlFromId = !(typeof record.url === 'string' && record.url !== '');
  if (!urlFromId) url = record.url as string;
  else if (typeof record.id === 'string' || typeof record.id === 'number') url = `${file}#${record.id}`;
  else return { kind: 'problem', position, message: 'expected a string `url` (or an `id`)' };

  const text = typeof record.text === 'string' ? record.text : undefined;
  const html = text === undefined && typeof record.html === 'string' ? record.html : undefined;
  if (text === undefined && html === undefined) {
    return { kind: 'problem', position, message: `expected a string \`text\` or \`html\` for \`${url}\`` };
  }
  // A field neardup reads with a value it cannot take makes the line a problem: never a fatal error
  // later (the index refuses a negative or fractional time, a Date one past ±8.64e15).
  for (const key of ['finalUrl', 'lastModified'] as const) {
    const v = record[key];
    if (v !== undefined && v !== null && typeof v !== 'string') {
      return { kind: 'problem', position, message: `expected \`${key}\` to be a string or null, got ${typeName(v)} for \`${url}\`` };
    }
  }
  let fetchedAt: number | undefined;
  if (record.fetchedAt !== undefined && record.fetchedAt !== null) {
    const ms = fetchedAtFrom(record.fetchedAt);
    if (ms === null) {
      const got = typeof record.fetchedAt === 'string' || typeof record.fetchedAt === 'number' ? JSON.stringify(record.fetchedAt) : typeName(record.fetchedAt);
      return {
        kind: 'problem', position,
        message: `expected \`fetchedAt\` to be ms since 1970 (an integer 0–8640000000000000) or an ISO 8601 date, got ${got.slice(0, 60)} for \`${url}\``,
      };
    }
    fetchedAt = ms;
  }
  const size = (text ?? html)!.length;
  if (size > maxDocumentBytes) {
    return { kind: 'skip', position, url, reason: 'too-large', detail: `${size} characters (limit ${maxDocumentBytes})` };
  }

  let extra: Record<string, unknown> | undefined;
  for (const key of Object.keys(record)) {
    // `id` stays as metadata unless it made the URL; an `html` beside `text` is dropped, not kept.
    if (key === 'id' ? urlFromId : knownFields.has(key)) continue;
    (extra ??= {})[key] = record[key];
  }
  const input: PageInput = {
    url,
    ...(text === undefined ? { html: html! } : { text }),
    ...(typeof record.finalUrl === 'string' ? { finalUrl: record.finalUrl } : {}),
    ...(typeof record.lastModified === 'string' ? { lastModified: record.lastModified } : {}),
    ...(fetchedAt === undefined ? {} : { fetchedAt }),
    ...(extra === undefined ? {} : { extra }),
  };
  return { kind: 'page', position, input, size };
}

/**
 * One line's text to its entry (pure): null for a blank line, a problem for bad JSON, else as
 * {@link jsonlRecordToEntry}.
 */
export function jsonlLineToEntry(text: string, file: string, position: string, maxDocumentBytes: number): PageEntry | SkipEntry | ProblemEntry | null {
  if (text.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { kind: 'problem', position, message: `invalid JSON: ${(error as Error).message}` };
  }
  return jsonlRecordToEntry(value, file, position, maxDocumentBytes);
}

/** True when every byte is ASCII white space (a blank line, not sent on in raw mode). */
function isAsciiBlank(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b !== 0x20 && b !== 0x09 && b !== 0x0d && b !== 0x0b && b !== 0x0c) return false;
  }
  return true;
}

/**
 * Entries of a JSONL (or .jsonl.gz) file, streaming, in line order. With `rawJsonl`, lines come
 * unparsed as `jsonl-line` entries (blank ones left out; over-long ones still problems here).
 */
export async function* readJsonl(path: string, options: ReaderOptions = {}): AsyncGenerator<BatchEntry> {
  const maxDocumentBytes = options.maxDocumentBytes ?? defaultMaxDocumentBytes;
  const raw = options.rawJsonl ?? false;
  // JSON escaping can make a document's line several times its byte size; past this, skip unread.
  const maxLineBytes = maxDocumentBytes * 6 + 65_536;
  const stream = await openInputStream(path);
  let lastLine = 0;
  try {
    for await (const line of readLineBytes(stream, maxLineBytes)) {
      lastLine = line.lineNo;
      const position = `${path}:${line.lineNo}`;
      if (line.bytes === null) {
        yield { kind: 'problem', position, message: `line of ${line.length} bytes is longer than the limit (${maxLineBytes}); skipped` };
        continue;
      }
      if (raw) {
        if (isAsciiBlank(line.bytes)) continue;
        // Not copied: the line may share the stream's chunk, but the lines in flight are consecutive,
        // so the chunks they keep alive hold little more than those lines' own bytes.
        yield { kind: 'jsonl-line', position, file: path, bytes: line.bytes, size: line.bytes.length, maxDocumentBytes };
        continue;
      }
      const entry = jsonlLineToEntry(line.bytes.toString('utf8'), path, position, maxDocumentBytes);
      if (entry !== null) yield entry;
    }
  } catch (error) {
    yield { kind: 'problem', position: `${path}:${lastLine + 1}`, message: `read failed: ${(error as Error).message}` };
  } finally {
    stream.destroy();
  }
}
