/**
 * The seeded PRNGs of tests, benchmarks and generated sites, so that every run on every machine
 * draws the same numbers. Both return floats in [0, 1).
 */

/** mulberry32: the generator to use for anything new. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A 32-bit linear congruential generator (Numerical Recipes' constants). Kept, not replaced by
 * seededRandom, because its sequences are pinned: the edited golden inputs of
 * test/analyze/golden-analyses.json, the property tests' edits and bench-fingerprint's variants.
 */
export function lcgRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}
