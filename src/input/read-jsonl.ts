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
import { readLineBytes, type StreamLineBytes } from './read-lines.js';
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

/** Lines looked at before a file is taken as JSONL: when none of them is JSON, the file is refused. */
const sniffedLines = 5;

function parsesAsJson(bytes: Buffer): boolean {
  try {
    JSON.parse(bytes.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

function printableStart(bytes: Buffer): string {
  return bytes.subarray(0, 40).toString('utf8').replace(/[\x00-\x1f\x7f-\x9f]/g, ' ');
}

/**
 * Entries of a JSONL (or .jsonl.gz) file, streaming, in line order. With `rawJsonl`, lines come
 * unparsed as `jsonl-line` entries (blank ones left out; over-long ones still problems here).
 * A file none of whose first non-blank lines (up to 5) is JSON — a CSV or a text file named .jsonl —
 * is refused with one problem instead of one a line.
 */
export async function* readJsonl(path: string, options: ReaderOptions = {}): AsyncGenerator<BatchEntry> {
  const maxDocumentBytes = options.maxDocumentBytes ?? defaultMaxDocumentBytes;
  const raw = options.rawJsonl ?? false;
  // JSON escaping can make a document's line several times its byte size; past this, skip unread.
  const maxLineBytes = maxDocumentBytes * 6 + 65_536;
  const stream = await openInputStream(path);
  let lastLine = 0;
  // The first lines, held until it is known whether the file is JSONL at all.
  let held: StreamLineBytes[] | null = [];
  let heldText = 0;
  function* entriesOf(line: StreamLineBytes): Generator<BatchEntry> {
    const position = `${path}:${line.lineNo}`;
    if (line.bytes === null) {
      yield { kind: 'problem', position, message: `line of ${line.length} bytes is longer than the limit (${maxLineBytes}); skipped` };
      return;
    }
    if (raw) {
      if (isAsciiBlank(line.bytes)) return;
      // Not copied: the line may share the stream's chunk, but the lines in flight are consecutive,
      // so the chunks they keep alive hold little more than those lines' own bytes.
      yield { kind: 'jsonl-line', position, file: path, bytes: line.bytes, size: line.bytes.length, maxDocumentBytes };
      return;
    }
    const entry = jsonlLineToEntry(line.bytes.toString('utf8'), path, position, maxDocumentBytes);
    if (entry !== null) yield entry;
  }
  /** Releases the held lines, or refuses the file when none of them is JSON. Returns false when refused. */
  function* release(): Generator<BatchEntry, boolean> {
    const lines = held!;
    held = null;
    const texts = lines.filter((l) => l.bytes !== null && !isAsciiBlank(l.bytes));
    if (texts.length > 0 && texts.length === lines.filter((l) => l.bytes === null || !isAsciiBlank(l.bytes)).length && !texts.some((l) => parsesAsJson(l.bytes!))) {
      yield {
        kind: 'problem', position: path,
        message: `not JSONL: none of its first ${texts.length} line${texts.length === 1 ? ' is' : 's is'} JSON (line ${texts[0]!.lineNo} starts \`${printableStart(texts[0]!.bytes!)}\`): file skipped`,
      };
      return false;
    }
    for (const line of lines) yield* entriesOf(line);
    return true;
  }
  try {
    for await (const line of readLineBytes(stream, maxLineBytes)) {
      lastLine = line.lineNo;
      if (held !== null) {
        held.push(line);
        if (line.bytes !== null && !isAsciiBlank(line.bytes)) heldText += 1;
        if (heldText < sniffedLines) continue;
        if (!(yield* release())) return;
        continue;
      }
      yield* entriesOf(line);
    }
    if (held !== null) yield* release();
  } catch (error) {
    if (held !== null) yield* release();
    yield { kind: 'problem', position: `${path}:${lastLine + 1}`, message: `read failed: ${(error as Error).message}` };
  } finally {
    stream.destroy();
  }
}
