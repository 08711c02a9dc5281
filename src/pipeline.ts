/**
 * The one place that wires the stages together:
 *   extract (HTML → ExtractedPage) → text (normalise, tokens, stop words, stems, shingles)
 *   → fingerprint (hash64, simhash) → index (check-and-insert) → store (corpus.jsonl).
 *
 * Two halves, so that batch dedup can run the pure half in worker threads:
 * - analyze*: pure, no I/O, safe in any thread (text or HTML in, AnalyzedPage out).
 * - Pipeline: holds the index and the corpus writer; commits analysed pages in order.
 */
import type { FingerprintParams, TextAnalysis } from './types.js';

// ============================================================ analysis (text → fingerprint)
// Owned by the fingerprint core. Composes src/text/ and src/fingerprint/.

import type { Config as AnalysisConfig } from './config.js';
import { ValidationError as AnalysisValidationError, describeValue as describeAnalysisValue } from './errors.js';
import { extractHtml } from './extract/extract-page.js';
import { analyzeNormalizedText } from './fingerprint/analyze-normalized-text.js';
import { assertFingerprintParams } from './fingerprint/fingerprint-params.js';
import { normalizeText } from './text/normalize-text.js';
import { NORMALIZER_VERSION } from './text/normalizer-version.js';
import type { StemCache } from './text/stem-cache.js';
import type { ExtractedPage as AnalysisPage } from './types.js';

/** Options of {@link analyzeText} that do not change fingerprint values. */
export interface AnalyzeOptions {
  /**
   * Stems kept across calls; give one per thread to a long run (it serves the languages stemmed
   * through snowball-stemmers' code, the costliest per word). Without it each call memoises its own
   * document's stems.
   */
  readonly stemCache?: StemCache | undefined;
}

/** The fingerprint parameters of a config section, with this build's normaliser version. */
export function fingerprintParamsFrom(settings: AnalysisConfig['fingerprint']): FingerprintParams {
  return {
    distance: settings.distance,
    shingleSize: settings.shingleSize,
    hash: settings.hash,
    weighting: settings.weighting,
    normalizerVersion: NORMALIZER_VERSION,
  };
}

/** The shared check of fingerprint parameters, and this build's normaliser version. */
function assertAnalysisParams(params: FingerprintParams): void {
  assertFingerprintParams(params);
  const { normalizerVersion } = params;
  if (normalizerVersion !== NORMALIZER_VERSION) {
    throw new AnalysisValidationError(
      `Expected \`normalizerVersion\` to be ${NORMALIZER_VERSION} (this build's normaliser), got ${describeAnalysisValue(normalizerVersion)}`,
    );
  }
}

/**
 * Text in, fingerprint out: normalise (NFKC, look-alike letters, lower case) → tokens by paragraph
 * → language → stop words and stems → shingles (within paragraphs) → feature hashes → simhash.
 * Pure; safe in any thread.
 */
export function analyzeText(text: string, params: FingerprintParams, options: AnalyzeOptions = {}): TextAnalysis {
  if (typeof text !== 'string') throw new AnalysisValidationError(`Expected \`text\` to be a string, got ${describeAnalysisValue(text)}`);
  assertAnalysisParams(params);
  // The stages composed one by one (tokenizeParagraphs, detectLanguage, removeStopWordsAndStemParagraphs,
  // fingerprintParagraphs, textHash) give the same values; this path does each distinct token's work once.
  return analyzeNormalizedText(normalizeText(text), params, options.stemCache);
}

/** HTML in: the page's main text (src/extract/) and its analysis. */
export function analyzeHtml(html: string, params: FingerprintParams, url?: string, options: AnalyzeOptions = {}): { page: AnalysisPage; analysis: TextAnalysis } {
  const page = extractHtml(html, url);
  return { page, analysis: analyzeText(page.text, params, options) };
}

// ============================================================ pages and the index
// Owned by the crawl/pipeline work. Composes src/extract/, analyzeText, src/fingerprint-index/, src/store/.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CheerioAPI } from 'cheerio';
import type { Config } from './config.js';
import { StorageError, ValidationError, describeValue } from './errors.js';
import { extractPage, parseHtml } from './extract/extract-page.js';
import { fingerprintToHex } from './fingerprint/fingerprint-codec.js';
import { FingerprintIndex } from './fingerprint-index/fingerprint-index.js';
import { CorpusWriter, type CorpusRecord } from './store/corpus-writer.js';
import { faultFreezeFromEnv, freezeForever, type FaultFreeze, type FaultFreezePhase } from './store/fault-freeze.js';
import { corpusFileName as corpusFile, databaseFileName as databaseFile } from './store/data-folder.js';
import { StemCache as PageStemCache } from './text/stem-cache.js';
import type { Decision, DocumentMeta, ExtractedPage, IndexCandidate, PageInput, PipelineCounters, SkipReason } from './types.js';

export { corpusFileName, databaseFileName } from './store/data-folder.js';

/**
 * One page after the pure half of the pipeline: extracted and fingerprinted, or marked to skip.
 * Plain data (structured-clone-able), so it can cross worker threads.
 */
export interface AnalyzedPage {
  readonly url: string;
  /** URL after redirects, or null when none happened. */
  readonly finalUrl: string | null;
  /** What extraction found; kept for skipped pages too (their links may still be followed). Null for text input. */
  readonly page: ExtractedPage | null;
  /** Null when the page is skipped before fingerprinting (no text, too short, parse error). */
  readonly analysis: TextAnalysis | null;
  /** Why the page is not judged, or null when it goes to the index. */
  readonly skip: { readonly reason: SkipReason; readonly detail: string } | null;
  readonly meta: DocumentMeta;
  /** The main text (what corpus.jsonl stores); '' when it is given as `textJson`. */
  readonly text: string;
  /**
   * The main text as the UTF-8 bytes of its JSON string, instead of `text`: batch dedup's workers
   * send texts back so, as the main thread only writes them to corpus.jsonl.
   */
  readonly textJson?: Uint8Array;
}

/** Parses a page's HTML once; hand the result to {@link analyzeParsedPage}. */
export function parsePage(html: string): CheerioAPI {
  return parseHtml(html);
}

function skippedPage(input: PageInput, reason: SkipReason, detail: string, page: ExtractedPage | null = null): AnalyzedPage {
  const finalUrl = input.finalUrl !== undefined && input.finalUrl !== null && input.finalUrl !== input.url ? input.finalUrl : null;
  return {
    url: input.url,
    finalUrl,
    page,
    analysis: null,
    skip: { reason, detail },
    meta: {
      url: input.url,
      finalUrl,
      title: page?.title ?? '',
      fetchedAt: input.fetchedAt ?? Date.now(),
      lastModified: input.lastModified ?? null,
      depth: input.depth ?? null,
    },
    text: page?.text ?? '',
  };
}

/** Fingerprints a page's main text (extracted already, or given as text) and decides whether the index should judge it. */
function analyzeExtracted(input: PageInput, page: ExtractedPage | null, text: string, title: string, config: Config, options: AnalyzeOptions): AnalyzedPage {
  if (text.trim() === '') return skippedPage(input, 'no-text', page === null ? 'empty text' : 'no main text found', page);
  const analysis = analyzeText(text, fingerprintParamsFrom(config.fingerprint), options);
  const minTokens = config.fingerprint.minTokens;
  if (analysis.tokenCount < minTokens) {
    return { ...skippedPage(input, 'too-short', `${analysis.tokenCount} tokens, fewer than minTokens ${minTokens}`, page), text };
  }
  if (analysis.fingerprint === null) return { ...skippedPage(input, 'no-text', 'no features to fingerprint', page), text };
  const finalUrl = input.finalUrl !== undefined && input.finalUrl !== null && input.finalUrl !== input.url ? input.finalUrl : null;
  return {
    url: input.url,
    finalUrl,
    page,
    analysis,
    skip: null,
    meta: {
      url: input.url,
      finalUrl,
      title,
      language: analysis.language,
      textLength: text.length,
      fetchedAt: input.fetchedAt ?? Date.now(),
      canonicalUrl: page?.canonicalUrl ?? null,
      publishedAt: page?.publishedAt ?? null,
      lastModified: input.lastModified ?? null,
      depth: input.depth ?? null,
    },
    text,
  };
}

/**
 * The crawl's path: a page parsed once (by {@link parsePage}, or crawlee's `$`) → extraction →
 * fingerprint. Pure. Links resolve against the final URL.
 */
export function analyzeParsedPage($: CheerioAPI, input: PageInput, config: Config, options: AnalyzeOptions = {}): AnalyzedPage {
  let page: ExtractedPage;
  try {
    page = extractParsedPage($, input);
  } catch (error) {
    return skippedPage(input, 'parse-error', (error as Error).message);
  }
  return analyzeExtractedPage(input, page, config, options);
}

/** Extraction alone, from a parsed page (links resolve against the final URL). Throws what the extractor throws. */
export function extractParsedPage($: CheerioAPI, input: PageInput): ExtractedPage {
  return extractPage($, input.finalUrl ?? input.url);
}

/**
 * The half after extraction: fingerprints an extracted page's text and decides whether the index
 * should judge it. Plain data in and out, so it can run in a worker thread while the thread that
 * parsed the page goes on (see src/crawl/analysis-thread.ts).
 */
export function analyzeExtractedPage(input: PageInput, page: ExtractedPage, config: Config, options: AnalyzeOptions = {}): AnalyzedPage {
  return analyzeExtracted(input, page, page.text, page.title, config, options);
}

/**
 * A page or document in, analysed: extracts the main text when `html` is given, otherwise uses
 * `text`; then fingerprints it. Pure (no I/O), so safe in worker threads. Too little text gives a
 * skip reason (`no-text`, `too-short` below `fingerprint.minTokens`) rather than a fingerprint
 * that would match every other empty page.
 */
export function analyzePage(input: PageInput, config: Config, options: AnalyzeOptions = {}): AnalyzedPage {
  if (typeof input.html === 'string') {
    let $: CheerioAPI;
    try {
      $ = parseHtml(input.html);
    } catch (error) {
      return skippedPage(input, 'parse-error', (error as Error).message);
    }
    return analyzeParsedPage($, input, config, options);
  }
  if (typeof input.text === 'string') {
    const title = typeof input.extra?.title === 'string' ? input.extra.title : '';
    return analyzeExtracted(input, null, input.text, title, config, options);
  }
  return skippedPage(input, 'no-text', 'neither html nor text given');
}

export interface PipelineOptions {
  /** Folder of the database (neardup.db) and the corpus (corpus.jsonl); created if missing. */
  readonly dataDir: string;
  readonly config: Config;
}

/** A page the index stored, with its id: its corpus line is due. */
interface StoredPage {
  readonly analyzed: AnalyzedPage;
  readonly id: number;
}

function newCounters(): PipelineCounters {
  return { processed: 0, stored: 0, exact: 0, near: 0, skipped: 0, skippedBy: {}, errors: 0 };
}

/**
 * The stateful half: the fingerprint index and the corpus writer of one data folder. Commits
 * analysed pages in order, records skips and links, and counts what happened.
 *
 * A URL committed again (a resumed crawl, a re-run batch) gets its earlier decision from the
 * index and writes nothing new — except the corpus line of a stored document that lacks one
 * (see src/store/corpus-writer.ts, invariant 4).
 */
export class Pipeline {
  /** What this pipeline has done since it was opened. */
  readonly counters: PipelineCounters = newCounters();
  readonly dataDir: string;
  readonly config: Config;
  readonly index: FingerprintIndex;
  /** Stems kept across the pages this pipeline analyses itself (`process`). */
  readonly stemCache = new PageStemCache();
  private readonly corpus: CorpusWriter;
  private closed = false;
  /** The kill tests' hook (src/store/fault-freeze.ts); null in every normal run. */
  private readonly faultFreeze: FaultFreeze | null = faultFreezeFromEnv();
  /** Corpus lines this pipeline has appended (counted only for the hook). */
  private linesWritten = 0;

  private constructor(dataDir: string, config: Config, index: FingerprintIndex, corpus: CorpusWriter) {
    this.dataDir = dataDir;
    this.config = config;
    this.index = index;
    this.corpus = corpus;
  }

  /** Opens (or creates) `<dataDir>/neardup.db` and `<dataDir>/corpus.jsonl`. */
  static open(options: PipelineOptions): Pipeline {
    const { dataDir, config } = options;
    if (typeof dataDir !== 'string' || dataDir.trim() === '') {
      throw new ValidationError(`Expected \`data\` to be a folder path, got ${describeValue(dataDir)}`);
    }
    try {
      mkdirSync(dataDir, { recursive: true });
    } catch (error) {
      throw new StorageError(`Cannot create data folder \`${dataDir}\`: ${(error as Error).message}`, { cause: error });
    }
    const index = FingerprintIndex.open(join(dataDir, databaseFile), { params: fingerprintParamsFrom(config.fingerprint) });
    let corpus: CorpusWriter;
    try {
      corpus = CorpusWriter.open(join(dataDir, corpusFile));
    } catch (error) {
      index.close();
      throw error;
    }
    return new Pipeline(dataDir, config, index, corpus);
  }

  /** Extracts, fingerprints and commits one page. */
  process(input: PageInput): Decision {
    return this.commit(analyzePage(input, this.config, { stemCache: this.stemCache }));
  }

  /** Sends one analysed page to the index (or records its skip), then writes the corpus line of a stored page. */
  commit(analyzed: AnalyzedPage): Decision {
    this.assertOpen();
    const candidate = this.candidateOf(analyzed);
    if (candidate === null) return this.skip(analyzed);
    const decision = this.index.checkAndInsert(candidate);
    if (decision.kind === 'stored') this.writeCorpusLines([{ analyzed, id: decision.id }]);
    this.afterDecision(analyzed, decision);
    return decision;
  }

  /**
   * Like {@link commit} for many pages: the index writes in one transaction, then the corpus lines
   * of the stored pages under one hold of the write lock, in one append. Decisions in input order.
   */
  commitMany(pages: readonly AnalyzedPage[]): Decision[] {
    this.assertOpen();
    const decisions: (Decision | undefined)[] = new Array(pages.length);
    const candidates: IndexCandidate[] = [];
    const positions: number[] = [];
    for (let i = 0; i < pages.length; i++) {
      const candidate = this.candidateOf(pages[i]!);
      if (candidate === null) continue;
      candidates.push(candidate);
      positions.push(i);
    }
    const judged = candidates.length === 0 ? [] : this.index.checkAndInsertMany(candidates);
    const stored: StoredPage[] = [];
    for (let j = 0; j < positions.length; j++) {
      const decision = judged[j]!;
      decisions[positions[j]!] = decision;
      if (decision.kind === 'stored') stored.push({ analyzed: pages[positions[j]!]!, id: decision.id });
    }
    // After the inserts committed (invariant 1), all under one hold of the write lock (invariant 5).
    this.writeCorpusLines(stored);
    for (let j = 0; j < positions.length; j++) this.afterDecision(pages[positions[j]!]!, judged[j]!);
    for (let i = 0; i < pages.length; i++) decisions[i] ??= this.skip(pages[i]!);
    return decisions as Decision[];
  }

  /** Records a page that was not processed (fetch failure, robots, scope, ...). */
  recordSkip(url: string, reason: SkipReason, detail?: string): void {
    this.assertOpen();
    this.index.recordSkip(url, reason, detail);
    this.countSkip(reason);
  }

  /** Counts a failure that is not a page's fault (an unexpected error while handling it). */
  countError(): void {
    this.counters.errors++;
  }

  /** Closes the corpus (flushed to disk) and the index. Safe to call twice. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.corpus.close();
    } finally {
      this.index.close();
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new StorageError(`The pipeline of \`${this.dataDir}\` is closed`);
  }

  private candidateOf(analyzed: AnalyzedPage): IndexCandidate | null {
    if (analyzed.skip !== null || analyzed.analysis === null || analyzed.analysis.fingerprint === null) return null;
    return { ...analyzed.meta, fingerprint: analyzed.analysis.fingerprint, textHash: analyzed.analysis.textHash };
  }

  private skip(analyzed: AnalyzedPage): Decision {
    const reason = analyzed.skip?.reason ?? 'no-text';
    this.recordSkip(analyzed.url, reason, analyzed.skip?.detail ?? 'no fingerprint');
    // A page too short to judge (a home page, a list of articles) still cites the pages it links to.
    this.recordLinksOf(analyzed);
    return { kind: 'skipped', reason };
  }

  private countSkip(reason: SkipReason): void {
    this.counters.processed++;
    this.counters.skipped++;
    this.counters.skippedBy[reason] = (this.counters.skippedBy[reason] ?? 0) + 1;
  }

  /** Counts a decision and records the page's links (a stored page's corpus line is written before). */
  private afterDecision(analyzed: AnalyzedPage, decision: Decision): void {
    this.counters.processed++;
    if (decision.kind === 'stored') {
      this.counters.stored++;
    } else if (decision.kind === 'exact') {
      this.counters.exact++;
    } else if (decision.kind === 'near') {
      this.counters.near++;
    } else {
      this.counters.skipped++;
      this.counters.skippedBy[decision.reason] = (this.counters.skippedBy[decision.reason] ?? 0) + 1;
    }
    this.recordLinksOf(analyzed);
  }

  /**
   * Writes the corpus lines of stored documents, after their inserts committed (corpus-writer.ts,
   * invariant 1), in one append. Under the index's write lock, after reading what other processes
   * appended: two processes that meet the same stored document never both write its line
   * (invariant 5). A line is the database's record with the page's text; when the page was judged
   * earlier (a line lost in a crash, invariant 4) and its text has changed since, nothing is
   * written: the text that was judged is gone, and another text must not go out under its id.
   */
  private writeCorpusLines(stored: readonly StoredPage[]): void {
    if (stored.length === 0) return;
    this.index.exclusive(() => {
      this.corpus.refresh();
      const records: CorpusRecord[] = [];
      for (const { analyzed, id } of stored) {
        if (this.corpus.has(id)) continue;
        const doc = this.index.get(id);
        if (doc === undefined || doc.textHash !== analyzed.analysis?.textHash) continue;
        records.push({
          id,
          url: doc.url,
          finalUrl: doc.finalUrl ?? null,
          title: doc.title ?? '',
          language: doc.language ?? 'und',
          text: analyzed.text,
          ...(analyzed.textJson === undefined ? {} : { textJson: analyzed.textJson }),
          fingerprint: fingerprintToHex(doc.fingerprint),
          fetchedAt: doc.fetchedAt === undefined ? null : new Date(doc.fetchedAt).toISOString(),
        });
      }
      this.checkFaultFreeze('before-corpus', records.length);
      this.corpus.appendMany(records);
      this.linesWritten += records.length;
    });
    this.checkFaultFreeze('after-corpus', 0);
  }

  /** Freezes this thread for good when the kill tests' hook asks for it at this point (see fault-freeze.ts). */
  private checkFaultFreeze(phase: FaultFreezePhase, due: number): void {
    const hook = this.faultFreeze;
    if (hook === null || hook.phase !== phase || this.linesWritten + due < hook.afterStored) return;
    freezeForever(`${phase} after ${this.linesWritten + due} new stored documents`);
  }

  private recordLinksOf(analyzed: AnalyzedPage): void {
    const links = analyzed.page?.links ?? [];
    if (links.length > 0) this.index.recordLinks(analyzed.url, links);
  }
}
