import { describe, expect, it } from 'vitest';
import { MEMO_STOP, MEMO_STRIDE, MEMO_TOKEN_A, TokenMemo } from '../../src/text/token-memo.js';
import { spanHash } from '../../src/text/token-table.js';

describe('TokenMemo', () => {
  it('finds what was added, by span, past its first growth (entries and code units)', () => {
    const memo = new TokenMemo();
    const text = Array.from({ length: 3000 }, (_, i) => `token${i}withalongtail`).join(' ');
    const spans: [number, number][] = [];
    for (let start = 0; start < text.length;) {
      const end = text.indexOf(' ', start) < 0 ? text.length : text.indexOf(' ', start);
      spans.push([start, end]);
      start = end + 1;
    }
    spans.forEach(([start, end], i) => {
      expect(memo.find(text, start, end, spanHash(text, start, end))).toBe(-1);
      const e = memo.add(text, start, end, spanHash(text, start, end), `stem${i}`, i % 2 === 0);
      memo.records[e * MEMO_STRIDE + MEMO_TOKEN_A] = i;
    });
    const copy = ` ${text}`; // the same tokens at other offsets of another string
    spans.forEach(([start, end], i) => {
      const e = memo.find(copy, start + 1, end + 1, spanHash(copy, start + 1, end + 1));
      expect(e).toBeGreaterThanOrEqual(0);
      expect(memo.records[e * MEMO_STRIDE + MEMO_TOKEN_A]).toBe(i);
      expect(memo.records[e * MEMO_STRIDE + MEMO_STOP]).toBe(i % 2 === 0 ? 1 : 0);
      expect(memo.stems[e]).toBe(`stem${i}`);
    });
    expect(memo.size).toBe(3000);
  });

  it('never takes a token for another with the same span hash', () => {
    const memo = new TokenMemo();
    // Hashes are the caller's: give two different tokens the same one.
    memo.add('abc', 0, 3, 42, 'abc', false);
    expect(memo.find('abd', 0, 3, 42)).toBe(-1);
    expect(memo.find('ab', 0, 2, 42)).toBe(-1);
    expect(memo.find('xabc', 1, 4, 42)).toBe(0);
  });

  it('calls reserve before each entry, and is empty after clear', () => {
    let reserved = 0;
    const memo = new TokenMemo(() => void reserved++);
    memo.add('one', 0, 3, spanHash('one', 0, 3), 'one', false);
    memo.add('two', 0, 3, spanHash('two', 0, 3), 'two', true);
    expect(reserved).toBe(2);
    memo.clear();
    expect(memo.size).toBe(0);
    expect(memo.find('one', 0, 3, spanHash('one', 0, 3))).toBe(-1);
  });
});
