/**
 * Issue 28 (also): a CSV cell starting with spaces and then `=` was written as it came, and
 * spreadsheet programs skip the spaces and run the formula. Every cell whose first character after
 * white space starts a formula is prefixed with `'`; through the CLI too.
 */
import { describe, expect, it } from 'vitest';
import { csvCell } from '../../src/report/format-csv.js';

describe('CSV cells that start a formula after white space', () => {
  it.each([
    ['  =HYPERLINK("http://evil.example","x")', '"\'  =HYPERLINK(""http://evil.example"",""x"")"'],
    [' +cmd', "' +cmd"],
    ['\u00a0-2+3', "'\u00a0-2+3"],
    ['\u3000@SUM(A1)', "'\u3000@SUM(A1)"],
    ['\n=1+1', '"\'\n=1+1"'],
    ['\uff1d1+1', "'\uff1d1+1"],
    ['  plain text', '  plain text'],
    ['http://a.example/=x', 'http://a.example/=x'],
  ])('%j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });
});
