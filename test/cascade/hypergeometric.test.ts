import { describe, expect, it } from 'vitest';
import { hypergeometricUpperTail, logGamma } from '../../src/cascade/hypergeometric.js';

function choose(n: number, k: number): number {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

describe('hypergeometric upper tail', () => {
  it('matches the exact sum on small populations', () => {
    for (const [N, K, n] of [[10, 4, 3], [20, 7, 9], [30, 15, 15], [12, 12, 5], [9, 0, 4]] as const) {
      for (let k = 0; k <= n; k++) {
        let exact = 0;
        for (let x = k; x <= Math.min(n, K); x++) exact += (choose(K, x) * choose(N - K, n - x)) / choose(N, n);
        expect(hypergeometricUpperTail(N, K, n, k)).toBeCloseTo(Math.min(1, exact), 12);
      }
    }
  });

  it('is tiny for a paragraph that is all overlap, moderate for chance overlap', () => {
    expect(hypergeometricUpperTail(3000, 300, 30, 30)).toBeLessThan(1e-25);
    expect(hypergeometricUpperTail(3000, 300, 30, 3)).toBeGreaterThan(0.3);
  });

  it('log-gamma agrees with factorials', () => {
    expect(logGamma(11)).toBeCloseTo(Math.log(3628800), 10);
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 10);
  });

  it('refuses impossible parameters', () => {
    expect(() => hypergeometricUpperTail(5, 6, 2, 1)).toThrow(RangeError);
  });
});
