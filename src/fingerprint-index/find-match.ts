/** The stored document a fingerprint matches, among the candidates of the in-memory table. */
import { popcount32 } from '../fingerprint/fingerprint-codec.js';
import type { CandidateTable } from './candidate-table.js';
import type { IdList } from './id-list.js';
import type { Statement } from './index-statements.js';
import { textKeyOf } from './index-schema.js';

/** A stored document a fingerprint matches. */
export interface Match {
  readonly id: number;
  readonly url: string;
  readonly kind: 'exact' | 'near';
  readonly distance: number;
}

/** The best match found for a fingerprint. */
export interface Found {
  readonly id: number;
  readonly url: string;
  readonly distance: number;
  readonly exact: boolean;
}

/**
 * The stored document that is an exact duplicate (distance 0 and the same text hash), else the
 * nearest within distance k (ties: the lowest id), or null. `candidate` reads a row's
 * [hi, lo, url, text_hash] by id; `list` is scratch space.
 * @internal
 */
export function findMatch(
  table: CandidateTable, candidate: Statement, list: IdList, k: number, hi: number, lo: number, textHash: string,
): Found | null {
  list.clear();
  table.candidates(hi, lo, list);
  let best: Found | null = null;
  for (let i = 0; i < list.count; i++) {
    const id = list.ids[i]!;
    const row = candidate.get(id) as [number, number, string, string] | undefined;
    if (row === undefined) continue;
    const distance = popcount32((row[0] ^ hi) >>> 0) + popcount32((row[1] ^ lo) >>> 0);
    if (distance > k) continue;
    if (distance === 0 && row[3] === textHash) return { id, url: row[2], distance: 0, exact: true };
    if (best === null || distance < best.distance || (distance === best.distance && id < best.id)) {
      best = { id, url: row[2], distance, exact: false };
    }
  }
  return best;
}

/**
 * The stored document with this text hash (the earliest), looked up on the text_key index alone,
 * whatever its fingerprint. `exactByText` reads [id, url, text_hash] of stored rows by text_key;
 * `candidate` reads a row's [hi, lo, ...] for the distance (0 unless only paragraph breaks differ).
 * @internal
 */
export function findExact(exactByText: Statement, candidate: Statement, textHash: string, hi: number, lo: number): Found | null {
  for (const [id, url, hash] of exactByText.all(textKeyOf(textHash)) as [number, string, string][]) {
    if (hash !== textHash) continue;
    const row = candidate.get(id) as [number, number];
    return { id, url, distance: popcount32((row[0] ^ hi) >>> 0) + popcount32((row[1] ^ lo) >>> 0), exact: true };
  }
  return null;
}
