/**
 * Fingerprinting off the crawl's event loop. The crawl's thread fetches, parses and extracts each
 * page (it needs the links at once); the text then goes to one worker thread for the costly part
 * (normalising, language, stop words, stems, shingles, simhash), and comes back for the index.
 * On a machine with two or more cores this takes the dedup work off the thread that drives the
 * crawl, so it costs little crawl throughput.
 *
 * Until the worker has loaded, and if it ever fails, pages are analysed on the calling thread
 * instead: the result is the same function of the same data (`analyzeExtractedPage`), so where
 * a page is analysed never changes its fingerprint.
 */
import { Worker } from 'node:worker_threads';
import type { Config } from '../config.js';
import { analyzeExtractedPage } from '../pipeline.js';
import type { AnalyzedPage } from '../pipeline.js';
import { StemCache } from '../text/stem-cache.js';
import type { ExtractedPage, PageInput } from '../types.js';

/** To the worker. */
export interface AnalysisRequest {
  readonly id: number;
  readonly input: PageInput;
  readonly page: ExtractedPage;
}

/**
 * From the worker. `page` comes back without the extracted page and the text, which the caller
 * still holds (for HTML, `analyzeExtractedPage` returns the page it was given and its text): half
 * the copying between threads.
 */
export type AnalysisReply =
  | { readonly id: number; readonly ok: true; readonly page: AnalyzedPage }
  | { readonly id: number; readonly ok: false; readonly error: string };

interface Pending {
  readonly request: AnalysisRequest;
  readonly resolve: (page: AnalyzedPage) => void;
  readonly reject: (error: Error) => void;
}

export interface AnalysisThreadOptions {
  readonly config: Config;
  /** Use a worker thread. When false every page is analysed on the calling thread. @default true */
  readonly worker?: boolean;
}

function workerUrl(): URL {
  const here = import.meta.url;
  return here.endsWith('.ts') ? new URL('./analysis-worker-entry.mjs', here) : new URL('./analysis-worker.js', here);
}

export class AnalysisThread {
  private readonly config: Config;
  private readonly local = new StemCache();
  private readonly pending = new Map<number, Pending>();
  private worker: Worker | null = null;
  private ready = false;
  private nextId = 0;
  private closed = false;

  constructor(options: AnalysisThreadOptions) {
    this.config = options.config;
    if (options.worker !== false) this.spawn();
  }

  /** Whether pages currently go to the worker thread. */
  get usingWorker(): boolean {
    return this.ready;
  }

  /** Fingerprints an extracted page (in the worker when it is ready, else here). */
  analyze(input: PageInput, page: ExtractedPage): Promise<AnalyzedPage> {
    if (!this.ready || this.worker === null) return Promise.resolve(this.analyzeHere(input, page));
    const request: AnalysisRequest = { id: this.nextId++, input, page };
    return new Promise((resolve, reject) => {
      this.pending.set(request.id, { request, resolve, reject });
      this.worker!.postMessage(request);
    });
  }

  /** Stops the worker. Pages still out are analysed here. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    this.ready = false;
    this.drainHere();
    if (worker !== null) await worker.terminate();
  }

  private analyzeHere(input: PageInput, page: ExtractedPage): AnalyzedPage {
    return analyzeExtractedPage(input, page, this.config, { stemCache: this.local });
  }

  /** Answers every page still out to the worker on this thread (the worker failed or is closing). */
  private drainHere(): void {
    const held = [...this.pending.values()];
    this.pending.clear();
    for (const p of held) {
      try {
        p.resolve(this.analyzeHere(p.request.input, p.request.page));
      } catch (error) {
        p.reject(error as Error);
      }
    }
  }

  private spawn(): void {
    let worker: Worker;
    try {
      worker = new Worker(workerUrl(), { workerData: { config: this.config } });
    } catch {
      return; // no worker: everything runs here
    }
    this.worker = worker;
    worker.unref();
    worker.on('message', (message: AnalysisReply | 'ready') => {
      if (message === 'ready') {
        if (this.worker === worker) this.ready = true;
        return;
      }
      const p = this.pending.get(message.id);
      if (p === undefined) return;
      this.pending.delete(message.id);
      if (message.ok) p.resolve({ ...message.page, page: p.request.page, text: p.request.page.text });
      else p.reject(new Error(message.error));
    });
    const fail = () => {
      if (this.worker !== worker) return;
      // A failed worker is not restarted: the crawl goes on, analysing here.
      this.worker = null;
      this.ready = false;
      this.drainHere();
    };
    worker.on('error', fail);
    worker.on('exit', fail);
  }
}
