/** The planes of the paired-block table: typed arrays over growable SharedArrayBuffers, grown in place. */

/** One plane of a table: its entries' ids, block values or partner positions. */
export type Plane = Uint8Array | Uint16Array | Uint32Array;

/** A SharedArrayBuffer that can grow in place up to maxByteLength (ES2024; the project's lib is ES2023). */
interface GrowableBuffer extends SharedArrayBuffer {
  readonly growable: boolean;
  readonly maxByteLength: number;
  grow(byteLength: number): void;
}

const GrowableSharedArrayBuffer = SharedArrayBuffer as unknown as new (byteLength: number, options: { maxByteLength: number }) => GrowableBuffer;

/** The largest growable buffer V8 accepts (4 GiB); larger planes are plain copies. */
const MAX_RESIZABLE_BYTES = 2 ** 32;
/** A new plane reserves (address space only) room for this many times its size, at least 64 MiB. */
const RESERVE_FACTOR = 4;

type PlaneType<T extends Plane> = { new (buffer: ArrayBufferLike, byteOffset: number, length: number): T; readonly BYTES_PER_ELEMENT: number };

/**
 * A plane of `capacity` elements holding the first `keep` of `old`: `old`'s own buffer grown in place
 * when it has the room reserved, else a new growable buffer (the copy is then the only time the old
 * and the new plane are both held).
 *
 * Growable SharedArrayBuffers rather than resizable ArrayBuffers: they can only grow, so V8 reads
 * fixed-length views of them as fast as plain typed arrays (a view of a resizable ArrayBuffer, which
 * may shrink, measured ~20% slower lookups). Nothing shares them with another thread.
 */
export function growPlane<T extends Plane>(old: T | null, Type: PlaneType<T>, capacity: number, keep: number): T {
  const bytes = capacity * Type.BYTES_PER_ELEMENT;
  const buffer = old?.buffer as GrowableBuffer | undefined;
  if (buffer !== undefined && buffer.growable === true && bytes >= buffer.byteLength && bytes <= buffer.maxByteLength) {
    buffer.grow(bytes);
    return new Type(buffer, 0, capacity);
  }
  const reserve = Math.min(MAX_RESIZABLE_BYTES, Math.max(bytes * RESERVE_FACTOR, 2 ** 26));
  const fresh = bytes <= reserve ? new Type(new GrowableSharedArrayBuffer(bytes, { maxByteLength: reserve }), 0, capacity) : new Type(new ArrayBuffer(bytes), 0, capacity);
  if (old !== null && keep > 0) fresh.set(old.subarray(0, keep) as never);
  return fresh;
}
