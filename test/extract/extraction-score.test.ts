import { describe, expect, it } from 'vitest';
import { aggregateScores, benchmarkTokens, pagePrecision, pageRecall, scorePage } from '../../src/extract/extraction-score.js';

describe('benchmarkTokens', () => {
  it('splits on anything but letters, digits and underscores, keeping case', () => {
    expect(benchmarkTokens('Hello, world! snake_case 3.14 naïve Привет 東京')).toEqual(['Hello', 'world', 'snake_case', '3', '14', 'naïve', 'Привет', '東京']);
  });
});

describe('scorePage', () => {
  it('scores identical texts tp = 1', () => {
    const text = 'one two three four five six';
    expect(scorePage(text, text)).toEqual({ tp: 1, fp: 0, fn: 0 });
  });

  it('ignores punctuation and layout but not case', () => {
    expect(scorePage('one two three four', 'one, two;\n\nthree — four')).toEqual({ tp: 1, fp: 0, fn: 0 });
    expect(scorePage('one two three four', 'One two three four')).toEqual({ tp: 0, fp: 0.5, fn: 0.5 });
  });

  it('counts shared, extra and missing 4-gram shingles, normalised per page', () => {
    // truth shingles: a b c d, b c d e; output shingles: a b c d, b c d x, c d x y
    const s = scorePage('a b c d e', 'a b c d x y');
    expect(s.tp).toBeCloseTo(1 / 4);
    expect(s.fp).toBeCloseTo(2 / 4);
    expect(s.fn).toBeCloseTo(1 / 4);
  });

  it('counts repeated shingles by multiplicity', () => {
    const s = scorePage('a b c d', 'a b c d a b c d');
    // output: a b c d (×2), b c d a, c d a b, d a b c → 1 shared, 4 extra
    expect(s.tp).toBeCloseTo(1 / 5);
    expect(s.fp).toBeCloseTo(4 / 5);
  });

  it('makes one shingle of a text shorter than four words', () => {
    expect(scorePage('two words', 'two words')).toEqual({ tp: 1, fp: 0, fn: 0 });
    expect(scorePage('two words', 'two')).toEqual({ tp: 0, fp: 0.5, fn: 0.5 });
  });

  it('gives all zeros for two empty texts', () => {
    expect(scorePage('', '')).toEqual({ tp: 0, fp: 0, fn: 0 });
  });
});

describe('pagePrecision / pageRecall', () => {
  it('follow evaluate.py, including its edge cases', () => {
    expect(pagePrecision({ tp: 0.5, fp: 0.25, fn: 0.25 })).toBeCloseTo(2 / 3);
    expect(pageRecall({ tp: 0.5, fp: 0.25, fn: 0.25 })).toBeCloseTo(2 / 3);
    expect(pagePrecision({ tp: 0, fp: 0, fn: 0 })).toBe(1);
    expect(pagePrecision({ tp: 0, fp: 0, fn: 1 })).toBe(0);
    expect(pageRecall({ tp: 0, fp: 1, fn: 0 })).toBe(0);
  });
});

describe('aggregateScores', () => {
  it('averages precision and recall over pages and takes F1 of the means', () => {
    const pages = [scorePage('a b c d e', 'a b c d e'), scorePage('a b c d e', 'a b c d x y')];
    const { precision, recall, f1 } = aggregateScores(pages);
    expect(precision).toBeCloseTo((1 + 1 / 3) / 2);
    expect(recall).toBeCloseTo((1 + 1 / 2) / 2);
    expect(f1).toBeCloseTo((2 * precision * recall) / (precision + recall));
  });

  it('leaves an empty output out of precision and counts it 0 in recall', () => {
    const pages = [scorePage('a b c d e', 'a b c d e'), scorePage('a b c d e', '')];
    const { precision, recall } = aggregateScores(pages);
    expect(precision).toBe(1);
    expect(recall).toBe(0.5);
  });

  it('is zero for no pages', () => {
    expect(aggregateScores([])).toEqual({ precision: 0, recall: 0, f1: 0 });
  });
});
