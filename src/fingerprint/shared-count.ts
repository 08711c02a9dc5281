/**
 * The overlap of two ascending arrays of distinct values, counted by one merge walk: the
 * fingerprint's sketches and candidate keys (sketch-similarity.ts, similar-basis.ts, shingle-sketch.ts)
 * and the cascade's term and word sets all count overlaps with it. One walk for all of them, so a
 * change to it (or a fix) reaches every caller. No allocation, no callback: it runs in the second
 * stage's hot loop.
 */

/**
 * Values a[aStart..aStart+aLength) and b[bStart..bStart+bLength) share, or -1 when that count is
 * below `need`. The walk stops as soon as A has fewer values left than `need` still lacks (`spare`
 * counts the values of A that may yet go unshared), so a rejection costs only the walk up to there;
 * `need` 0 gives the count, never -1.
 */
export function sharedCountIn(a: Uint32Array, aStart: number, aLength: number, b: Uint32Array, bStart: number, bLength: number, need = 0): number {
  let spare = aLength - need;
  if (spare < 0) return -1;
  let i = aStart;
  let j = bStart;
  const aEnd = aStart + aLength;
  const bEnd = bStart + bLength;
  let shared = 0;
  while (i < aEnd && j < bEnd) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      shared++;
      i++;
      j++;
    } else if (x < y) {
      if (--spare < 0) return -1;
      i++;
    } else j++;
  }
  return shared >= need ? shared : -1;
}

/** Values a[0..aLength) and b[0..bLength) share (whole arrays by default). */
export function sharedCount(a: Uint32Array, b: Uint32Array, aLength = a.length, bLength = b.length): number {
  return sharedCountIn(a, 0, aLength, b, 0, bLength);
}
