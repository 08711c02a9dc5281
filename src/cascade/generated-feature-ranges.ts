/**
 * The feature ranges a `generated` model keeps beside its trees: per feature, the span of the
 * training samples' values. A text with MAX_OUTSIDE or more features outside it is a kind the trees
 * never saw, and the stage leaves it unflagged rather than guessing (generated-flag.ts).
 */

/** Per feature, the range of the training samples' values (widened by a margin, see featureRanges). */
export interface FeatureRanges {
  readonly low: readonly number[];
  readonly high: readonly number[];
}

/** Features outside the ranges from which a text counts as unlike anything trained on. */
export const MAX_OUTSIDE = 2;

/**
 * The ranges of the columns of `rows`: the `q` and 1 − `q` quantiles, widened on each side by a
 * tenth of their span (a value just past the training samples' is no new kind of text).
 */
export function featureRanges(rows: readonly (readonly number[])[], q: number): FeatureRanges {
  const low: number[] = [];
  const high: number[] = [];
  const columns = rows[0]?.length ?? 0;
  for (let c = 0; c < columns; c++) {
    const sorted = rows.map((r) => r[c]!).sort((a, b) => a - b);
    const lo = sorted[Math.floor(q * (sorted.length - 1))]!;
    const hi = sorted[Math.ceil((1 - q) * (sorted.length - 1))]!;
    const margin = (hi - lo) / 10;
    low.push(lo - margin);
    high.push(hi + margin);
  }
  return { low, high };
}

/** How many of `values` lie outside the ranges (0 without ranges). */
export function outsideRange(ranges: FeatureRanges | null, values: readonly number[]): number {
  if (ranges === null) return 0;
  let outside = 0;
  for (let i = 0; i < values.length; i++) if (values[i]! < ranges.low[i]! || values[i]! > ranges.high[i]!) outside++;
  return outside;
}
