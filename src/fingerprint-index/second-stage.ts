/**
 * The index's verified second stage (issue 11): after the k rule has found nothing, the stored
 * documents sharing `minSharedKeys` of the new document's `candidateKeys` smallest sketch values
 * (SketchKeyTable) are read back with their sketches and confirmed by verifySimilar (distance ≤ K,
 * Jaccard or containment over the thresholds). The best confirmed one (highest Jaccard, then the
 * lowest id) is the match.
 *
 * The cluster, not only its stored document (issue 25): rejected documents keep their sketch and are
 * filed too; one of them confirmed makes the new document a member of the
 * same cluster (the match is the cluster's stored document; distance and similarity are to the
 * member). A variant of a variant is a copy of the base even when it has drifted past the thresholds
 * from the base itself. A member confirms on Jaccard only, never on containment (which does not chain).
 * PostgreSQL does the same (pg-second-stage.ts).
 *
 * Runs inside the index's write transaction like the k rule, so "two documents the second stage
 * would match are never both stored" holds across threads and processes as it does for `near`: the
 * key table is caught up with other writers' rows before the decision (see FingerprintIndex).
 */
import { ValidationError, describeValue } from '../errors.js';
import { popcount32 } from '../fingerprint/fingerprint-codec.js';
import { sketchFromBytes } from '../fingerprint/shingle-sketch.js';
import { NOT_SIMILAR, similarBasis, type SketchSpan } from '../fingerprint/similar-basis.js';
import { verifySimilar, type VerifyThresholds } from '../fingerprint/verify-similar.js';
import { IdList } from './id-list.js';
import type { Statement } from './index-statements.js';
import { PREFIX, SketchKeyTable } from './sketch-key-table.js';
import { SketchRows } from './sketch-rows.js';

/** IndexOptions.verify: the second stage's settings (config `verify`, enabled). */
export interface SecondStageOptions extends VerifyThresholds {
  /** Smallest sketch values each stored document is filed under. */
  readonly candidateKeys: number;
  /** Keys a candidate must share. */
  readonly minSharedKeys: number;
}

/** A stored document the second stage confirmed. */
export interface SimilarMatch {
  readonly id: number;
  readonly url: string;
  readonly distance: number;
  readonly similarity: number;
  readonly containment: number;
  /** The row that confirmed it: the stored document, or a member of its cluster. */
  readonly via: number;
}

/**
 * Whether `a` is the better of two confirmed matches: the highest Jaccard, then the lowest stored id,
 * then the nearest row, then the lowest row id — an order that does not depend on the order in which
 * candidates are listed, so that both backends report the same row.
 */
export function betterMatch(a: SimilarMatch, b: SimilarMatch | null): boolean {
  if (b === null) return true;
  if (a.similarity !== b.similarity) return a.similarity > b.similarity;
  if (a.id !== b.id) return a.id < b.id;
  if (a.distance !== b.distance) return a.distance < b.distance;
  return a.via < b.via;
}

/** Checks IndexOptions.verify (null or absent: the stage is off). */
export function resolveSecondStage(value: unknown): SecondStageOptions | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object') throw new ValidationError(`Expected \`verify\` to be second-stage settings or null, got ${describeValue(value)}`);
  const v = value as Record<string, unknown>;
  const int = (name: string, min: number, max: number) => {
    const x = v[name];
    if (typeof x !== 'number' || !Number.isInteger(x) || x < min || x > max) throw new ValidationError(`Expected \`verify.${name}\` to be an integer ${min}–${max}, got ${describeValue(x)}`);
    return x;
  };
  const share = (name: string, max: number) => {
    const x = v[name];
    if (typeof x !== 'number' || !(x >= 0 && x <= max)) throw new ValidationError(`Expected \`verify.${name}\` to be a number 0–${max}, got ${describeValue(x)}`);
    return x;
  };
  return Object.freeze({
    maxDistance: int('maxDistance', 0, 64), sketchSize: int('sketchSize', 1, 1024), candidateKeys: int('candidateKeys', 1, 32),
    minSharedKeys: int('minSharedKeys', 1, 32), jaccard: share('jaccard', 1), containment: share('containment', 2),
    minContainmentSamples: int('minContainmentSamples', 1, 1024),
  });
}

/** Bytes before a chunk row's values: id, hi, lo, the sketch's length (2 bytes), the values that follow (1). */
const ROW_HEADER = 15;

/** Ids per chunk string when loading (≤ 1,024 × 286 hex digits at 32 values a row: small enough for V8's young generation). */
const CHUNK_IDS = 1024;

/** @internal */
export class SecondStage {
  readonly options: SecondStageOptions;
  readonly #rows: SketchRows;
  readonly #urlOf: Statement;
  readonly #list = new IdList();
  readonly #query: SketchSpan = { values: new Uint32Array(0), start: 0, length: 0 };
  readonly #candidate: SketchSpan = { values: new Uint32Array(0), start: 0, length: 0 };
  #table: SketchKeyTable;

  /** `sketchRows`: IndexStatements.sketchRows (the candidates' rows in one read); `urlOf`: a row's URL by id. */
  constructor(options: SecondStageOptions, sketchRows: Statement, urlOf: Statement) {
    this.options = options;
    this.#rows = new SketchRows(sketchRows);
    this.#urlOf = urlOf;
    this.#table = this.#emptyTable();
  }

  /**
   * Rebuilds the key table from the stored sketches of ids 1..maxId: `chunk` packs them as hex (see
   * IndexStatements.sketchChunk: the keys of each and the first values the bound keeps); `expected`: stored documents (an upper bound
   * of the rows, so the table is allocated once with room to grow by an eighth).
   */
  load(chunk: Statement, maxId: number, expected: number): void {
    // The table's keys, and the first values its bound keeps (sketch-key-table.ts PREFIX).
    const keys = Math.max(this.options.candidateKeys, PREFIX);
    const table = this.#emptyTable();
    table.reserve(Math.ceil(1.125 * expected));
    const scratch = new Uint32Array(keys);
    const views = Array.from({ length: keys + 1 }, (_, n) => scratch.subarray(0, n));
    const bytes = Buffer.alloc(CHUNK_IDS * (ROW_HEADER + 4 * keys));
    for (let after = 0; after < maxId; after += CHUNK_IDS) {
      const hex = chunk.get(keys, keys, after, Math.min(maxId, after + CHUNK_IDS)) as string | null;
      if (hex === null) continue;
      const length = bytes.write(hex, 0, 'hex');
      for (let at = 0; at < length;) {
        const n = bytes[at + 14]!;
        for (let i = 0; i < n; i++) scratch[i] = bytes.readUInt32LE(at + ROW_HEADER + 4 * i);
        table.add(bytes.readUInt32BE(at), views[n]!, bytes.readUInt32BE(at + 4), bytes.readUInt32BE(at + 8), bytes.readUInt16BE(at + 12));
        at += ROW_HEADER + 4 * n;
      }
    }
    this.#table = table;
  }

  /** Files a stored document of fingerprint (hi, lo) by its sketch (stored bytes or the sketch itself). */
  add(id: number, hi: number, lo: number, sketch: Uint32Array | Uint8Array): void {
    this.#table.add(id, sketch instanceof Uint8Array ? sketchFromBytes(sketch) : sketch, hi, lo);
  }

  /** Bytes of the key table. */
  get byteLength(): number {
    return this.#table.byteLength;
  }

  /** The stored document the second stage confirms for (hi, lo, sketch), or null. */
  find(hi: number, lo: number, sketch: Uint32Array): SimilarMatch | null {
    const list = this.#list;
    list.clear();
    // Candidates beyond K are dropped in memory: their sketches are never read.
    this.#table.candidates(sketch, list, this.options.minSharedKeys, hi, lo, this.options.maxDistance);
    if (list.count === 0) return null;
    const rows = this.#rows.read(list);
    const query = this.#query;
    query.values = sketch;
    query.length = sketch.length;
    const candidate = this.#candidate;
    candidate.values = rows.values;
    let best: SimilarMatch | null = null;
    for (let r = 0; r < rows.count; r++) {
      const id = rows.id(r);
      const distance = popcount32((rows.hi(r) ^ hi) >>> 0) + popcount32((rows.lo(r) ^ lo) >>> 0);
      candidate.start = rows.sketchStart(r);
      candidate.length = rows.sketchLength(r);
      // A member of a cluster matched: the match is its stored document (root); the distance and
      // similarity are the member's, the evidence. A member counts on Jaccard only: containment does
      // not chain (a short page contained in a stored one, and in a later one, says nothing of the
      // two): on issue 25's corpus containment through members removed 19 distinct documents.
      const root = rows.root(r);
      if (similarBasis(distance, query, candidate, this.options, root !== id) === NOT_SIMILAR) continue;
      // Confirmed (a few a lookup): the estimates themselves, as verifySimilar reports them.
      const outcome = verifySimilar(distance, sketch, rows.values.slice(candidate.start, candidate.start + candidate.length), this.options);
      const match = { id: root, url: '', distance, similarity: outcome.jaccard, containment: outcome.containment, via: id };
      if (betterMatch(match, best)) best = match;
    }
    return best === null ? null : { ...best, url: this.#rootUrl(best.id, best.via) };
  }

  /** The URL of a cluster's stored document (the member's own when that row is gone, as the join read it). */
  #rootUrl(root: number, via: number): string {
    return (this.#urlOf.get(root) ?? this.#urlOf.get(via)) as string;
  }

  #emptyTable(): SketchKeyTable {
    return new SketchKeyTable({ keys: this.options.candidateKeys, minShared: this.options.minSharedKeys, verify: this.options });
  }
}
