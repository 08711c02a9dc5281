/**
 * The line format of corpus.jsonl (corpus-writer.ts): a stored document's line, `{"id",...}` with
 * `id` first, and the tombstone line that withdraws one. Writing a line is one JSON object made in
 * pieces (the text's JSON may come already encoded); reading needs only the id at the start of a
 * line and whether a tombstone's mark follows it, so the file's ids are read without parsing lines.
 */

/** One line of corpus.jsonl. */
export interface CorpusRecord {
  /** The document's id in the database. */
  readonly id: number;
  readonly url: string;
  /** URL after redirects, or null when the same as `url`. */
  readonly finalUrl: string | null;
  readonly title: string;
  /** ISO 639-3 code, or 'und'. */
  readonly language: string;
  /** Main text; paragraphs separated by a blank line. */
  readonly text: string;
  /**
   * The main text already as the UTF-8 bytes of a JSON string (quotes included); written instead
   * of `text` when given (batch dedup's worker threads encode texts so).
   */
  readonly textJson?: Uint8Array;
  /** The 64-bit simhash, 16 hex digits. */
  readonly fingerprint: string;
  /** When the page was fetched (ISO 8601), or null when unknown. */
  readonly fetchedAt: string | null;
  /**
   * Kinds of the cascade's flags on the page (`homoglyph`, `generated`, `synonymised`, `compiled`;
   * evidence in the database's flags table); written after `text`, on every line while the cascade is on.
   */
  readonly flags?: readonly string[];
  /**
   * The input's own fields (JSONL fields neardup does not read, `judge()`'s extra fields), written
   * last, unchanged; one whose name the line uses already (`id`, `title`, ...) goes under `input`.
   */
  readonly fields?: Readonly<Record<string, unknown>>;
}

/** The byte that ends every line. */
export const NEWLINE = 0x0a;
/** Every line starts with these bytes, then the id's digits. */
export const ID_PREFIX = Buffer.from('{"id":', 'utf8');

/** What follows the id of a tombstone line (corpus-writer.ts, invariant 6). */
const tombstoneMark = Buffer.from(',"supersededBy":', 'utf8');

/** Names a corpus line uses itself: an input field so named is kept under `input` instead. */
const ownNames = new Set(['id', 'url', 'finalUrl', 'title', 'language', 'text', 'flags', 'fingerprint', 'fetchedAt', 'input']);

/** `,"name":value` for each carried field, the clashing ones as one `"input"` object. */
function fieldsJson(fields: Readonly<Record<string, unknown>> | undefined): string {
  if (fields === undefined) return '';
  let out = '';
  let clashing: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(fields)) {
    if (ownNames.has(key)) (clashing ??= {})[key] = value;
    else out += `,${JSON.stringify(key)}:${JSON.stringify(value)}`;
  }
  return clashing === undefined ? out : `${out},"input":${JSON.stringify(clashing)}`;
}

/**
 * A record's line, `\n` last, as the pieces to write: the fields before the text, the text's JSON
 * (its given bytes, written where they are, or `text` encoded here) and the fields after it — the
 * bytes `JSON.stringify` gives for the whole record. `id` first: `open` reads it from the start of
 * the line without parsing the rest.
 */
export function linePieces(record: CorpusRecord): Uint8Array[] {
  const head = { id: record.id, url: record.url, finalUrl: record.finalUrl, title: record.title, language: record.language };
  const text = record.textJson ?? Buffer.from(JSON.stringify(record.text), 'utf8');
  const flags = record.flags === undefined ? '' : `,"flags":${JSON.stringify(record.flags)}`;
  const tail = `${flags},"fingerprint":${JSON.stringify(record.fingerprint)},"fetchedAt":${JSON.stringify(record.fetchedAt)}${fieldsJson(record.fields)}}\n`;
  return [Buffer.from(`${JSON.stringify(head).slice(0, -1)},"text":`, 'utf8'), text, Buffer.from(tail, 'utf8')];
}

/** The tombstone line withdrawing document `id` for `by`. */
export function tombstoneLine(id: number, by: number): string {
  return `{"id":${id},"supersededBy":${by}}\n`;
}

/** Whether the line held in `buffer` from `start` is a tombstone (its id's digits end at `afterId`). */
export function isTombstone(buffer: Buffer, afterId: number, end: number): boolean {
  if (end - afterId < tombstoneMark.length) return false;
  for (let i = 0; i < tombstoneMark.length; i++) if (buffer[afterId + i] !== tombstoneMark[i]) return false;
  return true;
}

/** Reads the id at the start of a line held in `buffer` from `start`; -1 if it is not there. */
export function idAt(buffer: Buffer, start: number, end: number): number {
  if (end - start < ID_PREFIX.length + 1) return -1;
  for (let i = 0; i < ID_PREFIX.length; i++) if (buffer[start + i] !== ID_PREFIX[i]) return -1;
  let id = 0;
  let digits = 0;
  for (let i = start + ID_PREFIX.length; i < end; i++) {
    const c = buffer[i]!;
    if (c < 0x30 || c > 0x39) break;
    id = id * 10 + (c - 0x30);
    digits++;
  }
  return digits === 0 || digits > 15 ? -1 : id;
}

/** The live records of a corpus file's text (superseded lines and tombstones left out), parsed. */
export function parseLiveRecords(text: string): CorpusRecord[] {
  const records: CorpusRecord[] = [];
  const withdrawn = new Set<number>();
  const parsed: CorpusRecord[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const value = JSON.parse(line) as CorpusRecord & { supersededBy?: number };
    if (value.supersededBy !== undefined) withdrawn.add(value.id);
    else parsed.push(value);
  }
  for (const record of parsed) if (!withdrawn.has(record.id)) records.push(record);
  return records;
}
