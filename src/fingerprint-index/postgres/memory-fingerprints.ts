/**
 * A process's in-memory view of the stored fingerprints of a shared index: the project's candidate
 * table (block buckets) plus each stored id's fingerprint, so candidates are checked without a query.
 * Rows are added once committed (loaded, caught up, or this process's own commit), never before.
 */
import { popcount32 } from '../../fingerprint/fingerprint-codec.js';
import type { BlockLayout } from '../block-layout.js';
import { buildCandidateTable } from '../build-candidate-table.js';
import type { CandidateTable } from '../candidate-table.js';
import { IdList } from '../id-list.js';
import { PairedBlockTable } from '../paired-block-table.js';
import type { StoredRows } from './load-stored-rows.js';

/** A stored document within distance k of a query. */
export interface NearMatch {
  readonly id: number;
  readonly distance: number;
}

export class MemoryFingerprints {
  readonly #table: CandidateTable;
  readonly k: number;
  #his: Uint32Array;
  #los: Uint32Array;
  readonly #list = new IdList();

  /** Adopts the loaded rows' arrays (no copy) and builds the candidate table from them, in ascending id order. */
  constructor(layout: BlockLayout, rows: StoredRows) {
    this.k = layout.distance;
    this.#his = rows.his;
    this.#los = rows.los;
    const { his, los, present, maxId } = rows;
    const feed = (visit: (id: number, hi: number, lo: number) => void) => {
      for (let id = 1; id <= maxId; id++) if (present[id] === 1) visit(id, his[id]!, los[id]!);
    };
    this.#table = rows.counts === null ? buildCandidateTable(layout, feed, maxId) : PairedBlockTable.build(layout, feed, { counts: rows.counts });
  }

  get size(): number {
    return this.#table.size;
  }

  get byteLength(): number {
    return this.#table.byteLength + this.#his.byteLength + this.#los.byteLength;
  }

  add(id: number, hi: number, lo: number): void {
    if (id >= this.#his.length) {
      const length = Math.max(id + 1, this.#his.length * 2);
      const his = new Uint32Array(length);
      const los = new Uint32Array(length);
      his.set(this.#his);
      los.set(this.#los);
      this.#his = his;
      this.#los = los;
    }
    this.#his[id] = hi;
    this.#los[id] = lo;
    this.#table.add(id, hi, lo);
  }

  /** Every stored document within distance k of (hi, lo). */
  matches(hi: number, lo: number): NearMatch[] {
    const list = this.#list;
    list.clear();
    this.#table.candidates(hi, lo, list);
    const out: NearMatch[] = [];
    for (let i = 0; i < list.count; i++) {
      const id = list.ids[i]!;
      const distance = popcount32((this.#his[id]! ^ hi) >>> 0) + popcount32((this.#los[id]! ^ lo) >>> 0);
      if (distance <= this.k) out.push({ id, distance });
    }
    return out;
  }
}
