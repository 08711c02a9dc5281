/**
 * A flag as the databases keep it (table `flags` in SQLite, `neardup_flags` in PostgreSQL): the
 * page's URL, its document id (null for a page the index did not record as a document: a spun copy
 * rejected by `cascade.synonymised.action: reject`), the flag's kind and its evidence as JSON (the
 * flag object itself).
 */
import type { CascadeFlag, CascadeFlagKind } from '../types.js';

export interface FlagRow {
  readonly url: string;
  readonly docId: number | null;
  readonly kind: CascadeFlagKind;
  /** JSON of the CascadeFlag. */
  readonly evidence: string;
}

/** A flag row's key: a page has at most one flag of a kind. */
export type FlagKey = Pick<FlagRow, 'url' | 'kind'>;

export function flagRowsOf(url: string, docId: number | null, flags: readonly CascadeFlag[]): FlagRow[] {
  return flags.map((flag) => ({ url, docId, kind: flag.kind, evidence: JSON.stringify(flag) }));
}

/**
 * The flag of a row's evidence, its objects' keys in alphabetical order: PostgreSQL's jsonb keeps
 * keys in an order of its own, and a report must not differ by backend.
 */
export function flagOfRow(row: Pick<FlagRow, 'evidence'>): CascadeFlag {
  return keysSorted(JSON.parse(row.evidence)) as CascadeFlag;
}

function keysSorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(keysSorted);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = keysSorted((value as Record<string, unknown>)[key]);
  return out;
}
