/**
 * sharedCountIn (the one merge walk behind sketch overlaps): the count of a set intersection, in
 * place inside larger arrays, and -1 exactly when that count is below `need`.
 */
import { describe, expect, it } from 'vitest';
import { sharedCount, sharedCountIn } from '../../src/fingerprint/shared-count.js';

const u32 = (...values: number[]) => Uint32Array.from(values);

describe('sharedCount', () => {
  it.each([
    { a: [], b: [], shared: 0 },
    { a: [1, 2, 3], b: [], shared: 0 },
    { a: [1, 3, 5, 7], b: [2, 3, 4, 7, 9], shared: 2 },
    { a: [1, 2, 3], b: [1, 2, 3], shared: 3 },
    { a: [0, 0xffffffff], b: [0xffffffff], shared: 1 },
  ])('counts the values $a and $b share', ({ a, b, shared }) => {
    expect(sharedCount(u32(...a), u32(...b))).toBe(shared);
  });

  it('counts within the given prefixes', () => {
    expect(sharedCount(u32(1, 2, 3, 4), u32(2, 3, 4), 2, 3)).toBe(1);
  });
});

describe('sharedCountIn', () => {
  it('walks the given ranges of larger arrays', () => {
    const a = u32(9, 9, 1, 3, 5, 7, 0);
    const b = u32(8, 3, 5, 6, 7);
    expect(sharedCountIn(a, 2, 4, b, 1, 4)).toBe(3);
    expect(sharedCountIn(a, 2, 2, b, 1, 4)).toBe(1);
  });

  it('gives the count when it reaches `need` and -1 when it does not, for every need', () => {
    const a = u32(1, 2, 4, 6, 8, 10, 12);
    const b = u32(2, 3, 4, 5, 8, 12, 13);
    const shared = sharedCount(a, b);
    expect(shared).toBe(4);
    for (let need = 0; need <= a.length + 1; need++) {
      expect(sharedCountIn(a, 0, a.length, b, 0, b.length, need)).toBe(need <= shared ? shared : -1);
    }
  });
});
