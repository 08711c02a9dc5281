/**
 * Precision, recall and F1 of the rule "duplicate when distance ≤ k", for each k, from labelled
 * pairs. Pure; no I/O.
 *
 * Conventions: a pair whose distance is null (a side gave no fingerprint, e.g. too short) is
 * predicted "not duplicate" at every k, as the index never matches such a document. Precision
 * is null when nothing is predicted duplicate, recall null when no pair is labelled duplicate;
 * F1 counts a null as 0.
 */

/** One labelled pair: its Hamming distance (null when unjudged) and whether it is a duplicate. */
export interface LabelledDistance {
  readonly distance: number | null;
  readonly duplicate: boolean;
}

/** The confusion counts and scores at one threshold. */
export interface ThresholdRow {
  readonly k: number;
  readonly tp: number;
  readonly fp: number;
  readonly fn: number;
  readonly tn: number;
  readonly precision: number | null;
  readonly recall: number | null;
  readonly f1: number;
}

/** Rows for k = 0..maxK. */
export function thresholdMetrics(pairs: readonly LabelledDistance[], maxK = 16): ThresholdRow[] {
  if (!Number.isInteger(maxK) || maxK < 0 || maxK > 64) throw new RangeError(`Expected \`maxK\` to be an integer 0–64, got ${maxK}`);
  // Counts by distance (0..64, 65 = unjudged), then running sums: O(pairs + k).
  const pos = new Uint32Array(66);
  const neg = new Uint32Array(66);
  for (const p of pairs) {
    const d = p.distance === null ? 65 : Math.min(65, Math.max(0, p.distance));
    if (p.duplicate) pos[d]! += 1;
    else neg[d]! += 1;
  }
  let positives = 0;
  let negatives = 0;
  for (let d = 0; d < 66; d += 1) {
    positives += pos[d]!;
    negatives += neg[d]!;
  }
  const rows: ThresholdRow[] = [];
  let tp = 0;
  let fp = 0;
  for (let k = 0; k <= maxK; k += 1) {
    tp += pos[k]!;
    fp += neg[k]!;
    const fn = positives - tp;
    const tn = negatives - fp;
    const precision = tp + fp === 0 ? null : tp / (tp + fp);
    const recall = positives === 0 ? null : tp / positives;
    const p = precision ?? 0;
    const r = recall ?? 0;
    const f1 = p + r === 0 ? 0 : (2 * p * r) / (p + r);
    rows.push({ k, tp, fp, fn, tn, precision, recall, f1 });
  }
  return rows;
}

/** The k with the highest F1 (the smallest such k on a tie: fewer false positives). */
export function bestThreshold(rows: readonly ThresholdRow[]): number {
  if (rows.length === 0) throw new RangeError('Expected at least one threshold row');
  let best = rows[0]!;
  for (const row of rows) if (row.f1 > best.f1 + 1e-12) best = row;
  return best.k;
}
