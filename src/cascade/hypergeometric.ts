/**
 * The hypergeometric upper tail: the chance that a draw of `n` items from a population of `N`, of
 * which `K` are marked, holds `k` or more marked items. The `compiled` stage asks it whether a
 * paragraph shares more of its terms with a stored page than chance would give.
 */

/** ln Γ(x) for x > 0 (Lanczos, g = 7, 9 terms; |error| < 1e-13 over the range used). */
export function logGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let a = c[0]!;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += c[i]! / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

function logChoose(n: number, k: number): number {
  return logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1);
}

/** P(X ≥ k) for X ~ Hypergeometric(N, K, n); 1 for k ≤ the smallest possible count. */
export function hypergeometricUpperTail(N: number, K: number, n: number, k: number): number {
  if (!(N >= 0 && K >= 0 && n >= 0 && K <= N && n <= N)) {
    throw new RangeError(`Expected 0 ≤ K ≤ N and 0 ≤ n ≤ N, got N=${N} K=${K} n=${n}`);
  }
  const low = Math.max(0, n + K - N);
  const high = Math.min(n, K);
  if (k <= low) return 1;
  if (k > high) return 0;
  const total = logChoose(N, n);
  let sum = 0;
  for (let x = k; x <= high; x++) sum += Math.exp(logChoose(K, x) + logChoose(N - K, n - x) - total);
  return Math.min(1, sum);
}
