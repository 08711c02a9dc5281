/**
 * Reads a --data folder's index (`<data>/neardup.db`, opened read-only with the parameters stored
 * in it) and builds the cluster report. The only part of src/report/ that touches the database.
 */
import Database from 'better-sqlite3';
import { citationCounts } from './citation-counts.js';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.js';
import { InputError } from '../errors.js';
import { FingerprintIndex } from '../fingerprint-index/fingerprint-index.js';
import { buildClusters } from './build-clusters.js';
import { hasFlagsTable, readFlagRows } from '../cascade/sqlite-cascade-tables.js';
import { documentUrls, withFlags } from './flagged-pages.js';
import type { DocumentUrls } from '../cascade/flag-row.js';
import type { ClusterReport } from './cluster-report.js';

/** The index file of a data folder. */
export function indexPathOf(dataDir: string): string {
  return join(dataDir, 'neardup.db');
}

/**
 * The report with the cascade's flags (a read-only connection of its own: the index's is not shared).
 * An index made before the cascade was wired, or with it off, has no flags table: no flags section.
 */
function withFlagsOf(report: ClusterReport, path: string, urlOf: DocumentUrls): ClusterReport {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return hasFlagsTable(db) ? withFlags(report, readFlagRows(db), urlOf) : report;
  } finally {
    db.close();
  }
}

/**
 * Builds the report of a data folder. Throws InputError (one line) when the folder or its
 * neardup.db is missing, IndexError when the file is not a neardup index.
 */
export function loadClusterReport(dataDir: string, config: Pick<Config, 'report'>): ClusterReport {
  let isDir = false;
  try {
    isDir = statSync(dataDir).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw new InputError(`No data folder \`${dataDir}\` (run \`neardup crawl\` or \`neardup dedup\` with --data first)`);
  const path = indexPathOf(dataDir);
  let isFile = false;
  try {
    isFile = statSync(path).isFile();
  } catch {
    isFile = false;
  }
  if (!isFile) throw new InputError(`\`${dataDir}\` is not a neardup data folder: it has no neardup.db`);
  const params = FingerprintIndex.readParams(path);
  const index = FingerprintIndex.open(path, { params, readonly: true });
  try {
    const stored = [...index.stored()];
    const rejected = [...index.rejected()];
    const report = buildClusters(stored, rejected, citationCounts(index.linkRows()), {
      ...config.report,
      skipped: index.skipped(),
      distanceThreshold: params.distance,
    });
    return withFlagsOf(report, path, documentUrls(stored, rejected));
  } finally {
    index.close();
  }
}
