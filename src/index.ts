/**
 * The library API of neardup, exported by name, per area. Each stage works on its own — HTML in,
 * main text out (extraction); text in, fingerprint out (analysis); fingerprint in, decision out
 * (index) — and together (Pipeline, crawl, dedupBatch), then the report and the evaluation.
 * Internals (token tables, stemmers, hash functions, worker pools, readers) stay internal.
 */

// configuration, errors and the records passed between stages
export { loadConfig, parseConfig, defaultConfig } from './config.js';
export type { Config, PartialConfig, LoadConfigOptions } from './config.js';
export {
  NeardupError, ValidationError, InputError, ConfigError, IndexError, ParameterMismatchError, StorageError, CrawlError,
  NoFeaturesError, WorkerCrashError, WorkerStartError,
} from './errors.js';
export { HASH_NAMES, FEATURE_WEIGHTINGS, SKIP_REASONS, SCOPE_MODES } from './types.js';
export type {
  Fingerprint, HashName, FeatureWeighting, FingerprintParams, TextAnalysis, ExtractedPage, DocumentMeta, IndexCandidate,
  Decision, SkipReason, StoredDocument, RejectedDocument, SkippedPage, ScopeMode, PageInput, PipelineCounters,
} from './types.js';

// extraction: HTML in, main text out
export { extractHtml, extractPage } from './extract/extract-page.js';
export { scorePage, aggregateScores } from './extract/extraction-score.js';
export type { PageScore, ExtractionScore } from './extract/extraction-score.js';

// analysis: text (or a page) in, fingerprint out
export { analyzeText, analyzeHtml, fingerprintParamsFrom, StemCache } from './analyze/analyze-text.js';
export type { AnalyzeOptions } from './analyze/analyze-text.js';
export { analyzePage } from './analyze/analyze-page.js';
export type { AnalyzedPage } from './analyze/analyze-page.js';
export { normalizeText } from './text/normalize-text.js';
export { NORMALIZER_VERSION } from './text/normalizer-version.js';
export { hammingDistance, fingerprintToHex, fingerprintFromHex } from './fingerprint/fingerprint-codec.js';
export { MAX_DISTANCE } from './fingerprint/fingerprint-params.js';

// index: fingerprint in, decision out
export { FingerprintIndex } from './fingerprint-index/fingerprint-index.js';
export type { IndexOptions, Match, IndexStats } from './fingerprint-index/fingerprint-index.js';

// pipeline, crawl and batch dedup: pages in, decisions and a corpus out
export { Pipeline } from './pipeline.js';
export type { PipelineOptions, CommitResult } from './pipeline.js';
export { corpusFileName, databaseFileName } from './store/data-folder.js';
export { crawl } from './crawl/crawl.js';
export type { CrawlOptions, CrawlSummary, CrawlProgress, CrawlPageEvent } from './crawl/crawl.js';
export { dedupBatch } from './batch/dedup-batch.js';
export type { BatchSummary, BatchProgress, DedupBatchOptions } from './batch/dedup-batch.js';
export type { BatchProblem } from './input/batch-entry.js';

// report: clusters, primaries, host mirrors
export { loadClusterReport } from './report/load-cluster-report.js';
export { buildClusters } from './report/build-clusters.js';
export type { BuildClustersOptions } from './report/build-clusters.js';
export type { PrimaryWeights } from './report/choose-primary.js';
export { formatClustersJson } from './report/format-json.js';
export { formatClustersCsv } from './report/format-csv.js';
export { formatClustersHtml } from './report/format-html.js';
export type { HtmlReportOptions } from './report/format-html.js';
export type { ClusterReport, Cluster, ClusterMember, ClusterStats, HostMirror } from './report/cluster-report.js';

// evaluation: labelled pairs in, precision / recall / F1 out
export { evaluatePairs } from './eval/evaluate-pairs.js';
export type { EvalReport, EvaluatePairsOptions, PairOutcome, KindFigures } from './eval/evaluate-pairs.js';
export { thresholdMetrics, bestThreshold } from './eval/threshold-metrics.js';
export type { ThresholdRow, LabelledDistance } from './eval/threshold-metrics.js';
export { formatEvalReport } from './eval/format-eval-report.js';
