/**
 * Reads synonym classes from text: one class a line. A line with a comma or a tab separates its
 * entries by those (so an entry may be a phrase); otherwise by white space. `#` starts a comment
 * line; blank lines are skipped. Entries are kept as written (normalising and stemming is the
 * dictionary's job).
 */
import { ValidationError } from '../errors.js';

/** One class as read: its entries, and the 1-based line it came from (for messages). */
export interface SynonymClassLine {
  readonly line: number;
  readonly words: readonly string[];
}

export function parseSynonymClasses(text: string, source = 'synonym file'): SynonymClassLine[] {
  if (typeof text !== 'string') throw new ValidationError(`Expected ${source} to be text, got ${typeof text}`);
  const out: SynonymClassLine[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '' || line.startsWith('#')) continue;
    const separator = /[,\t]/.test(line) ? /\s*[,\t]\s*/ : /\s+/;
    const words = [...new Set(line.split(separator).map((w) => w.trim()).filter((w) => w !== ''))];
    if (words.length < 2) {
      throw new ValidationError(`Expected a synonym class of at least two words at ${source} line ${i + 1}, got ${JSON.stringify(line)}`);
    }
    out.push({ line: i + 1, words });
  }
  return out;
}
