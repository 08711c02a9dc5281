/**
 * A fixed pool of worker threads running `analyzePage` (extraction + fingerprinting), the CPU
 * part of batch dedup. Work goes out in batches of documents per message, to amortise the cost
 * of postMessage; each batch goes to the worker with the fewest batches pending. A worker that
 * dies is replaced, and the batches it held are rejected with WorkerCrashError so the caller can
 * retry them (one document at a time, to isolate a document that kills its worker).
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { WorkerCrashError, WorkerStartError } from '../errors.js';
import type { Config } from '../config.js';
import type { AnalyzedPage } from '../analyze/analyze-page.js';
import type { PageInput } from '../types.js';
import { isJsonlLine, type AnalyzeItem, type AnalyzeResult } from './analyze-item.js';
import type { JsonlLineEntry } from '../input/batch-entry.js';

export type { AnalyzeItem, AnalyzeResult } from './analyze-item.js';

/** A JSONL line as sent to a worker: its bytes are `bytes[start, end)` of the request. */
export interface WireLine extends Omit<JsonlLineEntry, 'bytes'> {
  readonly start: number;
  readonly end: number;
}

/** A message to a worker: documents and JSONL lines to analyse. */
export interface AnalyzeRequest {
  readonly id: number;
  readonly inputs: readonly (PageInput | WireLine)[];
  /** The bytes of every line of the batch, one after another (transferred, not copied), or null. */
  readonly bytes: Uint8Array | null;
}

/**
 * One result as it crosses the thread boundary. When the main text is the input's own `text`
 * (text input), the worker leaves it out (`textIsInput`) and the pool puts the input's string
 * back: the main thread holds it already, and cloning it back would cost as much as sending it.
 * Otherwise a page that may be stored comes back with its text as the UTF-8 bytes of its JSON
 * string (`textJson`, a range of the response's `texts`): all the main thread does with it is
 * write it to corpus.jsonl, and bytes cost its heap nothing.
 */
export type WireResult =
  | AnalyzeResult
  | { readonly ok: true; readonly page: AnalyzedPage; readonly textIsInput: true }
  | { readonly ok: true; readonly page: AnalyzedPage; readonly textJson: readonly [number, number] };

/** A worker's answer: one result per input, same order. */
export interface AnalyzeResponse {
  readonly id: number;
  readonly results: readonly WireResult[];
  /** The `textJson` bytes of the results (transferred), or null. */
  readonly texts?: Uint8Array | null;
}

/** The first message of a worker: its modules are loaded and it takes work. */
export interface AnalyzeReady {
  readonly ready: true;
}

export interface AnalyzePoolOptions {
  /** Worker threads; 0 = one per core but one (see workerCount), at least one. @default 0 */
  readonly size?: number;
  /** The configuration every worker analyses with. */
  readonly config: Config;
  /** The worker script. @default this module's analyze-worker (through the tsx shim when run from sources) */
  readonly script?: URL;
}

interface Pending {
  readonly inputs: readonly AnalyzeItem[];
  readonly resolve: (results: readonly AnalyzeResult[]) => void;
  readonly reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  /** Set when the worker said it is ready; a worker that dies before is a start failure, not a crash. */
  started: boolean;
  readonly pending: Map<number, Pending>;
}

/** The worker script: the TypeScript body through a tsx-registering shim, or the compiled .js. */
function workerUrl(): URL {
  const here = import.meta.url;
  return here.endsWith('.ts') ? new URL('./analyze-worker-entry.mjs', here) : new URL('./analyze-worker.js', here);
}

/**
 * The message for a batch: JSONL lines' bytes copied into one buffer of its own, transferred (the
 * items keep theirs, for a retry after a crash).
 */
function wireRequest(id: number, inputs: readonly AnalyzeItem[]): { request: AnalyzeRequest; transfer: ArrayBuffer[] } {
  let total = 0;
  for (const item of inputs) if (isJsonlLine(item)) total += item.bytes.byteLength;
  if (total === 0 && !inputs.some(isJsonlLine)) return { request: { id, inputs: inputs as readonly PageInput[], bytes: null }, transfer: [] };
  const bytes = new Uint8Array(total);
  let offset = 0;
  const wire = inputs.map((item): PageInput | WireLine => {
    if (!isJsonlLine(item)) return item;
    const { bytes: own, ...line } = item;
    bytes.set(own, offset);
    offset += own.byteLength;
    return { ...line, start: offset - own.byteLength, end: offset };
  });
  return { request: { id, inputs: wire, bytes }, transfer: [bytes.buffer] };
}

/**
 * Resolves `dedup.workers`: 0 means one per core but one, at least one; an explicit count is capped
 * at the cores (more only cost memory). The thread that reads, commits and writes needs a core of its
 * own (0.1–0.4 CPU-ms a document: parsing, the index, the flag stages' comparisons, the corpus), and
 * every worker costs CPU of its own beyond the documents it analyses (its JIT, its token memo's
 * warm-up, its heap): with one worker per core on 2 cores a 20,000-document run took ~0.05 CPU-ms a
 * document more per extra worker and ~100 MB more RSS, for no more documents a second.
 */
export function workerCount(requested: number): number {
  const cores = Math.max(1, availableParallelism());
  return requested > 0 ? Math.min(requested, cores) : Math.max(1, cores - 1);
}

/** Whether `dedup.workers` leaves analysis on the committing thread: 0 on a machine of one core. */
export function analyzeInProcess(requested: number): boolean {
  return requested === 0 && availableParallelism() === 1;
}

export class AnalyzePool {
  readonly size: number;
  readonly #config: Config;
  readonly #script: URL;
  readonly #slots: Slot[] = [];
  #nextId = 0;
  #closed = false;
  /** Set when a worker failed to start: every run is refused with it (respawning would loop). */
  #broken: WorkerStartError | null = null;

  constructor(options: AnalyzePoolOptions) {
    this.size = workerCount(options.size ?? 0);
    this.#config = options.config;
    this.#script = options.script ?? workerUrl();
    // One worker now, the others when work waits for them (run): a small input starts only the workers it keeps busy.
    this.#slots.push({ worker: this.#spawn(0), started: false, pending: new Map() });
  }

  #spawn(index: number): Worker {
    const worker = new Worker(this.#script, { workerData: { config: this.#config } });
    worker.on('message', (response: AnalyzeResponse | AnalyzeReady) => {
      const slot = this.#slots[index]!;
      if ('ready' in response) {
        slot.started = true;
        return;
      }
      const pending = slot.pending.get(response.id);
      if (pending === undefined) return;
      slot.pending.delete(response.id);
      const texts = response.texts ?? null;
      pending.resolve(response.results.map((r, i): AnalyzeResult => {
        if ('textIsInput' in r) return { ok: true, page: { ...r.page, text: (pending.inputs[i] as PageInput).text ?? '' } };
        if ('textJson' in r) return { ok: true, page: { ...r.page, textJson: texts!.subarray(r.textJson[0], r.textJson[1]) } };
        return r;
      }));
    });
    const fail = (error: Error) => {
      const slot = this.#slots[index];
      if (slot === undefined || slot.worker !== worker) return;
      const held = [...slot.pending.values()];
      slot.pending.clear();
      if (!slot.started) {
        this.#broken ??= new WorkerStartError(`analysis worker could not start: ${error.message}`, { cause: error });
        for (const p of held) p.reject(this.#broken);
        return;
      }
      for (const p of held) p.reject(new WorkerCrashError(`analysis worker failed: ${error.message}`, { cause: error }));
      if (!this.#closed) {
        slot.started = false;
        slot.worker = this.#spawn(index);
      }
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (!this.#closed) fail(new Error(`worker exited with code ${code}`));
    });
    return worker;
  }

  /** Workers started so far (at most `size`). */
  get spawned(): number {
    return this.#slots.length;
  }

  /** Analyses the inputs (documents, JSONL lines) in a worker; one result per input, in order. */
  run(inputs: readonly AnalyzeItem[]): Promise<readonly AnalyzeResult[]> {
    if (this.#broken !== null) return Promise.reject(this.#broken);
    if (this.#closed) return Promise.reject(new WorkerCrashError('the analysis pool is closed'));
    let slot = this.#slots[0]!;
    for (const s of this.#slots) if (s.pending.size < slot.pending.size) slot = s;
    if (slot.pending.size > 0 && this.#slots.length < this.size) {
      this.#slots.push((slot = { worker: this.#spawn(this.#slots.length), started: false, pending: new Map() }));
    }
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      slot.pending.set(id, { inputs, resolve, reject });
      const { request, transfer } = wireRequest(id, inputs);
      slot.worker.postMessage(request, transfer);
    });
  }

  /**
   * The share of time the workers have been busy since they started (event-loop utilisation,
   * mean over the current workers, 0–1): near 1 when they never wait for work. Time a busy worker
   * spends waiting for a CPU counts as busy.
   */
  utilization(): number {
    if (this.#slots.length === 0) return 0;
    let sum = 0;
    for (const slot of this.#slots) sum += slot.worker.performance.eventLoopUtilization().utilization;
    return sum / this.#slots.length;
  }

  /** Stops every worker; batches still pending are rejected. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all(this.#slots.map(async (slot) => {
      const held = [...slot.pending.values()];
      slot.pending.clear();
      for (const p of held) p.reject(new WorkerCrashError('the analysis pool was closed'));
      await slot.worker.terminate();
    }));
  }
}
