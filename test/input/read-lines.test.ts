import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readLines } from '../../src/input/read-lines.js';

async function lines(chunks: string[], max = 1000) {
  const out: Array<[number, string | null]> = [];
  for await (const l of readLines(Readable.from(chunks.map((c) => Buffer.from(c, 'utf8'))), max)) out.push([l.lineNo, l.text]);
  return out;
}

describe('readLines', () => {
  it('splits across chunk borders, multi-byte characters included', async () => {
    const text = 'héllo wörld\nпривет\n\nlast';
    const bytes = Buffer.from(text, 'utf8');
    // Every split point, including ones inside a UTF-8 sequence.
    for (let cut = 0; cut <= bytes.length; cut += 1) {
      const out: Array<string | null> = [];
      for await (const l of readLines(Readable.from([bytes.subarray(0, cut), bytes.subarray(cut)]), 100)) out.push(l.text);
      expect(out).toEqual(['héllo wörld', 'привет', '', 'last']);
    }
  });

  it('drops a trailing \\r and gives no empty line after a final newline', async () => {
    expect(await lines(['a\r\nb\r\n'])).toEqual([[1, 'a'], [2, 'b']]);
  });

  it('reports a line over the limit as null and keeps counting', async () => {
    expect(await lines(['ab', 'cdefgh', 'ij\nok\n'], 5)).toEqual([[1, null], [2, 'ok']]);
  });
});
