import { describe, expect, it } from 'vitest';
import { docBlocks, outputHas } from './doc-blocks.js';

const md = [
  '# t', '', '```sh', 'neardup crawl https://example.com/', '```', '',
  '```sh doctest', 'neardup fingerprint a.txt', '```', '', '```text output', 'stored 3 … rejected 1', '```',
  '````sh doctest exit=2 site', 'neardup --bad', '```', 'still inside', '````', 'text', '```text output', 'not attached', '```',
].join('\n');

describe('docBlocks', () => {
  it('takes only `sh doctest` blocks, with their exit code and the output block right after', () => {
    const blocks = docBlocks(md, 'x.md');
    expect(blocks).toEqual([
      { file: 'x.md', line: 7, script: 'neardup fingerprint a.txt', exit: 0, expect: ['stored 3 … rejected 1'], site: false },
      { file: 'x.md', line: 14, script: 'neardup --bad\n```\nstill inside', exit: 2, expect: [], site: true },
    ]);
  });

  it('refuses a bad exit mark', () => {
    expect(() => docBlocks('```sh doctest exit=x\nls\n```\n', 'y.md')).toThrow(/y.md:1/);
  });
});

describe('outputHas', () => {
  it('matches a line with … standing for anything within one line', () => {
    expect(outputHas('a\nstored 3, rejected 1 (exact 1)\n', 'stored 3 … rejected 1')).toBe(true);
    expect(outputHas('stored 3\nrejected 1\n', 'stored 3 … rejected 1')).toBe(false);
    expect(outputHas('rejected 1, stored 3', 'stored 3 … rejected 1')).toBe(false);
  });
});
