/**
 * The crawl's deduplication stage: fingerprinting, the index, corpus.jsonl — the Pipeline of a
 * data folder — behind an asynchronous interface, so that it can run in a worker thread.
 *
 * The crawl's own thread fetches and decodes each page; its HTML then goes to the stage, which
 * parses it, extracts the main text and links, fingerprints it, checks and inserts it, writes its
 * corpus line, and answers with the decision and the links (commit-fetched-pages.ts). On a machine
 * with two cores or more the stage runs in a worker thread that owns the database, so the thread
 * that drives crawlee only fetches (scripts/bench-crawl.ts). Otherwise it runs on the calling thread.
 *
 * Either way every call is answered only after its writes committed: a crawl handler that awaits
 * the decision before returning keeps the crash-safety invariants of src/store/corpus-writer.ts
 * (crawlee marks a request handled only after its handler returned).
 */
import { Worker } from 'node:worker_threads';
import type { Config } from '../config.js';
import { CrawlError, NeardupError, deserializeError, type SerializedError } from '../errors.js';
import { Pipeline } from '../pipeline.js';
import type { PageInput, PipelineCounters, SkipReason } from '../types.js';
import { commitFetchedPages, type FetchedPageResult } from './commit-fetched-pages.js';

/** The stage, wherever it runs. */
export interface DedupStage {
  /** Whether it runs in a worker thread. */
  readonly inWorker: boolean;
  /** The pipeline's counters, as of the last answer. */
  readonly counters: PipelineCounters;
  /**
   * Parses and extracts a fetched page (its decoded HTML), fingerprints and commits it; answers with
   * the verdict and the page's links. Rejects with the error of a failed write.
   */
  commitFetched(input: PageInput, html: string): Promise<FetchedPageResult>;
  /** Records a page that was not processed. */
  recordSkip(url: string, reason: SkipReason, detail: string): Promise<void>;
  /** Forgets the skips of `urls` recorded with one of `reasons` (seed-retry.ts); resolves with the URLs forgotten. */
  forgetSkips(urls: readonly string[], reasons: readonly SkipReason[], uncount?: boolean): Promise<string[]>;
  /** Closes the pipeline (corpus flushed, database closed) and the worker. */
  close(): Promise<void>;
}

export interface DedupStageOptions {
  readonly dataDir: string;
  readonly config: Config;
  /** A PostgreSQL index shared with other processes instead of dataDir's neardup.db. @default null */
  readonly indexUrl?: string | null;
  /** Run in a worker thread. @default true */
  readonly worker?: boolean;
}

/** Requests to the worker (sent in batches: see {@link DedupBatch}). */
export type DedupRequest =
  | { readonly id: number; readonly op: 'commit'; readonly input: PageInput; readonly html: string }
  | { readonly id: number; readonly op: 'skip'; readonly url: string; readonly reason: SkipReason; readonly detail: string }
  | { readonly id: number; readonly op: 'forget'; readonly urls: readonly string[]; readonly reasons: readonly SkipReason[]; readonly uncount: boolean }
  | { readonly id: number; readonly op: 'close' };

/**
 * One message to the worker: the requests made since the last one, in order. Each message wakes
 * the other thread (a context switch on a busy machine), so the requests a crawl makes in one turn
 * of its event loop go together, and their answers come back together.
 */
export type DedupBatch = readonly DedupRequest[];

/** The answer to one request. */
export type DedupAnswer =
  | { readonly id: number; readonly ok: true; readonly result: FetchedPageResult | readonly string[] | null }
  | { readonly id: number; readonly ok: false; readonly error: SerializedError };

/** Messages from the worker. */
export type DedupReply =
  | { readonly op: 'ready'; readonly counters: PipelineCounters }
  | { readonly op: 'open-failed'; readonly error: SerializedError }
  /** Answers in the order of their requests, with the counters after the last of them. */
  | { readonly op: 'answers'; readonly answers: readonly DedupAnswer[]; readonly counters: PipelineCounters };

function copyCounters(counters: PipelineCounters): PipelineCounters {
  return { ...counters, skippedBy: { ...counters.skippedBy }, ...(counters.flagged === undefined ? {} : { flagged: { ...counters.flagged } }) };
}

/** The stage on the calling thread. */
class LocalDedupStage implements DedupStage {
  readonly inWorker = false;
  private readonly pipeline: Pipeline;

  constructor(pipeline: Pipeline) {
    this.pipeline = pipeline;
  }

  get counters(): PipelineCounters {
    return copyCounters(this.pipeline.counters);
  }

  async commitFetched(input: PageInput, html: string): Promise<FetchedPageResult> {
    return (await commitFetchedPages(this.pipeline, [{ input, html }]))[0]!;
  }

  async recordSkip(url: string, reason: SkipReason, detail: string): Promise<void> {
    await this.pipeline.recordSkip(url, reason, detail);
  }

  forgetSkips(urls: readonly string[], reasons: readonly SkipReason[], uncount = false): Promise<string[]> {
    return this.pipeline.forgetSkips(urls, reasons, uncount);
  }

  async close(): Promise<void> {
    await this.pipeline.close();
  }
}

function workerUrl(): URL {
  const here = import.meta.url;
  return here.endsWith('.ts') ? new URL('./dedup-worker-entry.mjs', here) : new URL('./dedup-worker.js', here);
}

interface Pending {
  readonly resolve: (result: FetchedPageResult | readonly string[] | null) => void;
  readonly reject: (error: Error) => void;
}

/** The stage in a worker thread that owns the pipeline. */
class WorkerDedupStage implements DedupStage {
  readonly inWorker = true;
  private latest: PipelineCounters;
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  /** Requests made since the last message to the worker, sent together when this turn of the event loop ends. */
  private outbox: DedupRequest[] = [];
  private failure: Error | null = null;
  private closing: Promise<void> | null = null;

  private constructor(worker: Worker, counters: PipelineCounters) {
    this.worker = worker;
    this.latest = counters;
    worker.on('message', (reply: DedupReply) => this.onReply(reply));
    const fail = (error: Error) => this.fail(error);
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new CrawlError(`The deduplication worker stopped (exit code ${code})`)));
  }

  /** Starts the worker and waits until it has opened the pipeline (or failed to). */
  static start(options: DedupStageOptions): Promise<WorkerDedupStage> {
    const worker = new Worker(workerUrl(), { workerData: { dataDir: options.dataDir, config: options.config, indexUrl: options.indexUrl ?? null } });
    return new Promise((resolve, reject) => {
      const onMessage = (reply: DedupReply) => {
        if (reply.op !== 'ready' && reply.op !== 'open-failed') return;
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (reply.op === 'ready') {
          resolve(new WorkerDedupStage(worker, reply.counters));
        } else if (reply.op === 'open-failed') {
          void worker.terminate();
          reject(deserializeError(reply.error));
        }
      };
      const onError = (error: Error) => reject(new CrawlError(`The deduplication worker failed to start: ${error.message}`, { cause: error }));
      const onExit = (code: number) => reject(new CrawlError(`The deduplication worker exited while starting (code ${code})`));
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.once('exit', onExit);
    });
  }

  get counters(): PipelineCounters {
    return copyCounters(this.latest);
  }

  commitFetched(input: PageInput, html: string): Promise<FetchedPageResult> {
    return this.call({ id: this.nextId++, op: 'commit', input, html }) as Promise<FetchedPageResult>;
  }

  async recordSkip(url: string, reason: SkipReason, detail: string): Promise<void> {
    await this.call({ id: this.nextId++, op: 'skip', url, reason, detail });
  }

  async forgetSkips(urls: readonly string[], reasons: readonly SkipReason[], uncount = false): Promise<string[]> {
    return (await this.call({ id: this.nextId++, op: 'forget', urls, reasons, uncount })) as unknown as string[];
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.failure === null) {
        try {
          await this.call({ id: this.nextId++, op: 'close' });
        } finally {
          await this.worker.terminate();
        }
      } else {
        await this.worker.terminate();
      }
    })();
    return this.closing;
  }

  private call(request: DedupRequest): Promise<FetchedPageResult | readonly string[] | null> {
    if (this.failure !== null) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.pending.set(request.id, { resolve, reject });
      this.outbox.push(request);
      if (this.outbox.length === 1) setImmediate(() => this.flush());
    });
  }

  /** Sends the requests made in this turn of the event loop, in one message. */
  private flush(): void {
    const batch = this.outbox;
    this.outbox = [];
    if (batch.length > 0 && this.failure === null) this.worker.postMessage(batch satisfies DedupBatch);
  }

  private onReply(reply: DedupReply): void {
    if (reply.op !== 'answers') return;
    this.latest = reply.counters;
    for (const answer of reply.answers) {
      const p = this.pending.get(answer.id);
      if (p === undefined) continue;
      this.pending.delete(answer.id);
      if (answer.ok) p.resolve(answer.result);
      else p.reject(deserializeError(answer.error));
    }
  }

  private fail(error: Error): void {
    if (this.failure !== null || this.closing !== null) return;
    this.failure = error instanceof NeardupError ? error : new CrawlError(`The deduplication worker failed: ${error.message}`, { cause: error });
    const held = [...this.pending.values()];
    this.pending.clear();
    for (const p of held) p.reject(this.failure);
  }
}

/**
 * Opens the stage of a data folder: in a worker thread when asked (the default), else here.
 * Fails as Pipeline.open does (bad folder, database made with other parameters, ...).
 */
export async function openDedupStage(options: DedupStageOptions): Promise<DedupStage> {
  if (options.worker === false) {
    return new LocalDedupStage(await Pipeline.open({ dataDir: options.dataDir, config: options.config, indexUrl: options.indexUrl ?? null, primarySwap: true }));
  }
  return WorkerDedupStage.start(options);
}
