/**
 * The article-extraction-benchmark metric (Scrapinghub, evaluate.py), for scoring extracted
 * text against hand-made ground truth:
 * - tokens are `\w+` runs (Unicode letters, digits, marks' neighbours and `_`), case kept;
 * - features are word 4-gram shingles with counts; a text of fewer than 4 tokens is one shingle;
 * - per page tp = shared counts, fp = extra in the output, fn = missing from the output, each
 *   divided by tp+fp+fn so that long pages do not weigh more;
 * - precision is the mean of tp/(tp+fp) over pages whose output has shingles (an empty output
 *   is left out of precision and scores recall 0); recall the mean of tp/(tp+fn) over pages whose
 *   truth has shingles; a page with fp = fn = 0 scores 1 on both; F1 from the two means.
 */

/** Normalised counts of one page. */
export interface PageScore {
  readonly tp: number;
  readonly fp: number;
  readonly fn: number;
}

/** Precision, recall and F1 over pages. */
export interface ExtractionScore {
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
}

// Python's `\w` with re.UNICODE: characters that are alphanumeric, and the underscore.
const tokenPattern = /[\p{L}\p{N}_]+/gu;

export function benchmarkTokens(text: string): string[] {
  return text.match(tokenPattern) ?? [];
}

function shingleCounts(text: string, n: number): Map<string, number> {
  const tokens = benchmarkTokens(text);
  const counts = new Map<string, number>();
  const last = Math.max(1, tokens.length - n + 1);
  for (let i = 0; i < last; i++) {
    const shingle = tokens.slice(i, i + n);
    if (shingle.length === 0) continue;
    const key = shingle.join('\u0001');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** tp/fp/fn of one page, normalised to sum to 1 (all 0 when both texts are empty). */
export function scorePage(truth: string, output: string, n = 4): PageScore {
  const t = shingleCounts(truth, n);
  const o = shingleCounts(output, n);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const [key, tc] of t) {
    const oc = o.get(key) ?? 0;
    tp += Math.min(tc, oc);
    fn += Math.max(0, tc - oc);
  }
  for (const [key, oc] of o) fp += Math.max(0, oc - (t.get(key) ?? 0));
  const sum = tp + fp + fn;
  return sum > 0 ? { tp: tp / sum, fp: fp / sum, fn: fn / sum } : { tp, fp, fn };
}

export function pagePrecision({ tp, fp, fn }: PageScore): number {
  if (fp === 0 && fn === 0) return 1;
  if (tp === 0 && fp === 0) return 0;
  return tp / (tp + fp);
}

export function pageRecall({ tp, fp, fn }: PageScore): number {
  if (fp === 0 && fn === 0) return 1;
  if (tp === 0 && fn === 0) return 0;
  return tp / (tp + fn);
}

/** Means over pages, as evaluate.py's metrics_from_tp_fp_fns. */
export function aggregateScores(pages: readonly PageScore[]): ExtractionScore {
  const precisions = pages.filter((p) => p.tp + p.fp > 0).map(pagePrecision);
  const recalls = pages.filter((p) => p.tp + p.fn > 0).map(pageRecall);
  const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
  const precision = mean(precisions);
  const recall = mean(recalls);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}
