/**
 * The labelled pairs file: one pair a line, tab-separated,
 *   `<a>\t<b>\t<label>[\t<kind>]`
 * where label is 1 (duplicate) or 0 (not), and the optional kind names the pair's category
 * (`mirror`, `light-edit`, ...; figures are also given per kind). A and b are document
 * references (see load-pair-document.ts). Blank lines and lines starting with `#` are skipped;
 * a first line `a\tb\tlabel...` is a header. Pure: text in, pairs out.
 */
import { ValidationError, describeValue } from '../errors.js';

export interface PairSpec {
  readonly a: string;
  readonly b: string;
  readonly duplicate: boolean;
  /** The pair's category, or null when the line has no fourth column. */
  readonly kind: string | null;
  /** 1-based line number in the pairs file. */
  readonly line: number;
}

/** Parses a pairs file; throws ValidationError naming `source:line` on the first bad line. */
export function parsePairs(text: string, source: string): PairSpec[] {
  const pairs: PairSpec[] = [];
  const lines = text.split('\n');
  let sawData = false;
  for (let i = 0; i < lines.length; i += 1) {
    const raw = lines[i]!.endsWith('\r') ? lines[i]!.slice(0, -1) : lines[i]!;
    if (raw.trim() === '' || raw.startsWith('#')) continue;
    const cols = raw.split('\t');
    const where = `${source}:${i + 1}`;
    if (!sawData && cols.length >= 3 && cols[0]!.trim().toLowerCase() === 'a' && cols[2]!.trim().toLowerCase() === 'label') {
      sawData = true;
      continue;
    }
    sawData = true;
    if (cols.length < 3 || cols.length > 4) {
      throw new ValidationError(`Expected \`a<TAB>b<TAB>label[<TAB>kind]\` at ${where}, got ${cols.length} column${cols.length === 1 ? '' : 's'}`);
    }
    const [a, b, label, kind] = cols.map((c) => c.trim()) as [string, string, string, string | undefined];
    if (a === '' || b === '') throw new ValidationError(`Expected two document references at ${where}, got an empty one`);
    if (label !== '0' && label !== '1') throw new ValidationError(`Expected \`label\` to be 0 or 1 at ${where}, got ${describeValue(label)}`);
    pairs.push({ a, b, duplicate: label === '1', kind: kind === undefined || kind === '' ? null : kind, line: i + 1 });
  }
  if (pairs.length === 0) throw new ValidationError(`Expected at least one labelled pair in \`${source}\`, found none`);
  return pairs;
}
