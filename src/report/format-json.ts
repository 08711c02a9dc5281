/**
 * `clusters --format json`: `{"clusters":[{"id","primary","title","size","reasons","members":[{"url",
 * "kind","distance",...}]}],"stats":{...},"mirrors":[...]}` (see cluster-report.ts for each field).
 */
import type { ClusterReport } from './cluster-report.js';

/** The report as JSON text, two-space indented, ending in a newline. */
export function formatClustersJson(report: ClusterReport): string {
  return `${JSON.stringify({ clusters: report.clusters, stats: report.stats, mirrors: report.mirrors }, null, 2)}\n`;
}
