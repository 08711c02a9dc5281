import { describe, expect, it } from 'vitest';
import { buildClusters } from '../../src/report/build-clusters.js';
import { csvCell, formatClustersCsv } from '../../src/report/format-csv.js';
import { exactDoc, nearDoc, storedDoc } from './report-fixtures.js';

/** A small RFC 4180 parser, to check that what we write reads back as written. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { cell += '"'; i++; }
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(cell); cell = ''; }
    else if (c === '\r' && text[i + 1] === '\n') { row.push(cell); rows.push(row); row = []; cell = ''; i++; }
    else cell += c;
  }
  return rows;
}

describe('csvCell', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\rhere', '"cr\rhere"'],
    ['=HYPERLINK("http://x")', '"\'=HYPERLINK(""http://x"")"'],
    ['+1', "'+1"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tx', "'\tx"],
    [3, '3'],
    [true, 'true'],
  ] as const)('writes %j as %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });
});

describe('formatClustersCsv', () => {
  it('writes one row per member with the primary flagged, CRLF line ends', () => {
    const a = storedDoc(1, 'http://a.example/p?x=1,2');
    const b = storedDoc(2, 'http://a.example/q', { fingerprint: { hi: 0xffffffff, lo: 0 } });
    const report = buildClusters([a, b], [
      exactDoc(3, 'http://b.example/p', a),
      nearDoc(4, '=cmd|calc!A1', a, [1, 2]),
      nearDoc(5, 'http://c.example/"quoted"', b, [9]),
    ], new Map());
    const text = formatClustersCsv(report);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.split('\r\n')[0]).toBe('cluster_id,url,kind,distance,is_primary,similarity,flags,flag_evidence');
    expect(parseCsv(text)).toEqual([
      ['cluster_id', 'url', 'kind', 'distance', 'is_primary', 'similarity', 'flags', 'flag_evidence'],
      ['1', 'http://a.example/p?x=1,2', 'primary', '0', 'true', '', '', ''],
      ['1', 'http://b.example/p', 'exact', '0', 'false', '', '', ''],
      ['1', "'=cmd|calc!A1", 'near', '2', 'false', '', '', ''],
      ['2', 'http://a.example/q', 'primary', '0', 'true', '', '', ''],
      ['2', 'http://c.example/"quoted"', 'near', '1', 'false', '', '', ''],
    ]);
  });

  it('writes only the header for an empty report', () => {
    expect(formatClustersCsv(buildClusters([], [], new Map()))).toBe('cluster_id,url,kind,distance,is_primary,similarity,flags,flag_evidence\r\n');
  });
});
