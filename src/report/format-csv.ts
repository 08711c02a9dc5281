/**
 * `clusters --format csv`: one row per cluster member, `cluster_id,url,kind,distance,is_primary,similarity`
 * (similarity: the second stage's Jaccard estimate for a `similar` member, empty otherwise),
 * RFC 4180 (CRLF line ends; a field with a comma, quote, CR or LF is quoted, quotes doubled).
 * Crawled strings are written by strangers: a cell starting with `=`, `+`, `-`, `@`, a tab or a CR
 * would be run as a formula by spreadsheet programs, so it is prefixed with `'`.
 */
import type { ClusterReport } from './cluster-report.js';

export const csvHeader = ['cluster_id', 'url', 'kind', 'distance', 'is_primary', 'similarity'] as const;

/** One CSV field, guarded against formula injection and quoted when needed. */
export function csvCell(value: string | number | boolean): string {
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The report's members as CSV text, header first, every line ending in CRLF. */
export function formatClustersCsv(report: ClusterReport): string {
  const lines = [csvHeader.join(',')];
  for (const cluster of report.clusters) {
    for (const m of cluster.members) {
      lines.push([cluster.id, m.url, m.kind, m.distance, m.kind === 'primary', m.similarity === undefined ? '' : m.similarity.toFixed(3)].map(csvCell).join(','));
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}
