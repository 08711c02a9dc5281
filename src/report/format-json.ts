/**
 * `clusters --format json`: `{"clusters":[{"id","primary","title","size","reasons","members":[{"url",
 * "kind","distance",...,"flags"}]}],"stats":{...},"mirrors":[...],"flagged":[{"url","docId","kinds","flags"}]}`
 * (see cluster-report.ts for each field; `flagged`, each flag with its evidence, when the index has flags).
 */
import type { ClusterReport } from './cluster-report.js';

/** The report as JSON text, two-space indented, ending in a newline. */
export function formatClustersJson(report: ClusterReport): string {
  const flagged = report.flagged === undefined ? {} : { flagged: report.flagged.map(({ url, docId, kinds, flags }) => ({ url, docId, kinds, flags })) };
  return `${JSON.stringify({ clusters: report.clusters, stats: report.stats, mirrors: report.mirrors, ...flagged }, null, 2)}\n`;
}
