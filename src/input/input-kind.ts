/** Which reader handles a file, by its name. */

/** The kinds of batch input files. */
export type InputKind = 'html' | 'text' | 'jsonl' | 'warc';

const suffixes: ReadonlyArray<readonly [string, InputKind]> = [
  ['.html', 'html'], ['.htm', 'html'], ['.xhtml', 'html'],
  ['.txt', 'text'],
  ['.jsonl', 'jsonl'], ['.ndjson', 'jsonl'],
  ['.warc', 'warc'],
];

/**
 * The kind of a file from its name (case-insensitive; a trailing `.gz` is allowed on every kind),
 * or null for a file no reader takes.
 */
export function inputKindOf(path: string): InputKind | null {
  let name = path.toLowerCase();
  if (name.endsWith('.gz')) name = name.slice(0, -3);
  for (const [suffix, kind] of suffixes) if (name.endsWith(suffix)) return kind;
  return null;
}

/** File names each kind accepts, for messages and help. */
export const inputKindHelp = '.html/.htm/.xhtml, .txt, .jsonl/.ndjson, .warc (each optionally .gz), or folders of them';
