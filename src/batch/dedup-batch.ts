/**
 * Batch dedup: reads entries from the inputs, analyses documents (extraction + fingerprinting) in
 * worker threads, and commits the results to the index from this thread strictly in input order.
 *
 * Invariants:
 * - Order: every batch gets a sequence number when read; results wait in a reorder buffer until
 *   all earlier batches are committed. The stored set therefore depends only on the inputs and
 *   the config, never on timing or on the number of workers.
 * - Memory: documents read but not yet committed (in a worker, in a queue, or in the reorder
 *   buffer) are bounded by `maxInFlight` documents and `maxInFlightBytes` characters; reading
 *   waits when either is reached, so input size does not change memory use.
 * - Problems (malformed lines/records, documents whose analysis threw) are counted and reported
 *   with their position, never fatal. Only failures to write outputs stop the run.
 */
import PQueue from 'p-queue';
import { Pipeline } from '../pipeline.js';
import { type AnalyzeOptions } from '../analyze/analyze-text.js';
import { StemCache } from '../analyze/analyze-text.js';
import type { Config } from '../config.js';
import type { BatchEntry, BatchProblem } from '../input/batch-entry.js';
import { commitBatch, newProgress, type AnalysedEntry, type Batch, type BatchProgress, type BatchTally } from './commit-batch.js';

export type { BatchProgress } from './commit-batch.js';
import { analyzeItem, type AnalyzeItem, type AnalyzeResult } from './analyze-item.js';
import { AnalyzePool, analyzeInProcess, workerCount } from './analyze-pool.js';
import { WorkerCrashError } from '../errors.js';
import { readInputs, resolveInputs } from '../input/read-inputs.js';

/** What a batch run did. */
export interface BatchSummary extends BatchProgress {
  /** Worker threads used (0 when analysed in-process). */
  workers: number;
  /**
   * The share of the run the workers were busy (0–1, their event-loop utilisation; null when
   * analysed in-process): near 1 means the reading and committing thread kept them fed.
   */
  workerUtilization: number | null;
  /** The first problems met (at most `maxProblemsKept`), with positions. */
  problems: BatchProblem[];
  /** True when the run was stopped by its AbortSignal before the inputs ended. */
  interrupted: boolean;
}

export interface DedupEntriesOptions {
  /** Folder for neardup.db and corpus.jsonl (the same outputs as a crawl). */
  readonly dataDir: string;
  /** A PostgreSQL index shared with other processes instead of dataDir's neardup.db. @default null */
  readonly indexUrl?: string | null;
  readonly config: Config;
  /** Worker threads; 0 = one per core but one (none on one core: analysed in-process). @default config.dedup.workers */
  readonly workers?: number;
  /** Analyse on the calling thread, no workers (a baseline for benchmarks). @default false */
  readonly inProcess?: boolean;
  /** Documents read but not yet committed, at most. @default config.dedup.maxInFlight */
  readonly maxInFlight?: number;
  /** Characters of html/text read but not yet committed, at most (one larger document still passes alone). @default 67108864 */
  readonly maxInFlightBytes?: number;
  /** Documents per message to a worker. @default 64 (less when maxInFlight is small) */
  readonly batchSize?: number;
  /** Called after each committed batch. */
  readonly onProgress?: (progress: Readonly<BatchProgress>) => void;
  /** Called for each problem, in input order. */
  readonly onProblem?: (problem: BatchProblem) => void;
  /** Stops reading; documents already read are still committed. */
  readonly signal?: AbortSignal;
  /** Problems kept in the summary. @default 100 */
  readonly maxProblemsKept?: number;
}

export interface DedupBatchOptions extends DedupEntriesOptions {
  /** Files and folders: HTML/text files, folders of them, JSONL, WARC (each optionally .gz). */
  readonly inputs: readonly string[];
}

/** What a batch sends to analysis: documents, and JSONL lines still to parse. */
/** Where documents are analysed: the worker pool, or this thread. */
export interface Analyzer {
  readonly workers: number;
  run(inputs: readonly AnalyzeItem[]): Promise<readonly AnalyzeResult[]>;
  close(): Promise<void>;
  /** See BatchSummary.workerUtilization. */
  utilization?(): number;
}

function inProcessAnalyzer(config: Config): Analyzer {
  // As in analyze-worker.ts: one stem cache for the run.
  const options: AnalyzeOptions = { stemCache: new StemCache() };
  return {
    workers: 0,
    run: async (inputs) => inputs.map((input) => analyzeItem(input, config, options)),
    close: async () => {},
  };
}

/** Analyses a batch; if its worker died, retries document by document so one bad document fails alone. */
export async function analyzeBatch(analyzer: Analyzer, inputs: readonly AnalyzeItem[]): Promise<readonly AnalyzeResult[]> {
  if (inputs.length === 0) return [];
  try {
    return await analyzer.run(inputs);
  } catch (error) {
    if (!(error instanceof WorkerCrashError) || inputs.length === 1) {
      if (error instanceof WorkerCrashError) return [{ ok: false, error: error.message }];
      throw error;
    }
  }
  const out: AnalyzeResult[] = [];
  for (const input of inputs) out.push(...(await analyzeBatch(analyzer, [input])));
  return out;
}

/** The worker pool of a run, or this thread with `inProcess`. */
function openAnalyzer(options: DedupEntriesOptions): Analyzer {
  const { config } = options;
  const requested = options.workers ?? config.dedup.workers;
  if (options.inProcess === true || analyzeInProcess(requested)) return inProcessAnalyzer(config);
  const pool = new AnalyzePool({ size: workerCount(requested), config });
  return { workers: pool.size, run: (inputs) => pool.run(inputs), close: () => pool.close(), utilization: () => pool.utilization() };
}

/**
 * The reorder buffer: analysed batches arrive in any order and are committed strictly by sequence
 * number, each as soon as every earlier one is. `commit` is called in order, one at a time (the
 * index may be a server: drains are chained, never interleaved); `drain` resolves with the batches
 * it committed.
 */
function reorderBuffer(commit: (batch: Batch, results: readonly AnalyzeResult[]) => Promise<void>) {
  const ready = new Map<number, { batch: Batch; results: readonly AnalyzeResult[] }>();
  let nextToCommit = 0;
  let chain: Promise<unknown> = Promise.resolve();
  const drainNow = async (): Promise<Batch[]> => {
    const committed: Batch[] = [];
    for (;;) {
      const done = ready.get(nextToCommit);
      if (done === undefined) return committed;
      ready.delete(nextToCommit);
      nextToCommit += 1;
      await commit(done.batch, done.results);
      committed.push(done.batch);
    }
  };
  return {
    add(batch: Batch, results: readonly AnalyzeResult[]): void {
      ready.set(batch.seq, { batch, results });
    },
    drain(): Promise<Batch[]> {
      const next = chain.then(drainNow);
      chain = next.catch(() => undefined);
      return next;
    },
  };
}

/**
 * The in-flight limit: documents and characters read but not yet committed stay within the
 * bounds (one batch larger than the bounds still passes alone). `waitForRoom` resolves when a batch
 * fits or `stopped()` turns true; `release` after a commit, `wake` after any progress.
 */
function inFlightLimit(maxDocs: number, maxChars: number) {
  let docs = 0;
  let chars = 0;
  let wake: (() => void) | null = null;
  return {
    async waitForRoom(batchDocs: number, batchChars: number, stopped: () => boolean): Promise<void> {
      while (!stopped() && docs > 0 && (docs + batchDocs > maxDocs || chars + batchChars > maxChars)) {
        await new Promise<void>((resolve) => { wake = resolve; });
      }
    },
    take(batchDocs: number, batchChars: number): void {
      docs += batchDocs;
      chars += batchChars;
    },
    release(batch: Batch): void {
      docs -= batch.pages.length;
      chars -= batch.chars;
    },
    wake(): void {
      const w = wake;
      wake = null;
      w?.();
    },
  };
}

/** Groups entries into batches of about `batchSize` documents or `batchChars` characters; stops early when `signal` aborts. */
async function* batchesOf(
  entries: AsyncIterable<BatchEntry> | Iterable<BatchEntry>, batchSize: number, batchChars: number, signal: AbortSignal | undefined,
  onInterrupt: () => void,
): AsyncGenerator<Omit<Batch, 'seq'>> {
  let entriesOf: BatchEntry[] = [];
  let pagesOf: AnalysedEntry[] = [];
  let charsOf = 0;
  for await (const entry of entries as AsyncIterable<BatchEntry>) {
    if (signal?.aborted === true) {
      onInterrupt();
      break;
    }
    entriesOf.push(entry);
    if (entry.kind === 'page' || entry.kind === 'jsonl-line') {
      pagesOf.push(entry);
      charsOf += entry.size;
    }
    if (pagesOf.length >= batchSize || charsOf >= batchChars || entriesOf.length >= batchSize * 4) {
      yield { entries: entriesOf, pages: pagesOf, chars: charsOf };
      entriesOf = [];
      pagesOf = [];
      charsOf = 0;
    }
  }
  if (entriesOf.length > 0) yield { entries: entriesOf, pages: pagesOf, chars: charsOf };
}

/** Runs batch dedup over a stream of entries (see readInputs). */
export async function dedupEntries(entries: AsyncIterable<BatchEntry> | Iterable<BatchEntry>, options: DedupEntriesOptions): Promise<BatchSummary> {
  const { config } = options;
  const maxInFlight = options.maxInFlight ?? config.dedup.maxInFlight;
  const maxInFlightBytes = options.maxInFlightBytes ?? 64 * 1024 * 1024;
  const started = performance.now();
  const tally: BatchTally = { progress: newProgress(), problems: [], maxProblemsKept: options.maxProblemsKept ?? 100, onProblem: options.onProblem };
  const { progress } = tally;

  const pipeline = await Pipeline.open({ dataDir: options.dataDir, config, indexUrl: options.indexUrl ?? null });
  let analyzer: Analyzer | null = null;
  try {
    analyzer = openAnalyzer(options);
    const active = analyzer;
    const slots = Math.max(1, analyzer.workers) * 2;
    const batchSize = Math.max(1, Math.min(options.batchSize ?? 64, Math.floor(maxInFlight / (slots + 1))));
    const batchChars = Math.max(1, Math.floor(maxInFlightBytes / (slots * 2)));
    const queue = new PQueue({ concurrency: slots });
    const limit = inFlightLimit(maxInFlight, maxInFlightBytes);
    const reorder = reorderBuffer((batch, results) => commitBatch(pipeline, tally, batch, results));
    let fatal: unknown = null;

    const drain = async () => {
      for (const batch of await reorder.drain()) limit.release(batch);
      progress.elapsedMs = performance.now() - started;
      progress.docsPerSecond = progress.elapsedMs > 0 ? (progress.documents * 1000) / progress.elapsedMs : 0;
      options.onProgress?.(progress);
    };
    // Batches waiting for an analysis slot, oldest first. The queued task is one shared function
    // that takes the oldest batch when it starts: p-queue keeps up to ~100 started tasks in its
    // array until it compacts, and a task closing over its batch would keep 100 batches alive.
    const waiting: Batch[] = [];
    const analyzeNext = async () => {
      const batch = waiting.shift()!;
      try {
        const results = await analyzeBatch(active, batch.pages.map((p) => (p.kind === 'page' ? p.input : p)));
        if (fatal !== null) return;
        reorder.add(batch, results);
        await drain();
      } catch (error) {
        fatal ??= error;
      } finally {
        limit.wake();
      }
    };

    let seq = 0;
    let interrupted = false;
    for await (const batch of batchesOf(entries, batchSize, batchChars, options.signal, () => { interrupted = true; })) {
      await limit.waitForRoom(batch.pages.length, batch.chars, () => fatal !== null);
      if (fatal !== null) break;
      waiting.push({ seq: seq++, ...batch });
      limit.take(batch.pages.length, batch.chars);
      void queue.add(analyzeNext);
    }
    await queue.onIdle();
    if (fatal !== null) throw fatal;
    await drain();
    return { ...progress, workers: analyzer.workers, workerUtilization: analyzer.utilization?.() ?? null, problems: tally.problems, interrupted };
  } finally {
    try {
      await analyzer?.close();
    } finally {
      await pipeline.close();
    }
  }
}

/** Runs batch dedup over files and folders (checked first: a missing path throws InputError). */
export async function dedupBatch(options: DedupBatchOptions): Promise<BatchSummary> {
  const inputs = await resolveInputs(options.inputs);
  // JSONL lines go to the workers unparsed: this thread never builds their documents' strings.
  return dedupEntries(readInputs(inputs, { maxDocumentBytes: options.config.crawl.maxPageBytes, rawJsonl: true }), options);
}
