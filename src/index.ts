/** The library API of neardup, exported by name. */
export { loadConfig, parseConfig, defaultConfig, configSchema } from './config.js';
export type { Config, PartialConfig, LoadConfigOptions } from './config.js';
export {
  NeardupError, ValidationError, InputError, ConfigError, IndexError, ParameterMismatchError, StorageError, CrawlError,
} from './errors.js';
export type * from './types.js';

// extraction: HTML in, main text out
export { parseHtml, extractPage, extractHtml } from './extract/extract-page.js';
export { scorePage, aggregateScores } from './extract/extraction-score.js';
export type { PageScore, ExtractionScore } from './extract/extraction-score.js';

// report: clusters, primaries, host mirrors
export { buildClusters, defaultPrimaryWeights } from './report/build-clusters.js';
export type { BuildClustersOptions } from './report/build-clusters.js';
export { choosePrimary, dateToleranceMs } from './report/choose-primary.js';
export type { PrimaryWeights, PrimaryCandidate, PrimaryChoice } from './report/choose-primary.js';
export { findHostMirrors } from './report/find-host-mirrors.js';
export type { HostMirrorOptions } from './report/find-host-mirrors.js';
export { loadClusterReport } from './report/load-cluster-report.js';
export { formatClustersJson } from './report/format-json.js';
export { formatClustersCsv } from './report/format-csv.js';
export { formatClustersHtml } from './report/format-html.js';
export type { HtmlReportOptions } from './report/format-html.js';
export { comparableUrl } from './report/comparable-url.js';
export type { ClusterReport, Cluster, ClusterMember, ClusterStats, HostMirror } from './report/cluster-report.js';
