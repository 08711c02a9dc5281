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
  CrawlLockedError, NoFeaturesError, WorkerCrashError, WorkerStartError,
} from './errors.js';
export { HASH_NAMES, FEATURE_WEIGHTINGS, SKIP_REASONS, SCOPE_MODES } from './types.js';
export type {
  Fingerprint, HashName, FeatureWeighting, FingerprintParams, TextAnalysis, ExtractedPage, DocumentMeta, IndexCandidate,
  Decision, SkipReason, StoredDocument, RejectedDocument, SkippedPage, ScopeMode, PageInput, PipelineCounters,
} from './types.js';

// extraction: HTML in, main text out
export { extractHtml, extractPage } from './extract/extract-page.js';
export type { ParsedHtml } from './extract/extract-page.js';
export { scorePage, aggregateScores } from './extract/extraction-score.js';
export type { PageScore, ExtractionScore } from './extract/extraction-score.js';

// analysis: text (or a page) in, fingerprint out
export { analyzeText, fingerprintParamsFrom, StemCache } from './analyze/analyze-text.js';
export { analyzeHtml } from './analyze/analyze-html.js';
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
export { PgFingerprintIndex } from './fingerprint-index/postgres/pg-fingerprint-index.js';
export type { PgIndexOptions } from './fingerprint-index/postgres/pg-fingerprint-index.js';
export type { IndexBackend } from './fingerprint-index/index-backend.js';
export { openIndexBackend } from './fingerprint-index/open-index-backend.js';

// pipeline, crawl and batch dedup: pages in, decisions and a corpus out
export { Pipeline } from './pipeline.js';
export type { PipelineOptions, CommitResult } from './pipeline.js';
export { corpusFileName, databaseFileName } from './store/data-folder.js';
export { crawl } from './crawl/crawl.js';
export type { CrawlOptions, CrawlSummary, CrawlProgress, CrawlPageEvent } from './crawl/crawl.js';
export { dedupBatch } from './batch/dedup-batch.js';
export type { BatchSummary, BatchProgress, DedupBatchOptions } from './batch/dedup-batch.js';
export type { BatchProblem } from './input/batch-entry.js';

// the crawlee plug-in: neardup inside any crawlee crawler (CheerioCrawler, PlaywrightCrawler, ...)
export { Deduplicator } from './crawlee/deduplicator.js';
export type { DeduplicatorOptions, Verdict, VerdictMatch, JudgeSource, EnqueueLinksContext } from './crawlee/deduplicator.js';
export type { CrawlingContextLike, CrawleeRequestLike, PageLike } from './crawlee/read-page-source.js';

// report: clusters, primaries, host mirrors
export { loadClusterReport } from './report/load-cluster-report.js';
export { buildClusters } from './report/build-clusters.js';
export type { BuildClustersOptions } from './report/build-clusters.js';
export type { PrimaryWeights } from './primary/choose-primary.js';
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

// search-result filtering: a ranked result list in, near-duplicate results collapsed by query class out
export { filterResults } from './filter/filter-results.js';
export type { SearchResult, ResultList, DuplicateResult, KeptResult, FilteredList, FilterSettings, FilterOptions } from './filter/filter-results.js';
export { classifyQuery, QUERY_INTENTS } from './filter/classify-query.js';
export type { QueryClassification, QueryIntent } from './filter/classify-query.js';
export { QUERY_CLASSES, STRICTNESS_LEVELS, CLASS_STRICTNESS, parseQueryClass } from './filter/query-class.js';
export type { QueryClass, StrictnessLevel } from './filter/query-class.js';
export { jaccard, synonymJaccard } from './filter/jaccard.js';
export { annotationWordSets } from './filter/annotation-words.js';
export { loadSynonymDictionary } from './synonyms/synonym-dictionary.js';
export type { SynonymDictionary, SynonymDictionaryOptions } from './synonyms/synonym-dictionary.js';
export { parseSynonymClasses } from './synonyms/parse-synonym-classes.js';
export { stemEnglish } from './text/english-stemmer.js';

// the cascade of offline flags (homoglyph, generated, synonymised, compiled): crawl and dedup run it; the library API
export { runCascade } from './cascade/run-cascade.js';
export type { CascadeContext, CascadeResult } from './cascade/run-cascade.js';
export { MemoryCascadeStore } from './cascade/cascade-store.js';
export type { CascadeStore, StoredCascadePage } from './cascade/cascade-store.js';
