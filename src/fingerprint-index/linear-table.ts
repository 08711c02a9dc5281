/**
 * A linear scan over every stored fingerprint, for distances whose blocks are too narrow to prune
 * (k ≥ 8 cuts 64 bits into blocks of 7 bits or fewer, whose buckets hold ≥ 1/128 of all documents
 * each). Also the brute-force baseline the benchmark compares the block table with.
 */
import { popcount32 } from '../fingerprint/fingerprint-codec.js';
import type { BlockLayout } from './block-layout.js';
import type { CandidateTable, StoredRowFeed } from './candidate-table.js';
import type { IdList } from './id-list.js';

export class LinearTable implements CandidateTable {
  readonly #distance: number;
  #ids: Uint32Array;
  /** Interleaved halves: [2i] = hi, [2i + 1] = lo of the i-th stored fingerprint. */
  #fps: Uint32Array;
  #size = 0;

  constructor(distance: number, initialCapacity = 1024) {
    this.#distance = distance;
    this.#ids = new Uint32Array(initialCapacity);
    this.#fps = new Uint32Array(initialCapacity * 2);
  }

  static build(layout: BlockLayout, feed: StoredRowFeed): LinearTable {
    const table = new LinearTable(layout.distance);
    feed((id, hi, lo) => table.add(id, hi, lo));
    return table;
  }

  get size(): number {
    return this.#size;
  }

  get byteLength(): number {
    return this.#ids.byteLength + this.#fps.byteLength;
  }

  add(id: number, hi: number, lo: number): void {
    const n = this.#size;
    if (n === this.#ids.length) {
      const cap = Math.ceil(n * 1.5) + 1024;
      const ids = new Uint32Array(cap);
      ids.set(this.#ids);
      const fps = new Uint32Array(cap * 2);
      fps.set(this.#fps);
      this.#ids = ids;
      this.#fps = fps;
    }
    this.#ids[n] = id;
    this.#fps[2 * n] = hi;
    this.#fps[2 * n + 1] = lo;
    this.#size = n + 1;
  }

  candidates(hi: number, lo: number, out: IdList): void {
    const fps = this.#fps;
    const ids = this.#ids;
    const k = this.#distance;
    const n = this.#size;
    for (let i = 0; i < n; i++) {
      const dHi = popcount32((fps[2 * i]! ^ hi) >>> 0);
      if (dHi > k) continue;
      if (dHi + popcount32((fps[2 * i + 1]! ^ lo) >>> 0) <= k) out.push(ids[i]!);
    }
  }
}
