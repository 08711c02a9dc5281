/**
 * `clusters --format csv`: one row per cluster member,
 * `cluster_id,url,kind,distance,is_primary,similarity,flags,flag_evidence` (similarity: the second
 * stage's Jaccard estimate for a `similar` member, empty otherwise; flags: the cascade's flag kinds,
 * `;`-separated, and one line of evidence each, ` | `-separated), then one row per flagged page in no
 * cluster (cluster_id empty, kind `stored`, or `skipped` for a spun copy the cascade rejected),
 * RFC 4180 (CRLF line ends; a field with a comma, quote, CR or LF is quoted, quotes doubled).
 * Crawled strings are written by strangers: a cell starting with `=`, `+`, `-`, `@` (after spaces
 * too), a tab or a CR would be run as a formula by spreadsheet programs, so it is prefixed with `'`.
 */
import type { ClusterReport } from './cluster-report.js';

export const csvHeader = ['cluster_id', 'url', 'kind', 'distance', 'is_primary', 'similarity', 'flags', 'flag_evidence'] as const;

/**
 * A cell a spreadsheet may run as a formula: `=`, `+`, `-`, `@` (or their full-width forms) first,
 * after any white space (spreadsheet programs skip leading spaces, so ` =1+1` is a formula too), or a
 * tab, CR or LF first.
 */
const FORMULA_START = /^(?:[\s\u00a0\u3000]*[=+\-@\uff1d\uff0b\uff0d\uff20]|[\t\r\n])/;

/** One CSV field, guarded against formula injection and quoted when needed. */
export function csvCell(value: string | number | boolean): string {
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The report's members as CSV text, header first, every line ending in CRLF. */
export function formatClustersCsv(report: ClusterReport): string {
  const lines = [csvHeader.join(',')];
  const evidence = new Map((report.flagged ?? []).map((p) => [p.url, p]));
  const inClusters = new Set<string>();
  for (const cluster of report.clusters) {
    for (const m of cluster.members) {
      const flags = evidence.get(m.url);
      inClusters.add(m.url);
      lines.push([cluster.id, m.url, m.kind, m.distance, m.kind === 'primary', m.similarity === undefined ? '' : m.similarity.toFixed(3),
        flags?.kinds.join(';') ?? '', flags?.summary.join(' | ') ?? ''].map(csvCell).join(','));
    }
  }
  // Flagged pages in no cluster: cluster_id empty, kind `stored` (a document) or `skipped`.
  for (const page of report.flagged ?? []) {
    if (inClusters.has(page.url)) continue;
    lines.push(['', page.url, page.docId === null ? 'skipped' : 'stored', '', false, '', page.kinds.join(';'), page.summary.join(' | ')].map(csvCell).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
