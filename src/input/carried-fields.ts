/**
 * The fields of an input record that neardup does not read, carried into its corpus line
 * unchanged (corpus builders keep their metadata: `lang`, `source`, ...). Used by the JSONL reader's
 * rules (read-jsonl.ts keeps them as `extra`) and by the plug-in's `judge({ url, text, ... })`.
 */
import { ValidationError, describeValue } from '../errors.js';

/**
 * The own fields of `record` not named in `read`, as JSON values (copied: a later change to the
 * caller's object does not reach the corpus), or undefined when there are none. A value JSON cannot
 * hold (a function, a BigInt, a cycle) is refused with a ValidationError naming the field.
 */
export function carriedFields(record: object, read: ReadonlySet<string>): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(record)) {
    if (read.has(key) || value === undefined) continue;
    let json: string | undefined;
    try {
      json = JSON.stringify(value);
    } catch {
      json = undefined;
    }
    if (json === undefined) throw new ValidationError(`Expected field \`${key}\` to be a JSON value (it is kept in the corpus line), got ${describeValue(value)}`);
    (out ??= {})[key] = JSON.parse(json) as unknown;
  }
  return out;
}

/** The fields of a `{ url, html }` / `{ url, text }` page that judge() reads; the rest are carried. */
const pageLikeFields = new Set(['url', 'finalUrl', 'html', 'text', 'title', 'lastModified', 'depth']);

/**
 * PageInput's `extra` for a page given to judge(): its carried fields, and the `title` of text
 * input (analysis reads a text's title from there), or nothing.
 */
export function pageLikeExtra(page: { readonly html?: unknown; readonly title?: unknown }): { extra?: Record<string, unknown> } {
  const fields = carriedFields(page, pageLikeFields);
  const title = typeof page.html === 'string' ? undefined : page.title;
  if (fields === undefined && title === undefined) return {};
  return { extra: { ...fields, ...(title === undefined ? {} : { title }) } };
}
