import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { parsePairs } from '../../src/eval/parse-pairs.js';

describe('parsePairs', () => {
  it('reads pairs, an optional header, kinds, comments and CRLF', () => {
    const text = 'a\tb\tlabel\tkind\r\n# comment\n\nx.html\ty.html\t1\tmirror\r\nd.jsonl#3\te.txt\t0\n';
    expect(parsePairs(text, 'p.tsv')).toEqual([
      { a: 'x.html', b: 'y.html', duplicate: true, kind: 'mirror', line: 4 },
      { a: 'd.jsonl#3', b: 'e.txt', duplicate: false, kind: null, line: 5 },
    ]);
  });

  it.each([
    ['x\ty', /at p\.tsv:1, got 2 columns/],
    ['x\ty\t2', /Expected `label` to be 0 or 1 at p\.tsv:1, got `2` \(string\)/],
    ['x\t\t1', /empty one/],
    ['x\ty\t1\tk\textra', /got 5 columns/],
    ['# only a comment\n', /at least one labelled pair/],
  ])('refuses %j with a line number', (text, message) => {
    const run = () => parsePairs(text, 'p.tsv');
    expect(run).toThrow(ValidationError);
    expect(run).toThrow(message);
  });
});
