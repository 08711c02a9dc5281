import { describe, expect, it } from 'vitest';
import { paragraphShingles, shingles } from '../../src/text/shingles.js';

describe('shingles', () => {
  it('gives runs of n words, repeats included', () => {
    expect(shingles(['a', 'b', 'c', 'a', 'b', 'c'], 3)).toEqual(['a b c', 'b c a', 'c a b', 'a b c']);
    expect(shingles(['a', 'b', 'c'], 1)).toEqual(['a', 'b', 'c']);
  });

  it('gives the words of a sequence shorter than n, and nothing for none', () => {
    expect(shingles(['a', 'b'], 3)).toEqual(['a', 'b']);
    expect(shingles([], 3)).toEqual([]);
  });

  it.each([0, -1, 1.5, Number.NaN])('rejects size %s', (size) => {
    expect(() => shingles(['a'], size)).toThrow(/shingleSize/);
  });

  it('does not cross paragraphs; a short paragraph is one feature', () => {
    expect(paragraphShingles([['a', 'b', 'c', 'd'], ['e', 'f'], ['g', 'h', 'i']], 3)).toEqual(['a b c', 'b c d', 'e f', 'g h i']);
    expect(paragraphShingles([['a'], ['b']], 3)).toEqual(['a', 'b']);
    expect(paragraphShingles([], 3)).toEqual([]);
  });

  it('gives the same features, reordered, when paragraphs are swapped', () => {
    const a = paragraphShingles([['a', 'b', 'c', 'd'], ['e', 'f'], ['g', 'h', 'i']], 3);
    const b = paragraphShingles([['g', 'h', 'i'], ['a', 'b', 'c', 'd'], ['e', 'f']], 3);
    expect([...b].sort()).toEqual([...a].sort());
  });
});
