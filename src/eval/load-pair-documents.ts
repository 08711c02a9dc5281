/**
 * Loads the documents a pairs file refers to. A reference is either
 * - a file: `.html`/`.htm`/`.xhtml` (extracted) or `.txt` (taken as text), optionally `.gz`; or
 * - `<file.jsonl>#<key>`: the record of a JSONL file (optionally .gz) whose `id` equals key
 *   (numbers compared as written), or else whose `url` equals key.
 * Relative paths are relative to the pairs file's folder. Each file is read once, each JSONL
 * file in one streaming pass keeping only the records asked for.
 */
import { isAbsolute, resolve } from 'node:path';
import { InputError } from '../errors.js';
import type { PageInput } from '../types.js';
import { inputKindOf } from '../input/input-kind.js';
import { readDocumentFile } from '../input/read-document-file.js';
import { jsonlRecordToEntry } from '../input/read-jsonl.js';
import { openInputStream } from '../input/open-input-stream.js';
import { readLines } from '../input/read-lines.js';

/** A parsed reference. */
export type DocumentRef =
  | { readonly kind: 'file'; readonly path: string; readonly as: 'html' | 'text' }
  | { readonly kind: 'jsonl'; readonly path: string; readonly key: string };

/** Parses a reference relative to `baseDir`; throws InputError for a file no reader takes. */
export function parseDocumentRef(ref: string, baseDir: string): DocumentRef {
  const hash = ref.lastIndexOf('#');
  if (hash > 0 && inputKindOf(ref.slice(0, hash)) === 'jsonl') {
    const file = ref.slice(0, hash);
    return { kind: 'jsonl', path: isAbsolute(file) ? file : resolve(baseDir, file), key: ref.slice(hash + 1) };
  }
  const path = isAbsolute(ref) ? ref : resolve(baseDir, ref);
  const kind = inputKindOf(ref);
  if (kind === 'html' || kind === 'text') return { kind: 'file', path, as: kind };
  if (kind === 'jsonl') throw new InputError(`Expected \`${ref}\` to name a record as \`<file.jsonl>#<id>\``);
  throw new InputError(`Unsupported document \`${ref}\`: expected .html/.htm/.txt (optionally .gz) or <file.jsonl>#<id>`);
}

async function loadJsonlRecords(path: string, keys: ReadonlySet<string>, maxBytes: number, into: Map<string, PageInput>, refOf: (key: string) => string): Promise<void> {
  const found = new Set<string>();
  let stream;
  try {
    stream = await openInputStream(path);
  } catch (error) {
    throw new InputError(`Cannot read \`${path}\`: ${(error as Error).message}`, { cause: error });
  }
  try {
    for await (const line of readLines(stream, maxBytes * 6 + 65_536)) {
      if (line.text === null || line.text.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(line.text);
      } catch {
        continue; // a malformed line cannot be the one asked for; dedup reports such lines
      }
      if (typeof value !== 'object' || value === null) continue;
      const record = value as Record<string, unknown>;
      const id = typeof record.id === 'string' || typeof record.id === 'number' ? String(record.id) : null;
      const key = id !== null && keys.has(id) ? id : typeof record.url === 'string' && keys.has(record.url) ? record.url : null;
      if (key === null || found.has(key)) continue;
      const entry = jsonlRecordToEntry(value, path, `${path}:${line.lineNo}`, maxBytes);
      if (entry.kind !== 'page') {
        throw new InputError(`Cannot use \`${refOf(key)}\` (${path}:${line.lineNo}): ${entry.kind === 'problem' ? entry.message : 'too large'}`);
      }
      found.add(key);
      into.set(refOf(key), entry.input);
      if (found.size === keys.size) break;
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`Cannot read \`${path}\`: ${(error as Error).message}`, { cause: error });
  } finally {
    stream.destroy();
  }
  for (const key of keys) {
    if (!found.has(key)) throw new InputError(`No record with id or url \`${key}\` in \`${path}\` (for \`${refOf(key)}\`)`);
  }
}

/** The PageInput of every reference, keyed by the reference as written. */
export async function loadPairDocuments(refs: Iterable<string>, baseDir: string, maxBytes: number): Promise<Map<string, PageInput>> {
  const out = new Map<string, PageInput>();
  const jsonl = new Map<string, Map<string, string>>(); // path → key → ref
  for (const ref of new Set(refs)) {
    const parsed = parseDocumentRef(ref, baseDir);
    if (parsed.kind === 'jsonl') {
      let keys = jsonl.get(parsed.path);
      if (keys === undefined) jsonl.set(parsed.path, (keys = new Map()));
      keys.set(parsed.key, ref);
      continue;
    }
    const entry = await readDocumentFile(parsed.path, parsed.as, { maxDocumentBytes: maxBytes });
    if (entry.kind === 'page') out.set(ref, { ...entry.input, url: ref });
    else if (entry.kind === 'skip') throw new InputError(`Cannot use \`${ref}\`: ${entry.detail}`);
    else if (entry.kind === 'problem') throw new InputError(`Cannot read \`${ref}\`: ${entry.message.replace(/^read failed: /, '')}`);
  }
  for (const [path, keys] of jsonl) {
    await loadJsonlRecords(path, new Set(keys.keys()), maxBytes, out, (key) => keys.get(key)!);
  }
  return out;
}
