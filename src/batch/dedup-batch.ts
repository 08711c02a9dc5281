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
import { type AnalyzedPage } from '../analyze/analyze-page.js';
import { StemCache } from '../analyze/analyze-text.js';
import type { Config } from '../config.js';
import type { Decision, PageInput, SkipReason } from '../types.js';
import type { BatchEntry, BatchProblem, JsonlLineEntry, PageEntry } from '../input/batch-entry.js';
import { analyzeItem, type AnalyzeItem, type AnalyzeResult } from './analyze-item.js';
import { AnalyzePool, workerCount } from './analyze-pool.js';
import { WorkerCrashError } from '../errors.js';
import { jsonlLineToEntry } from '../input/read-jsonl.js';
import { readInputs, resolveInputs } from '../input/read-inputs.js';

/** Counters of a batch run, as reported while running and at the end. */
export interface BatchProgress {
  /** Documents seen: analysed, skipped before analysis, or failed. */
  documents: number;
  stored: number;
  exact: number;
  near: number;
  /** Documents recorded as skipped (too short, no text, too large, ...). */
  skipped: number;
  skippedBy: Record<string, number>;
  /** Records that are not documents for this run (WARC requests, non-HTML responses, ...). */
  ignored: number;
  ignoredBy: Record<string, number>;
  /** Malformed lines/records and documents whose analysis failed. */
  errors: number;
  elapsedMs: number;
  docsPerSecond: number;
}

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
  readonly config: Config;
  /** Worker threads; 0 = one per core. @default config.dedup.workers */
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
type AnalysedEntry = PageEntry | JsonlLineEntry;

interface Batch {
  readonly seq: number;
  readonly entries: BatchEntry[];
  readonly pages: AnalysedEntry[];
  readonly chars: number;
}

/** Where documents are analysed: the worker pool, or this thread. */
export interface Analyser {
  readonly workers: number;
  run(inputs: readonly AnalyzeItem[]): Promise<readonly AnalyzeResult[]>;
  close(): Promise<void>;
  /** See BatchSummary.workerUtilization. */
  utilization?(): number;
}

function inProcessAnalyser(config: Config): Analyser {
  // As in analyze-worker.ts: one stem cache for the run.
  const options: AnalyzeOptions = { stemCache: new StemCache() };
  return {
    workers: 0,
    run: async (inputs) => inputs.map((input) => analyzeItem(input, config, options)),
    close: async () => {},
  };
}

/** The URL of the document a JSONL line holds, parsed here (only after its worker died on it), or null. */
function urlOfLine(line: JsonlLineEntry): string | null {
  const text = Buffer.from(line.bytes.buffer, line.bytes.byteOffset, line.bytes.byteLength).toString('utf8');
  const entry = jsonlLineToEntry(text, line.file, line.position, line.maxDocumentBytes);
  return entry === null || entry.kind === 'problem' ? null : entry.kind === 'page' ? entry.input.url : entry.url;
}

function bump(map: Record<string, number>, key: string): void {
  map[key] = (map[key] ?? 0) + 1;
}

/** Analyses a batch; if its worker died, retries document by document so one bad document fails alone. */
export async function analyseBatch(analyser: Analyser, inputs: readonly AnalyzeItem[]): Promise<readonly AnalyzeResult[]> {
  if (inputs.length === 0) return [];
  try {
    return await analyser.run(inputs);
  } catch (error) {
    if (!(error instanceof WorkerCrashError) || inputs.length === 1) {
      if (error instanceof WorkerCrashError) return [{ ok: false, error: error.message }];
      throw error;
    }
  }
  const out: AnalyzeResult[] = [];
  for (const input of inputs) out.push(...(await analyseBatch(analyser, [input])));
  return out;
}

/** Runs batch dedup over a stream of entries (see readInputs). */
export async function dedupEntries(entries: AsyncIterable<BatchEntry> | Iterable<BatchEntry>, options: DedupEntriesOptions): Promise<BatchSummary> {
  const { config } = options;
  const maxInFlight = options.maxInFlight ?? config.dedup.maxInFlight;
  const maxInFlightBytes = options.maxInFlightBytes ?? 64 * 1024 * 1024;
  const maxProblemsKept = options.maxProblemsKept ?? 100;
  const started = performance.now();

  const progress: BatchProgress = {
    documents: 0, stored: 0, exact: 0, near: 0, skipped: 0, skippedBy: {}, ignored: 0, ignoredBy: {}, errors: 0, elapsedMs: 0, docsPerSecond: 0,
  };
  const problems: BatchProblem[] = [];
  const problem = (p: BatchProblem) => {
    progress.errors += 1;
    if (problems.length < maxProblemsKept) problems.push(p);
    options.onProblem?.(p);
  };

  const pipeline = await Pipeline.open({ dataDir: options.dataDir, config });
  let analyser: Analyser | null = null;
  try {
    analyser = options.inProcess === true
      ? inProcessAnalyser(config)
      : (() => {
        const pool = new AnalyzePool({ size: workerCount(options.workers ?? config.dedup.workers), config });
        return { workers: pool.size, run: (inputs) => pool.run(inputs), close: () => pool.close(), utilization: () => pool.utilization() } satisfies Analyser;
      })();
    const slots = Math.max(1, analyser.workers) * 2;
    const batchSize = Math.max(1, Math.min(options.batchSize ?? 64, Math.floor(maxInFlight / (slots + 1))));
    const batchChars = Math.max(1, Math.floor(maxInFlightBytes / (slots * 2)));
    const queue = new PQueue({ concurrency: slots });

    const ready = new Map<number, { batch: Batch; results: readonly AnalyzeResult[] }>();
    let nextToCommit = 0;
    let docsInFlight = 0;
    let charsInFlight = 0;
    let fatal: unknown = null;
    let wake: (() => void) | null = null;
    const signalProgress = () => {
      const w = wake;
      wake = null;
      w?.();
    };

    const countDecision = (d: Decision) => {
      if (d.kind === 'skipped') {
        progress.skipped += 1;
        bump(progress.skippedBy, d.reason);
      } else {
        progress[d.kind] += 1;
      }
    };
    const recordSkip = (url: string, reason: SkipReason, detail: string) => {
      pipeline.recordSkip(url, reason, detail);
      progress.skipped += 1;
      bump(progress.skippedBy, reason);
    };

    const commit = (batch: Batch, results: readonly AnalyzeResult[]) => {
      let r = 0;
      let run: AnalyzedPage[] = [];
      const flushRun = () => {
        if (run.length === 0) return;
        for (const d of pipeline.commitMany(run)) countDecision(d);
        run = [];
      };
      for (const entry of batch.entries) {
        switch (entry.kind) {
          case 'page':
          case 'jsonl-line': {
            const result = results[r++]!;
            if (result.ok) {
              progress.documents += 1;
              run.push(result.page);
            } else if ('entry' in result) {
              // A JSONL line that held no document to analyse: blank, malformed, or too large.
              const e = result.entry;
              if (e === null) break;
              if (e.kind === 'problem') {
                problem({ position: e.position, message: e.message });
                break;
              }
              progress.documents += 1;
              flushRun();
              recordSkip(e.url, e.reason, e.detail);
            } else {
              const url = entry.kind === 'page' ? entry.input.url : (result.url ?? urlOfLine(entry));
              if (url === null) {
                // The line's worker died on it before it was parsed, and it is no document anyway.
                problem({ position: entry.position, message: `analysis failed: ${result.error}` });
                break;
              }
              progress.documents += 1;
              flushRun();
              recordSkip(url, 'parse-error', result.error);
              problem({ position: entry.position, message: `analysis failed for \`${url}\`: ${result.error}` });
            }
            break;
          }
          case 'skip':
            progress.documents += 1;
            flushRun();
            recordSkip(entry.url, entry.reason, entry.detail);
            break;
          case 'ignored':
            progress.ignored += 1;
            bump(progress.ignoredBy, entry.reason);
            break;
          case 'problem':
            problem({ position: entry.position, message: entry.message });
            break;
        }
      }
      flushRun();
    };

    const drain = () => {
      for (;;) {
        const done = ready.get(nextToCommit);
        if (done === undefined) break;
        ready.delete(nextToCommit);
        nextToCommit += 1;
        commit(done.batch, done.results);
        docsInFlight -= done.batch.pages.length;
        charsInFlight -= done.batch.chars;
      }
      progress.elapsedMs = performance.now() - started;
      progress.docsPerSecond = progress.elapsedMs > 0 ? (progress.documents * 1000) / progress.elapsedMs : 0;
      options.onProgress?.(progress);
    };

    const active = analyser;
    // Batches waiting for an analysis slot, oldest first. The queued task is one shared function
    // that takes the oldest batch when it starts: p-queue keeps up to ~100 started tasks in its
    // array until it compacts, and a task closing over its batch would keep 100 batches alive.
    const waiting: Batch[] = [];
    const analyseNext = async () => {
      const batch = waiting.shift()!;
      try {
        const results = await analyseBatch(active, batch.pages.map((p) => (p.kind === 'page' ? p.input : p)));
        if (fatal !== null) return;
        ready.set(batch.seq, { batch, results });
        drain();
      } catch (error) {
        fatal ??= error;
      } finally {
        signalProgress();
      }
    };
    let seq = 0;
    const dispatch = async (entriesOfBatch: BatchEntry[], pages: AnalysedEntry[], chars: number) => {
      while (fatal === null && docsInFlight > 0 && (docsInFlight + pages.length > maxInFlight || charsInFlight + chars > maxInFlightBytes)) {
        await new Promise<void>((resolve) => { wake = resolve; });
      }
      if (fatal !== null) return;
      waiting.push({ seq: seq++, entries: entriesOfBatch, pages, chars });
      docsInFlight += pages.length;
      charsInFlight += chars;
      void queue.add(analyseNext);
    };

    let entriesOf: BatchEntry[] = [];
    let pagesOf: AnalysedEntry[] = [];
    let charsOf = 0;
    let interrupted = false;
    const source = entries as AsyncIterable<BatchEntry>;
    for await (const entry of source) {
      if (options.signal?.aborted === true) {
        interrupted = true;
        break;
      }
      entriesOf.push(entry);
      if (entry.kind === 'page' || entry.kind === 'jsonl-line') {
        pagesOf.push(entry);
        charsOf += entry.size;
      }
      if (pagesOf.length >= batchSize || charsOf >= batchChars || entriesOf.length >= batchSize * 4) {
        await dispatch(entriesOf, pagesOf, charsOf);
        entriesOf = [];
        pagesOf = [];
        charsOf = 0;
        if (fatal !== null) break;
      }
    }
    if (fatal === null && entriesOf.length > 0) await dispatch(entriesOf, pagesOf, charsOf);
    await queue.onIdle();
    if (fatal !== null) throw fatal;
    drain();
    return { ...progress, workers: analyser.workers, workerUtilization: analyser.utilization?.() ?? null, problems, interrupted };
  } finally {
    try {
      await analyser?.close();
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
