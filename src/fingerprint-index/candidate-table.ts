/**
 * The in-memory side of the index: given a fingerprint, which stored documents may lie within
 * distance k of it. SQLite stays the source of truth; a table is built from it on first use and kept
 * in step with it (see FingerprintIndex). A table may answer with a few extra ids (the caller checks
 * every candidate against the stored fingerprint) but never leaves out one within distance k.
 * Only types here: the tables import them, and build-candidate-table.ts picks a table.
 */
import type { IdList } from './id-list.js';

/** Calls `visit` once for every stored document, in ascending id order. */
export type StoredRowFeed = (visit: (id: number, hi: number, lo: number) => void) => void;

/** A set of stored fingerprints that can list the candidates near a query. */
export interface CandidateTable {
  /** Number of stored fingerprints held. */
  readonly size: number;
  /** Bytes held in typed arrays. */
  readonly byteLength: number;
  /** Adds a stored fingerprint. Ids are positive integers below 2^32, each added once. */
  add(id: number, hi: number, lo: number): void;
  /** Appends to `out` every stored id that may be within the layout's distance of (hi, lo). */
  candidates(hi: number, lo: number, out: IdList): void;
}
