/**
 * The committing half: analysed pages in (src/analyze/), index decision (src/fingerprint-index/),
 * then the corpus line of a stored page (src/store/), with counters. The one place that commits:
 * the crawl (src/crawl/) and batch dedup (src/batch/) hand their pages here.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeExtractedPage, analyzePage, type AnalyzedPage } from './analyze/analyze-page.js';
import type { Config } from './config.js';
import { StorageError, ValidationError, describeValue } from './errors.js';
import { fingerprintToHex } from './fingerprint/fingerprint-codec.js';
import { fingerprintParamsFrom } from './analyze/analyze-text.js';
import type { IndexBackend } from './fingerprint-index/index-backend.js';
import { openIndexBackend } from './fingerprint-index/open-index-backend.js';
import { CorpusWriter, type CorpusRecord } from './store/corpus-writer.js';
import { faultFreezeFromEnv, freezeForever, type FaultFreeze, type FaultFreezePhase } from './store/fault-freeze.js';
import { corpusFileName, databaseFileName, refuseLinksInDataFolder, removeUnusedDataFolder } from './store/data-folder.js';
import { writerIdOf } from './store/writer-id.js';
import { StemCache } from './analyze/analyze-text.js';
import type { CascadeFlag, Decision, ExtractedPage, IndexCandidate, PageInput, PipelineCounters, SkipReason } from './types.js';
import { analyzeWithCascade, type CascadedPage } from './cascade/page-cascade.js';
import { CascadeCommitter, countFlags } from './cascade/cascade-committer.js';
import { openCascadeCommitter } from './pipeline/open-cascade-committer.js';
import { primarySwapStore } from './fingerprint-index/primary-swap.js';
import type { ConfirmedMirror } from './primary/host-mirror-evidence.js';
import { PrimarySwapper, type Swapped } from './pipeline/primary-swapper.js';
import { forgetSkips } from './fingerprint-index/forget-skips.js';

/** What the crawl needs back for a committed page. */
export interface CommitResult {
  readonly decision: Decision;
  /** URL after redirects, or null. */
  readonly finalUrl: string | null;
  readonly title: string;
  /** Why a skipped page was skipped ('' otherwise). */
  readonly detail: string;
  /**
   * The host of the primary of the page's cluster when the page is a duplicate of a page on another
   * host (the crawl samples such pages' links to map a mirror), else null.
   */
  readonly copyOfHost?: string | null;
  /** Host mirrors this page's verdict confirmed (primary swap on). */
  readonly confirmedMirrors?: readonly ConfirmedMirror[];
}

export interface PipelineOptions {
  /** Folder of the database (neardup.db) and the corpus (corpus.jsonl); created if missing. */
  readonly dataDir: string;
  readonly config: Config;
  /** A PostgreSQL index shared by many processes instead of dataDir's neardup.db (corpus stays in dataDir). @default null */
  readonly indexUrl?: string | null;
  /**
   * The primary swap: a duplicate that is the better primary of its cluster (prefer-primary.ts) takes
   * the stored document's place, in the index and the corpus. The crawl turns it on. @default false
   */
  readonly primarySwap?: boolean;
}

/** A page the index stored, with its id: its corpus line is due. */
interface StoredPage {
  readonly analyzed: AnalyzedPage;
  readonly id: number;
  /** Its flags' kinds (corpus.jsonl `flags`), or null when the cascade is off. */
  readonly flags: readonly string[] | null;
}

function newCounters(): PipelineCounters {
  return { processed: 0, stored: 0, exact: 0, near: 0, similar: 0, skipped: 0, skippedBy: {}, errors: 0, flagged: {} };
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
  readonly index: IndexBackend;
  /** Stems kept across the pages this pipeline analyses itself (`process`). */
  readonly stemCache = new StemCache();
  private readonly corpus: CorpusWriter;
  /** The cascade's committing half (src/cascade/), or null when every stage is off. */
  private readonly cascade: CascadeCommitter | null;
  private closed = false;
  /** The kill tests' hook (src/store/fault-freeze.ts); null in every normal run. */
  private readonly faultFreeze: FaultFreeze | null = faultFreezeFromEnv();
  /** Corpus lines this pipeline has appended (counted only for the hook). */
  private linesWritten = 0;
  /** The primary swap and host mirror evidence, or null when the swap is off. */
  private readonly swapper: PrimarySwapper | null;

  private constructor(dataDir: string, config: Config, index: IndexBackend, corpus: CorpusWriter, cascade: CascadeCommitter | null, primarySwap: boolean) {
    this.swapper = primarySwap ? new PrimarySwapper(primarySwapStore(index, () => writerIdOf(dataDir)), config.report.primaryWeights, this.faultFreeze) : null;
    this.cascade = cascade;
    this.dataDir = dataDir;
    this.config = config;
    this.index = index;
    this.corpus = corpus;
  }

  /** Opens (or creates) `<dataDir>/neardup.db` (or the PostgreSQL index) and `<dataDir>/corpus.jsonl`. */
  static async open(options: PipelineOptions): Promise<Pipeline> {
    const { dataDir, config } = options;
    if (typeof dataDir !== 'string' || dataDir.trim() === '') {
      throw new ValidationError(`Expected \`data\` to be a folder path, got ${describeValue(dataDir)}`);
    }
    const existed = existsSync(dataDir);
    try {
      mkdirSync(dataDir, { recursive: true });
    } catch (error) {
      throw new StorageError(`Cannot create data folder \`${dataDir}\`: ${(error as Error).message}`, { cause: error });
    }
    refuseLinksInDataFolder(dataDir);
    const index = await openIndexBackend({
      sqlitePath: join(dataDir, databaseFileName), indexUrl: options.indexUrl ?? null, writer: () => writerIdOf(dataDir),
      params: fingerprintParamsFrom(config.fingerprint), verify: config.verify.enabled ? config.verify : null,
    }).catch((error: unknown) => {
      if (!existed) removeUnusedDataFolder(dataDir); // e.g. PostgreSQL unreachable: no --data left behind
      throw error;
    });
    let corpus: CorpusWriter | null = null;
    let cascade: CascadeCommitter | null;
    let pipeline: Pipeline;
    try {
      cascade = await openCascadeCommitter(config.cascade, index);
      corpus = CorpusWriter.open(join(dataDir, corpusFileName));
      pipeline = new Pipeline(dataDir, config, index, corpus, cascade, options.primarySwap === true);
      // A swap killed between its commit and its corpus lines left a displaced document's line live.
      await pipeline.supersedeDisplaced();
    } catch (error) {
      corpus?.close();
      await index.close();
      throw error;
    }
    return pipeline;
  }

  /**
   * Withdraws the corpus lines of documents no longer stored (displaced by a primary swap, here or
   * in another process of a PostgreSQL index), and compacts the corpus when `compact` (corpus-writer.ts,
   * invariant 6). Returns the lines superseded.
   */
  async supersedeDisplaced(compact = false): Promise<number> {
    if (this.swapper === null && this.corpus.supersededCount === 0) return 0;
    const displaced = this.swapper === null ? new Set<number>() : await this.swapper.displacedAmong(this.corpus.liveIds());
    return this.index.corpusTransaction([], () => {
      this.corpus.refresh();
      const superseded = this.corpus.supersede([...displaced].map((id) => ({ id, by: 0 })));
      if (compact) this.corpus.compact();
      return superseded;
    });
  }

  /** Extracts, fingerprints and commits one page. */
  process(input: PageInput): Promise<Decision> {
    return this.commit(analyzeWithCascade(this.config, { stemCache: this.stemCache }, (options) => analyzePage(input, this.config, options)));
  }

  /**
   * Analyses an extracted page (a crawled page, extracted by the crawl) and commits it. A page that
   * breaks the analysis is recorded (`parse-error`, counted as an error), never allowed to stop the
   * crawl; a failed write throws.
   */
  async commitExtracted(input: PageInput, page: ExtractedPage): Promise<CommitResult> {
    return (await this.commitExtractedMany([{ input, page }]))[0]!;
  }

  /**
   * {@link commitExtracted} for pages that arrived together (the crawl's dedup worker takes every
   * page waiting for it): committed as {@link commitMany} does, in one index transaction and one
   * corpus append. Results in input order.
   */
  async commitExtractedMany(items: readonly { readonly input: PageInput; readonly page: ExtractedPage }[]): Promise<CommitResult[]> {
    const results: (CommitResult | undefined)[] = new Array(items.length);
    const analyzed: CascadedPage[] = [];
    const positions: number[] = [];
    for (const [i, { input, page }] of items.entries()) {
      try {
        analyzed.push(analyzeWithCascade(this.config, { stemCache: this.stemCache }, (options) => analyzeExtractedPage(input, page, this.config, options)));
        positions.push(i);
      } catch (error) {
        const detail = (error instanceof Error ? error.message : String(error)).split('\n', 1)[0]!.slice(0, 300);
        this.countError();
        results[i] = { decision: await this.recordSkip(input.url, 'parse-error', detail), finalUrl: null, title: page.title, detail };
      }
    }
    const decisions = analyzed.length === 1 ? [await this.commit(analyzed[0]!)] : await this.commitMany(analyzed);
    const confirmed = this.swapper?.takeConfirmed() ?? [];
    positions.forEach((i, j) => {
      const page = analyzed[j]!;
      results[i] = {
        decision: decisions[j]!, finalUrl: page.finalUrl, title: page.meta.title ?? '', detail: page.skip?.detail ?? '',
        copyOfHost: this.swapper?.copyOfHost(page.url) ?? null, confirmedMirrors: j === 0 ? confirmed : [],
      };
    });
    this.swapper?.clearCopies();
    return results as CommitResult[];
  }

  /** Sends one analysed page to the index (or records its skip), then writes the corpus line of a stored page. */
  async commit(analyzed: CascadedPage): Promise<Decision> {
    // The cascade's writes ride on checkAndInsertMany's transaction.
    if (this.cascade !== null || this.swapper !== null) return (await this.commitMany([analyzed]))[0]!;
    this.assertOpen();
    const candidate = this.candidateOf(analyzed);
    if (candidate === null) return this.skip(analyzed);
    const decision = await this.index.checkAndInsert(candidate);
    if (decision.kind === 'stored') await this.writeCorpusLines([{ analyzed, id: decision.id, flags: null }]);
    await this.afterDecision(analyzed, decision);
    return decision;
  }

  /**
   * Like {@link commit} for many pages: the index writes in one transaction, then the corpus lines
   * of the stored pages under one hold of the write lock, in one append. Decisions in input order;
   * `flagsOut[i]`: the cascade's flags of page i, when given (left unset for a skipped page).
   */
  async commitMany(pages: readonly CascadedPage[], flagsOut?: (readonly CascadeFlag[])[]): Promise<Decision[]> {
    this.assertOpen();
    const decisions: (Decision | undefined)[] = new Array(pages.length);
    const candidates: IndexCandidate[] = [];
    const positions: number[] = [];
    for (let i = 0; i < pages.length; i++) {
      const page = pages[i]!;
      const candidate = this.candidateOf(page);
      if (candidate === null) continue;
      const spun = this.cascade?.preCheck(page.cascade) ?? null;
      if (spun !== null) {
        decisions[i] = await this.rejectSpun(page, spun, flagsOut, i);
        continue;
      }
      candidates.push(candidate);
      positions.push(i);
    }
    await this.cascade?.refresh();
    const flags: CascadeFlag[][] = [];
    const within = this.cascade === null ? undefined : (judged: readonly Decision[]) => {
      flags.push(...this.cascade!.afterDecisions(judged.map((decision, j) => ({ url: pages[positions[j]!]!.url, cascade: pages[positions[j]!]!.cascade, decision }))));
    };
    const judged = candidates.length === 0 ? [] : await this.index.checkAndInsertMany(candidates, within);
    // A backend that cannot run `within` in its transaction (PostgreSQL): right after it.
    if (within !== undefined && judged.length > 0 && this.index.callsWithin !== true) within(judged);
    let swapped: Swapped[] = [];
    if (this.swapper !== null) {
      swapped = await this.swapper.swapPrimaries(pages, positions, judged);
      await this.swapper.shareMirrors();
    }
    const stored: StoredPage[] = [];
    for (let j = 0; j < positions.length; j++) {
      const decision = judged[j]!;
      decisions[positions[j]!] = decision;
      if (this.cascade !== null) countFlags(this.counters.flagged!, flags[j] ?? []);
      if (flagsOut !== undefined) flagsOut[positions[j]!] = flags[j] ?? [];
      if (decision.kind === 'stored') stored.push({ analyzed: pages[positions[j]!]!, id: decision.id, flags: this.cascade === null ? null : (flags[j] ?? []).map((f) => f.kind) });
    }
    if (this.cascade !== null) {
      countFlags(this.counters.flagged!, this.cascade.takeLateFlags());
      const withdrawn = this.cascade.takeWithdrawn();
      if (withdrawn > 0) this.counters.flagged!.compiled = (this.counters.flagged!.compiled ?? 0) - withdrawn;
    }
    await this.cascade?.flush();
    // After the inserts committed (invariant 1), all under one hold of the write lock (invariant 5).
    await this.writeCorpusLines(stored, swapped);
    for (let j = 0; j < positions.length; j++) await this.afterDecision(pages[positions[j]!]!, judged[j]!);
    for (let i = 0; i < pages.length; i++) decisions[i] ??= await this.skip(pages[i]!);
    return decisions as Decision[];
  }

  /** A spun copy rejected before the index (`cascade.synonymised.action: reject`): a skip with its flags. */
  private async rejectSpun(page: CascadedPage, spun: NonNullable<ReturnType<CascadeCommitter['preCheck']>>, flagsOut: (readonly CascadeFlag[])[] | undefined, at: number): Promise<Decision> {
    const flags = this.cascade!.recordRejected(page.url, page.cascade, spun);
    if (flagsOut !== undefined) flagsOut[at] = flags;
    await this.cascade!.flush();
    const decision = await this.recordSkip(page.url, 'synonymised', `spun copy of ${spun.sourceUrl} (stems explained ${spun.explainedShare.toFixed(2)}, substituted ${spun.substitutedShare.toFixed(2)})`);
    if (decision.repeated !== true) countFlags(this.counters.flagged!, flags);
    await this.recordLinksOf(page);
    return decision;
  }

  /**
   * Records a page that was not processed (fetch failure, robots, scope, ...). Returns the URL's
   * decision: this skip, or the decision it got earlier (a URL is judged once; marked `repeated`).
   */
  async recordSkip(url: string, reason: SkipReason, detail?: string): Promise<Decision> {
    this.assertOpen();
    const decision = await this.index.recordSkip(url, reason, detail);
    if (decision.repeated === true) this.counters.processed++;
    else this.countSkip(reason);
    return decision;
  }

  /**
   * Forgets the skips of URLs recorded with one of `reasons` (a seed to be tried again: a URL is
   * judged once); resolves with the URLs forgotten. `uncount`: the skips were counted by this
   * pipeline (a retry within the run), so the counters drop them: a page counts once, by its last outcome.
   */
  async forgetSkips(urls: readonly string[], reasons: readonly SkipReason[], uncount = false): Promise<string[]> {
    this.assertOpen();
    const forgotten = await forgetSkips(this.index, urls, reasons);
    if (uncount) {
      for (const { reason } of forgotten) {
        this.counters.processed--;
        this.counters.skipped--;
        const left = (this.counters.skippedBy[reason] ?? 1) - 1;
        if (left > 0) this.counters.skippedBy[reason] = left;
        else delete this.counters.skippedBy[reason];
      }
    }
    return forgotten.map((f) => f.url);
  }

  /** Counts a failure that is not a page's fault (an unexpected error while handling it). */
  countError(): void {
    this.counters.errors++;
  }

  /**
   * Closes the corpus (flushed to disk; superseded lines compacted away) and the index. Safe to
   * call twice.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.supersedeDisplaced(true);
    } finally {
      this.closed = true;
    }
    try {
      this.corpus.close();
    } finally {
      await this.index.close();
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new StorageError(`The pipeline of \`${this.dataDir}\` is closed`);
  }

  private candidateOf(analyzed: AnalyzedPage): IndexCandidate | null {
    if (analyzed.skip !== null || analyzed.analysis === null || analyzed.analysis.fingerprint === null) return null;
    return { ...analyzed.meta, fingerprint: analyzed.analysis.fingerprint, textHash: analyzed.analysis.textHash, sketch: analyzed.analysis.sketch ?? null };
  }

  private async skip(analyzed: AnalyzedPage): Promise<Decision> {
    const reason = analyzed.skip?.reason ?? 'no-text';
    const decision = await this.recordSkip(analyzed.url, reason, analyzed.skip?.detail ?? 'no fingerprint');
    // A page too short to judge (a home page, a list of articles) still cites the pages it links to.
    await this.recordLinksOf(analyzed);
    return decision;
  }

  private countSkip(reason: SkipReason): void {
    this.counters.processed++;
    this.counters.skipped++;
    this.counters.skippedBy[reason] = (this.counters.skippedBy[reason] ?? 0) + 1;
  }

  /** Counts a decision and records the page's links (a stored page's corpus line is written before). */
  private async afterDecision(analyzed: AnalyzedPage, decision: Decision): Promise<void> {
    this.counters.processed++;
    // An earlier decision on the URL (a retried or re-processed page) is no new document: the
    // counts of a run are what it added to the data folder.
    if (decision.repeated !== true) this.countDecision(decision);
    await this.recordLinksOf(analyzed);
  }

  private countDecision(decision: Decision): void {
    if (decision.kind === 'stored') {
      this.counters.stored++;
      if (decision.replaced !== undefined) this.counters.replaced = (this.counters.replaced ?? 0) + 1;
    } else if (decision.kind === 'exact') {
      this.counters.exact++;
    } else if (decision.kind === 'near') {
      this.counters.near++;
    } else if (decision.kind === 'similar') {
      this.counters.similar++;
    } else {
      this.counters.skipped++;
      this.counters.skippedBy[decision.reason] = (this.counters.skippedBy[decision.reason] ?? 0) + 1;
    }
  }

  /**
   * Writes the corpus lines of stored documents, after their inserts committed (corpus-writer.ts,
   * invariant 1), in one append, in the index's corpusTransaction (SQLite: under its write lock, after
   * reading what other processes appended, so two never both write a line, invariant 5; PostgreSQL:
   * only this writer's documents). A line is the database's record with the page's text; when the page was judged
   * earlier (a line lost in a crash, invariant 4) and its text has changed since, nothing is
   * written: the text that was judged is gone, and another text must not go out under its id.
   */
  private async writeCorpusLines(stored: readonly StoredPage[], swapped: readonly Swapped[] = []): Promise<void> {
    if (stored.length === 0) return;
    await this.index.corpusTransaction(stored.map((s) => s.id), (docs) => {
      this.corpus.refresh();
      const records: CorpusRecord[] = [];
      for (const { analyzed, id, flags } of stored) {
        if (this.corpus.has(id)) continue;
        const doc = docs.get(id);
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
          ...(flags === null ? {} : { flags }),
          ...(analyzed.fields === undefined ? {} : { fields: analyzed.fields }),
        });
      }
      this.checkFaultFreeze('before-corpus', records.length);
      this.corpus.appendMany(records);
      this.linesWritten += records.length;
      // The displaced documents' lines, withdrawn only once the lines that replace them are written.
      const withdrawn = swapped.filter((s) => this.corpus.isLive(s.id) || docs.has(s.id)).map((s) => ({ id: s.replaced.id, by: s.id }));
      if (withdrawn.length > 0) this.corpus.supersede(withdrawn);
    });
    this.checkFaultFreeze('after-corpus', 0);
  }

  /** Freezes this thread for good when the kill tests' hook asks for it at this point (see fault-freeze.ts). */
  private checkFaultFreeze(phase: FaultFreezePhase, due: number): void {
    const hook = this.faultFreeze;
    if (hook === null || hook.phase !== phase || this.linesWritten + due < hook.afterStored) return;
    freezeForever(`${phase} after ${this.linesWritten + due} new stored documents`);
  }

  private async recordLinksOf(analyzed: AnalyzedPage): Promise<void> {
    const links = analyzed.page?.links ?? [];
    if (links.length > 0) await this.index.recordLinks(analyzed.url, links, analyzed.page?.mainLinks ?? []);
  }
}
