/**
 * A flag as the databases keep it (table `flags` in SQLite, `neardup_flags` in PostgreSQL): the
 * page's URL, its document id (null for a page the index did not record as a document: a spun copy
 * rejected by `cascade.synonymised.action: reject`), the flag's kind and its evidence as JSON.
 *
 * The evidence is the flag object written compactly (issue 25: bytes per stored document): without
 * its `kind` (the row's column), a `compiled` source without its URL (its document id names it; the
 * reader passes the URLs of the index's documents) and without an empty paragraph list, a
 * `generated` flag's features as an array in GENERATED_FEATURE_NAMES order. flagOfRow gives back the
 * flag itself, and reads the full form that earlier releases stored as well.
 */
import type { CascadeFlag, CascadeFlagKind, CompiledSource } from '../types.js';
import { GENERATED_FEATURE_NAMES } from './generated-features.js';

export interface FlagRow {
  readonly url: string;
  readonly docId: number | null;
  readonly kind: CascadeFlagKind;
  /** JSON of the CascadeFlag, written compactly (storedEvidence). */
  readonly evidence: string;
}

/** A flag row's key: a page has at most one flag of a kind. */
export type FlagKey = Pick<FlagRow, 'url' | 'kind'>;

export function flagRowsOf(url: string, docId: number | null, flags: readonly CascadeFlag[]): FlagRow[] {
  return flags.map((flag) => ({ url, docId, kind: flag.kind, evidence: storedEvidence(flag) }));
}

/** The compact JSON of a flag (see the file's comment). */
export function storedEvidence(flag: CascadeFlag): string {
  const { kind: _kind, ...rest } = flag;
  if (flag.kind === 'generated') return JSON.stringify({ ...rest, features: GENERATED_FEATURE_NAMES.map((name) => flag.features[name] ?? null) });
  if (flag.kind === 'compiled') {
    return JSON.stringify({ ...rest, sources: flag.sources.map(({ url: _url, paragraphs, ...source }) => (paragraphs.length === 0 ? source : { ...source, paragraphs })) });
  }
  return JSON.stringify(rest);
}

/**
 * The flag of a row's evidence, its objects' keys in alphabetical order: PostgreSQL's jsonb keeps
 * keys in an order of its own, and a report must not differ by backend.
 */
export function flagOfRow(row: Pick<FlagRow, 'kind' | 'evidence'>, urlOf: DocumentUrls = NO_URLS): CascadeFlag {
  const stored = JSON.parse(row.evidence) as Record<string, unknown>;
  const flag: Record<string, unknown> = { ...stored, kind: row.kind };
  if (row.kind === 'generated' && Array.isArray(stored['features'])) flag['features'] = featuresByName(stored['features'] as (number | null)[]);
  if (row.kind === 'compiled' && Array.isArray(stored['sources'])) {
    flag['sources'] = (stored['sources'] as Partial<CompiledSource>[]).map((source) => ({
      ...source,
      url: source.url ?? urlOf(source.id!) ?? '',
      paragraphs: source.paragraphs ?? [],
    }));
  }
  return keysSorted(flag) as CascadeFlag;
}

/** The URL of a document of the index by id (undefined when it has none). */
export type DocumentUrls = (id: number) => string | undefined;
const NO_URLS: DocumentUrls = () => undefined;

/** A generated flag's features from their array (storedEvidence); a name absent when written is left out. */
function featuresByName(values: readonly (number | null)[]): Record<string, number> {
  const features: Record<string, number> = {};
  GENERATED_FEATURE_NAMES.forEach((name, i) => {
    const value = values[i];
    if (typeof value === 'number') features[name] = value;
  });
  return features;
}

function keysSorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(keysSorted);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = keysSorted((value as Record<string, unknown>)[key]);
  return out;
}
