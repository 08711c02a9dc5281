/**
 * All batch inputs as one ordered stream of entries. Inputs are read in the order given; a folder
 * is walked recursively with names sorted by code unit (locale-independent), so the same inputs
 * always give the same order. Inside folders every file a reader takes is read (HTML, text,
 * JSONL, WARC, each optionally .gz); other files are ignored. Symbolic links to files are
 * followed, links to folders are not (no cycles).
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError } from '../errors.js';
import type { BatchEntry, ReaderOptions } from './batch-entry.js';
import { inputKindHelp, inputKindOf, type InputKind } from './input-kind.js';
import { readDocumentFile } from './read-document-file.js';
import { readJsonl } from './read-jsonl.js';
import { readWarc } from './read-warc.js';

/** An input path checked to exist, with what it is. */
export interface ResolvedInput {
  readonly path: string;
  readonly kind: InputKind | 'folder';
}

/**
 * Checks every input before anything is read: each must exist and be a folder or a file a
 * reader takes. Throws InputError (one line) on the first that is not.
 */
export async function resolveInputs(paths: readonly string[]): Promise<ResolvedInput[]> {
  if (paths.length === 0) throw new InputError(`No input given: expected ${inputKindHelp}`);
  const out: ResolvedInput[] = [];
  for (const path of paths) {
    let info;
    try {
      info = await stat(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? 'no such file or folder' : (error as Error).message;
      throw new InputError(`Cannot read input \`${path}\`: ${why}`, { cause: error });
    }
    if (info.isDirectory()) {
      out.push({ path, kind: 'folder' });
      continue;
    }
    const kind = inputKindOf(path);
    if (kind === null) throw new InputError(`Unsupported input \`${path}\`: expected ${inputKindHelp}`);
    out.push({ path, kind });
  }
  return out;
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A file found in a folder, or a sub-folder that could not be listed. */
export type FolderItem = { readonly path: string; readonly kind: InputKind } | { readonly path: string; readonly error: string };

/** Files under a folder that some reader takes, depth first, sorted by name at each level. */
export async function* walkFolder(dir: string): AsyncGenerator<FolderItem> {
  let names;
  try {
    names = (await readdir(dir, { withFileTypes: true })).sort((a, b) => byCodeUnit(a.name, b.name));
  } catch (error) {
    yield { path: dir, error: `cannot list folder: ${(error as Error).message}` };
    return;
  }
  for (const dirent of names) {
    const path = join(dir, dirent.name);
    if (dirent.isDirectory()) {
      yield* walkFolder(path);
      continue;
    }
    if (dirent.isSymbolicLink()) {
      const target = await stat(path).catch(() => null);
      if (target === null || !target.isFile()) continue;
    } else if (!dirent.isFile()) {
      continue;
    }
    const kind = inputKindOf(dirent.name);
    if (kind !== null) yield { path, kind };
  }
}

/** The entries of one file of a known kind. */
export async function* readInputFile(path: string, kind: InputKind, options: ReaderOptions = {}): AsyncGenerator<BatchEntry> {
  if (kind === 'jsonl') yield* readJsonl(path, options);
  else if (kind === 'warc') yield* readWarc(path, options);
  else yield await readDocumentFile(path, kind, options);
}

/** Entries of every input, in order. Call resolveInputs first to fail early on a bad path. */
export async function* readInputs(inputs: readonly ResolvedInput[], options: ReaderOptions = {}): AsyncGenerator<BatchEntry> {
  for (const input of inputs) {
    if (input.kind !== 'folder') {
      yield* readInputFile(input.path, input.kind, options);
      continue;
    }
    for await (const item of walkFolder(input.path)) {
      if ('error' in item) yield { kind: 'problem', position: item.path, message: item.error };
      else yield* readInputFile(item.path, item.kind, options);
    }
  }
}
