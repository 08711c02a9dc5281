import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stopWordSpansFor, stopWordsFor, STOPWORD_LANGUAGES } from '../../src/text/language-resources.js';
import { SpanSet } from '../../src/text/span-set.js';
import { spanHash, tokenTable } from '../../src/text/token-table.js';

describe('SpanSet', () => {
  it('answers for spans of a longer text as Set.has answers for the sliced strings', () => {
    const members = ['the', 'a', 'of', 'über', 'и', '的', ''];
    const spans = new SpanSet(members);
    const set = new Set(members);
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('t', 'h', 'e', 'a', 'o', 'f', 'ü', 'b', 'r', 'и', '的', ' ') }), fc.nat(), fc.nat(), (text, x, y) => {
      const start = Math.min(x, y) % (text.length + 1);
      const end = Math.min(text.length, start + (Math.max(x, y) % 6));
      expect(spans.hasSpan(text, start, end, spanHash(text, start, end))).toBe(set.has(text.slice(start, end)));
    }), { numRuns: 2000 });
    expect(spans.size).toBe(set.size);
  });

  it('uses the hash tokenTable gives each token', () => {
    const text = 'the cat of the hat über alles';
    const table = tokenTable(text);
    for (let id = 0; id < table.distinct; id++) expect(table.spans[id * 3 + 2]).toBe(spanHash(text, table.spans[id * 3]!, table.spans[id * 3 + 1]!));
  });

  it('holds the same stop words as stopWordsFor, for every language', () => {
    for (const language of STOPWORD_LANGUAGES) {
      const set = stopWordsFor(language);
      const spans = stopWordSpansFor(language);
      expect(spans.size).toBe(set.size);
      for (const word of set) expect(spans.has(word)).toBe(true);
      for (const word of set) expect(spans.has(`${word}x`)).toBe(set.has(`${word}x`));
    }
  });

  it('STOPWORD_LANGUAGES lists languages whose stop words are non-empty (built on first use)', () => {
    expect(STOPWORD_LANGUAGES.length).toBeGreaterThan(30);
    for (const language of STOPWORD_LANGUAGES) expect(stopWordsFor(language).size, language).toBeGreaterThan(0);
    for (const language of ['und', 'xyz', 'constructor']) {
      expect(STOPWORD_LANGUAGES).not.toContain(language);
      expect(stopWordsFor(language).size).toBe(0);
      expect(stopWordSpansFor(language).size).toBe(0);
    }
  });
});
