/**
 * The advisory lock keys a check-and-insert takes (pg_advisory_xact_lock, held until the transaction
 * ends), and why they make "no two stored documents within distance k" hold with any number of writers.
 *
 * Keys, all below 2^50 (exact as JS numbers), in disjoint ranges:
 *   block  2^48 * 1 + position * 2^32 + value   one per block (k + 1 of them) of the fingerprint
 *   url    2^48 * 2 + (urlKey(url) mod 2^48)     the URL: it is judged once
 *   sketch 2^48 * 3 + value                       one per sketch key (second stage on; pg-second-stage.ts
 *                                                 argues why these cover its candidate search)
 * The text hash needs no key of its own: equal text hashes imply equal fingerprints (both are functions
 * of the normalised token sequence), so two exact copies already share all k + 1 block keys. (A lock per
 * text hash would only add one more lock per document to the server's lock table.)
 * A transaction takes all its keys in one statement, in ascending order, so two transactions never wait
 * for each other in a cycle (a deadlock PostgreSQL still detects is retried, never a wrong answer).
 * Two different values may share a key (hash collision): that only serialises two writers needlessly.
 *
 * The argument. Let X and Y be documents within distance k, judged by transactions T_X and T_Y on any
 * connections, processes or machines. By pigeonhole (block-layout.ts) X and Y agree on some block i, so
 * both take the lock (i, value). Advisory transaction locks are exclusive and held until commit or
 * rollback, so one of them, say T_X, holds it first and T_Y's lock statement returns only after T_X has
 * ended. T_Y reads the rows committed since it last looked in a statement after its lock statement; in
 * READ COMMITTED that statement's snapshot is taken after T_X's commit, so X's row is among them (see
 * pg-catch-up.ts for why none is missed). T_Y's lookup then finds X within distance k and rejects Y.
 * Hence X and Y are never both stored. No lock is global: writers whose documents share no block, text
 * block or URL never wait for each other.
 */
import type { BlockLayout } from '../block-layout.js';
import { blockValue } from '../block-layout.js';
import { urlKey } from '../url-key.js';
import type { IndexCandidate } from '../../types.js';

const RANGE = 2 ** 48;
const BLOCK_BASE = RANGE;
const URL_BASE = 2 * RANGE;
const SKETCH_BASE = 3 * RANGE;

/** The key of block `position` having `value`. */
export function blockLockKey(position: number, value: number): number {
  return BLOCK_BASE + position * 2 ** 32 + value;
}

/** The key of a URL. */
export function urlLockKey(url: string): number {
  return URL_BASE + (urlKey(url) % RANGE);
}

/** The key of a sketch key (a 32-bit sketch value). */
export function sketchLockKey(value: number): number {
  return SKETCH_BASE + (value >>> 0);
}

/**
 * Adds the keys a document's judgement needs to `into`; `sketchKeys` (second stage on) gives the sketch
 * values it is filed and looked up under.
 */
export function addDocumentKeys(doc: IndexCandidate, layout: BlockLayout, into: Set<number>, sketchKeys: ((sketch: Uint32Array) => Uint32Array) | null = null): void {
  into.add(urlLockKey(doc.url));
  const fp = doc.fingerprint;
  if (fp === null) return;
  for (let b = 0; b < layout.count; b++) {
    into.add(blockLockKey(b, blockValue(fp.hi >>> 0, fp.lo >>> 0, layout.starts[b]!, layout.widths[b]!)));
  }
  if (sketchKeys === null || doc.sketch === undefined || doc.sketch === null) return;
  for (const value of sketchKeys(doc.sketch)) into.add(sketchLockKey(value));
}

/** The keys, distinct and ascending (the order every transaction takes them in). */
export function sortedKeys(keys: Set<number>): number[] {
  return [...keys].sort((a, b) => a - b);
}
