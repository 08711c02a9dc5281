/**
 * Stored cascade records in memory as bytes, not as decoded objects: each page's stored record and
 * its URL's UTF-8 side by side in large chunks, found by id. A process reading an index behind a
 * server keeps every stored page's record (buffered-cascade-persistence.ts): about the record's own
 * bytes and 16 more a page, where a decoded record with its typed-array views and a URL string took
 * several times that. get() decodes the record (into fresh arrays: version-4 records are gap-coded,
cascade-record-codec.ts) and the URL.
 */
import { decodeCascadeHashes, decodeCascadeRecord } from './cascade-record-codec.js';
import type { CascadeRecord } from './cascade-record.js';
import type { StoredCascadePage } from './cascade-store.js';

/** Bytes of a chunk (a record larger than this gets a chunk of its own). */
const CHUNK_BYTES = 16 << 20;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class RecordArena {
  readonly #chunks: Uint8Array[] = [];
  #used = 0;
  /** By id: chunk index, offset in it, record bytes, URL bytes (−1 chunk: none). */
  #chunkOf = new Int32Array(1024).fill(-1);
  #offsetOf: Uint32Array = new Uint32Array(1024);
  #recordBytes: Uint32Array = new Uint32Array(1024);
  #urlBytes: Uint32Array = new Uint32Array(1024);

  /** Bytes held in chunks (for figures). */
  get bytes(): number {
    return this.#chunks.reduce((sum, c) => sum + c.length, 0);
  }

  /** Keeps page `id`'s stored record bytes (a multiple of 4 long) and URL, replacing any earlier. */
  put(id: number, url: string, record: Uint8Array): void {
    this.#reserve(id);
    const urlUtf8 = encoder.encode(url);
    // Records start 4-byte aligned: they are decoded as 32-bit words in place.
    const length = record.length + urlUtf8.length;
    const chunk = this.#room(length + 3);
    const at = (this.#used + 3) & ~3;
    chunk.set(record, at);
    chunk.set(urlUtf8, at + record.length);
    this.#used = at + length;
    this.#chunkOf[id] = this.#chunks.length - 1;
    this.#offsetOf[id] = at;
    this.#recordBytes[id] = record.length;
    this.#urlBytes[id] = urlUtf8.length;
  }

  get(id: number): StoredCascadePage | undefined {
    if (id >= this.#chunkOf.length || this.#chunkOf[id]! < 0) return undefined;
    const chunk = this.#chunks[this.#chunkOf[id]!]!;
    const at = this.#offsetOf[id]!;
    const recordEnd = at + this.#recordBytes[id]!;
    return {
      id,
      url: decoder.decode(chunk.subarray(recordEnd, recordEnd + this.#urlBytes[id]!)),
      record: decodeCascadeRecord(chunk.subarray(at, recordEnd)),
    };
  }

  /** Only the hashes a store indexes of page `id`'s record (no URL, no whole record decoded), or undefined. */
  hashesOf(id: number): Pick<CascadeRecord, 'tagSketch' | 'shingles'> | undefined {
    if (id >= this.#chunkOf.length || this.#chunkOf[id]! < 0) return undefined;
    const at = this.#offsetOf[id]!;
    return decodeCascadeHashes(this.#chunks[this.#chunkOf[id]!]!.subarray(at, at + this.#recordBytes[id]!));
  }

  /** Forgets page `id` (its bytes stay in their chunk). */
  delete(id: number): void {
    if (id < this.#chunkOf.length) this.#chunkOf[id] = -1;
  }

  /** The chunk to write `length` bytes into, a new one when the last is full. */
  #room(length: number): Uint8Array {
    if (this.#used + length > (this.#chunks.at(-1)?.length ?? 0)) {
      this.#chunks.push(new Uint8Array(Math.max(CHUNK_BYTES, length)));
      this.#used = 0;
    }
    return this.#chunks.at(-1)!;
  }

  #reserve(id: number): void {
    if (id < this.#chunkOf.length) return;
    const size = Math.max(id + 1, 2 * this.#chunkOf.length);
    const chunkOf = new Int32Array(size).fill(-1);
    chunkOf.set(this.#chunkOf);
    this.#chunkOf = chunkOf;
    this.#offsetOf = grown(this.#offsetOf, size);
    this.#recordBytes = grown(this.#recordBytes, size);
    this.#urlBytes = grown(this.#urlBytes, size);
  }
}

function grown(values: Uint32Array, size: number): Uint32Array {
  const out = new Uint32Array(size);
  out.set(values);
  return out;
}
