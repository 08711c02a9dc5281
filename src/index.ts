/** The library API of neardup, exported by name. */
export { loadConfig, parseConfig, defaultConfig, configSchema } from './config.js';
export type { Config, PartialConfig, LoadConfigOptions } from './config.js';
export {
  NeardupError, ValidationError, InputError, ConfigError, IndexError, ParameterMismatchError, StorageError, CrawlError,
  NoFeaturesError, WorkerCrashError, WorkerStartError,
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

// fingerprint: text in, fingerprint out (each stage usable alone)
export { analyzeText, analyzeHtml, fingerprintParamsFrom } from './analyze/analyze-text.js';
export type { AnalyzeOptions } from './analyze/analyze-text.js';
export { normalizeText } from './text/normalize-text.js';
export { foldHomoglyphs, dominantScript } from './text/fold-homoglyphs.js';
export { HOMOGLYPH_CLASSES } from './text/homoglyph-table.js';
export type { HomoglyphClass } from './text/homoglyph-table.js';
export { tokenize, tokenizeParagraphs } from './text/tokenize.js';
export { tokenTable, tokenString } from './text/token-table.js';
export type { TokenTable } from './text/token-table.js';
export { detectLanguage, francMin } from './text/detect-language.js';
export type { DetectLanguageOptions } from './text/detect-language.js';
export { removeStopWordsAndStem, removeStopWordsAndStemParagraphs } from './text/remove-stop-words-and-stem.js';
export type { StemOptions } from './text/remove-stop-words-and-stem.js';
export { stopWordsFor, createStemmer, STEMMED_LANGUAGES, STOPWORD_LANGUAGES } from './text/language-resources.js';
export { stemEnglish } from './text/english-stemmer.js';
export { stemRussian } from './text/russian-stemmer.js';
export { stemGerman } from './text/german-stemmer.js';
export { StemCache } from './text/stem-cache.js';
export type { StemCacheOptions } from './text/stem-cache.js';
export { shingles, paragraphShingles } from './text/shingles.js';
export { NORMALIZER_VERSION } from './text/normalizer-version.js';
export { rabin64, RABIN_POLYNOMIAL } from './fingerprint/rabin-hash.js';
export { murmur64 } from './fingerprint/murmur-hash.js';
export { hash64 } from './fingerprint/hash64.js';
export { HASH_NAMES } from './types.js';
export { simhashFromHashes, simhashFeatures } from './fingerprint/simhash.js';
export { hashFeatures, fingerprintWords, fingerprintParagraphs } from './fingerprint/fingerprint-words.js';
export { textHash } from './fingerprint/text-hash.js';
export {
  popcount32, hammingDistance, fingerprintToHex, fingerprintFromHex, fingerprintToBigInt, fingerprintFromBigInt,
} from './fingerprint/fingerprint-codec.js';

// batch dedup of existing corpora, and pair evaluation
export { dedupBatch, dedupEntries, analyseBatch } from './batch/dedup-batch.js';
export type { BatchSummary, BatchProgress, DedupBatchOptions, DedupEntriesOptions, Analyser } from './batch/dedup-batch.js';
export { readInputs, resolveInputs, walkFolder } from './input/read-inputs.js';
export type { ResolvedInput } from './input/read-inputs.js';
export { readJsonl } from './input/read-jsonl.js';
export { readWarc } from './input/read-warc.js';
export { decodeHtmlBytes } from './input/decode-html-bytes.js';
export { AnalyzePool } from './batch/analyze-pool.js';
export type { BatchEntry, BatchProblem, ReaderOptions, JsonlLineEntry } from './input/batch-entry.js';
export type { AnalyzeItem, AnalyzeResult } from './batch/analyze-item.js';
export { evaluatePairs } from './eval/evaluate-pairs.js';
export type { EvalReport, EvaluatePairsOptions, PairOutcome, KindFigures } from './eval/evaluate-pairs.js';
export { thresholdMetrics, bestThreshold } from './eval/threshold-metrics.js';
export type { ThresholdRow, LabelledDistance } from './eval/threshold-metrics.js';
export { parsePairs } from './eval/parse-pairs.js';
export { formatEvalReport } from './eval/format-eval-report.js';

// index: fingerprint in, decision out
export { FingerprintIndex } from './fingerprint-index/fingerprint-index.js';
export { SKIP_REASONS } from './types.js';
export type { IndexOptions, Match, IndexStats } from './fingerprint-index/fingerprint-index.js';
export { blockLayout, blocksOf } from './fingerprint-index/block-layout.js';
export { MAX_DISTANCE } from './fingerprint/fingerprint-params.js';
export type { BlockLayout } from './fingerprint-index/block-layout.js';

// pipeline and crawl
export { analyzePage, analyzeParsedPage } from './analyze/analyze-page.js';
export { Pipeline } from './pipeline.js';
export { corpusFileName, databaseFileName } from './store/data-folder.js';
export type { AnalyzedPage } from './analyze/analyze-page.js';
export type { PipelineOptions } from './pipeline.js';
export { crawl } from './crawl/crawl.js';
export type { CrawlOptions, CrawlSummary, CrawlProgress, CrawlPageEvent } from './crawl/crawl.js';
