/**
 * A compact sketch of a document's set of features (its shingles, as hashed for the simhash): the
 * `size` smallest distinct values of a 32-bit mix of each feature hash (a bottom-k sketch, Broder
 * 1997 / Cohen & Kaplan 2007). From two sketches alone one estimates the Jaccard similarity of the
 * two feature sets and how much of one set the other holds (containment) — see sketch-similarity.ts.
 *
 * Why bottom-k (scripts/measure-second-stage.ts measured it beside one-permutation b-bit MinHash on
 * the dev pairs): at equal bytes its Jaccard error is close, it is the one of the two that estimates
 * containment (an excerpt, or an article with comments appended) without knowing the set sizes, and a
 * text with fewer distinct features than `size` is sketched exactly (its whole set), which is where
 * short pages sit.
 *
 * Storage: `4 · length` bytes (uint32 values, ascending, distinct); length = min(size, distinct
 * features). Pure; no allocation per feature.
 */
import { fmix32 } from './murmur-hash.js';
import { sharedCount } from './shared-count.js';

/** Largest sketch size accepted (values kept per document). */
export const MAX_SKETCH_SIZE = 1024;

/** The 32-bit value a feature hash (hi, lo) takes in the sketch: well mixed whatever the feature hash (Rabin's low bits are not). */
export function sketchValue(hi: number, lo: number): number {
  return fmix32((hi ^ fmix32(lo ^ 0x5bd1e995)) >>> 0);
}

/**
 * Bottom-`size` sketch of the features whose hashes are hi/lo[0..count) (repeats counted once).
 * Returns the values ascending in a Uint32Array of length min(size, distinct features).
 *
 * By threshold rather than by keeping a sorted top list (which moved values on each of the ~k·ln(n/k)
 * insertions): sketch values are uniform over 32 bits, so the `size`-th smallest of n lies near
 * size/n · 2³². The values below twice that (~2·size of them) are moved to the front and sorted; when
 * fewer than `size` distinct ones fell below (repeated features, or chance), the threshold doubles and
 * the values are partitioned again. At 2³² every value passes, so the result is always exactly the
 * `size` smallest distinct values.
 */
export function shingleSketch(hi: Uint32Array, lo: Uint32Array, count: number, size: number): Uint32Array {
  if (!Number.isInteger(size) || size < 1 || size > MAX_SKETCH_SIZE) {
    throw new RangeError(`Expected \`size\` to be an integer 1–${MAX_SKETCH_SIZE}, got ${String(size)}`);
  }
  const values = new Uint32Array(count);
  for (let i = 0; i < count; i++) values[i] = sketchValue(hi[i]!, lo[i]!);
  let threshold = count <= 2 * size ? TWO_32 : Math.ceil((2 * size / count) * TWO_32);
  for (;;) {
    let below = 0;
    if (threshold >= TWO_32) below = count;
    else {
      for (let i = 0; i < count; i++) {
        const v = values[i]!;
        if (v < threshold) {
          values[i] = values[below]!;
          values[below++] = v;
        }
      }
    }
    const front = values.subarray(0, below).sort();
    let distinct = 0;
    for (let i = 0; i < below && distinct < size; i++) if (i === 0 || front[i] !== front[i - 1]) front[distinct++] = front[i]!;
    if (distinct === size || threshold >= TWO_32) return values.slice(0, distinct);
    threshold = Math.min(TWO_32, 2 * threshold);
  }
}

const TWO_32 = 2 ** 32;

/** This machine stores uint32 little-endian (then a sketch's bytes are its memory, copied as is). */
export const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/**
 * Bytes of a sketch as stored (uint32 little-endian values). On a little-endian machine a view of the
 * sketch's own memory (no copy: SQLite copies a blob when it is bound), so writing to one writes to both.
 */
export function sketchToBytes(sketch: Uint32Array): Uint8Array {
  if (LITTLE_ENDIAN) return new Uint8Array(sketch.buffer, sketch.byteOffset, sketch.byteLength);
  const out = new Uint8Array(sketch.length * 4);
  const view = new DataView(out.buffer);
  for (let i = 0; i < sketch.length; i++) view.setUint32(i * 4, sketch[i]!, true);
  return out;
}

/** The sketch stored as `sketchToBytes` wrote it. */
export function sketchFromBytes(bytes: Uint8Array): Uint32Array {
  if (bytes.length % 4 !== 0) throw new RangeError(`Expected sketch bytes to be a multiple of 4 long, got ${bytes.length}`);
  if (LITTLE_ENDIAN) return new Uint32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  const out = new Uint32Array(bytes.length / 4);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = view.getUint32(i * 4, true);
  return out;
}

/**
 * Whether two sketches share at least `minShared` of their `keys` smallest values (fewer when a
 * sketch is shorter): the second stage's candidate rule (a document is filed under its `keys`
 * smallest sketch values and looked up by them, see SketchKeyTable). Two sets with Jaccard J share
 * their single smallest value with probability J; with 8 keys and 2 shared, every dev-pair positive
 * with J ≥ 0.5 met its original (scripts/measure-second-stage.ts), while unrelated documents, which
 * meet on one small value now and then, hardly ever meet on two.
 */
export function sharesCandidateKey(a: Uint32Array, b: Uint32Array, keys: number, minShared = 1): boolean {
  const na = Math.min(keys, a.length);
  const nb = Math.min(keys, b.length);
  const need = Math.max(1, Math.min(minShared, na, nb));
  return sharedCount(a, b, na, nb) >= need;
}
