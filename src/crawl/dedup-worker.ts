/**
 * Worker thread body of the crawl's deduplication stage (dedup-stage.ts): opens the Pipeline of
 * the data folder, then answers commits and skips in the order they arrive, each after its writes
 * committed (commits that arrived together in one transaction).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '../config.js';
import { Pipeline } from '../pipeline.js';
import { serializeError } from '../errors.js';
import type { DedupAnswer, DedupBatch, DedupReply, DedupRequest } from './dedup-stage.js';
import { commitFetchedPages } from './commit-fetched-pages.js';

const port = parentPort;
if (port === null) throw new Error('dedup-worker must run in a worker thread');
const { dataDir, config, indexUrl } = workerData as { dataDir: string; config: Config; indexUrl: string | null };
const send = (reply: DedupReply) => port.postMessage(reply);

let pipeline: Pipeline | null = null;
try {
  pipeline = await Pipeline.open({ dataDir, config, indexUrl, primarySwap: true });
  send({ op: 'ready', counters: pipeline.counters });
} catch (error) {
  send({ op: 'open-failed', error: serializeError(error) });
}

/** Sends the answers of one step of the drain, in one message, with the counters after them. */
function answer(open: Pipeline, answers: readonly DedupAnswer[]): void {
  send({ op: 'answers', answers, counters: open.counters });
}

/**
 * Answers the requests waiting, in arrival order; commits that arrived together (while the worker
 * was busy) are parsed and extracted, then committed together, in one index transaction and one
 * corpus append (commit-fetched-pages.ts), and answered in one message: the crawl hands pages over without waiting,
 * so they queue up here. Resolves once the queue is empty (requests arriving meanwhile are taken
 * too) or the pipeline closed.
 */
async function drain(open: Pipeline, queue: DedupRequest[]): Promise<void> {
  while (queue.length > 0) {
    const first = queue[0]!;
    if (first.op === 'commit') {
      let end = 1;
      while (end < queue.length && queue[end]!.op === 'commit') end++;
      const batch = queue.splice(0, end) as Extract<DedupRequest, { op: 'commit' }>[];
      try {
        const results = await commitFetchedPages(open, batch);
        answer(open, batch.map((request, i) => ({ id: request.id, ok: true, result: results[i]! })));
      } catch (error) {
        const serialized = serializeError(error);
        answer(open, batch.map((request) => ({ id: request.id, ok: false, error: serialized })));
      }
      continue;
    }
    queue.shift();
    try {
      if (first.op === 'skip') {
        await open.recordSkip(first.url, first.reason, first.detail);
        answer(open, [{ id: first.id, ok: true, result: null }]);
      } else if (first.op === 'forget') {
        answer(open, [{ id: first.id, ok: true, result: await open.forgetSkips(first.urls, first.reasons, first.uncount) }]);
      } else {
        await open.close();
        answer(open, [{ id: first.id, ok: true, result: null }]);
        port!.close();
        return;
      }
    } catch (error) {
      answer(open, [{ id: first.id, ok: false, error: serializeError(error) }]);
    }
  }
}

/**
 * Commits gathered before a drain starts, and how long the first of them may wait for the others.
 * Each drain step commits in one index transaction, whose fixed cost (BEGIN IMMEDIATE, catching
 * up with other writers, COMMIT) is most of a page's commit when pages come one by one; the
 * handler does not wait for the verdict, so a few ms of delay cost the crawl nothing. Not at
 * concurrency 1, where the crawl waits for each verdict before its next fetch (pending-verdicts.ts).
 */
const gatherCommits = config.crawl.concurrency > 1 ? 16 : 1;
const gatherMs = 4;

if (pipeline !== null) {
  const open = pipeline;
  const queue: DedupRequest[] = [];
  // One drain at a time (the Pipeline is async: a second one would interleave with its writes).
  let draining = false;
  let timer: NodeJS.Timeout | null = null;
  const start = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (draining || queue.length === 0) return;
    draining = true;
    void drain(open, queue).finally(() => {
      draining = false;
      if (queue.length > 0) schedule();
    });
  };
  const schedule = (): void => {
    if (draining) return;
    // Anything but a commit (a skip, close) goes at once, and so does a full batch; otherwise the
    // first commit waits up to gatherMs for others. setImmediate: after the messages already
    // delivered to this thread have been queued.
    if (queue.length >= gatherCommits || queue[queue.length - 1]!.op !== 'commit') setImmediate(start);
    else timer ??= setTimeout(start, gatherMs);
  };
  port.on('message', (batch: DedupBatch) => {
    for (const request of batch) queue.push(request);
    schedule();
  });
}
