/**
 * Builds the cluster report from a PostgreSQL index (the same report as load-cluster-report.ts builds
 * from a --data folder's SQLite index): opened read-only with the parameters stored in it, its rows
 * read once, page by page, then handed to buildClusters.
 */
import type { Config } from '../config.js';
import { PgFingerprintIndex } from '../fingerprint-index/postgres/pg-fingerprint-index.js';
import type { RejectedDocument, SkippedPage, StoredDocument } from '../types.js';
import { buildClusters } from './build-clusters.js';
import { PgCascadeTables } from '../fingerprint-index/postgres/pg-cascade-tables.js';
import type { FlagRow } from '../cascade/flag-row.js';
import { documentUrls, withFlags } from './flagged-pages.js';
import { citationCounts } from './citation-counts.js';
import type { ClusterReport } from './cluster-report.js';

async function collect<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const row of rows) out.push(row);
  return out;
}

/**
 * The report of the index at `url`. Throws IndexError (one line) when the server cannot be reached,
 * refuses the credentials, or the database holds no neardup index.
 */
export async function loadPgClusterReport(url: string, config: Pick<Config, 'report'>): Promise<ClusterReport> {
  const params = await PgFingerprintIndex.readParams(url);
  const index = await PgFingerprintIndex.open(url, { params, readonly: true });
  try {
    const rejected: RejectedDocument[] = await collect(index.rejected());
    const stored: StoredDocument[] = await collect(index.stored());
    const skipped: SkippedPage[] = await collect(index.skipped());
    const report = buildClusters(stored, rejected, citationCounts(await index.linkRows()), {
      ...config.report,
      skipped,
      distanceThreshold: params.distance,
    });
    const flags = await (await PgCascadeTables.open(index.session, true)).flagRows();
    // As with SQLite: no flags section for an index without a flags table.
    return flags === null ? report : withFlags(report, flags as FlagRow[], documentUrls(stored, rejected));
  } finally {
    await index.close();
  }
}
