/**
 * Worker thread body of the crawl's deduplication stage (dedup-stage.ts): opens the Pipeline of
 * the data folder, then answers commits and skips in the order they arrive, each after its writes
 * committed (commits that arrived together in one transaction).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '../config.js';
import { Pipeline } from '../pipeline.js';
import { serializeError } from '../errors.js';
import type { DedupReply, DedupRequest } from './dedup-stage.js';

const port = parentPort;
if (port === null) throw new Error('dedup-worker must run in a worker thread');
const { dataDir, config, indexUrl } = workerData as { dataDir: string; config: Config; indexUrl: string | null };
const send = (reply: DedupReply) => port.postMessage(reply);

let pipeline: Pipeline | null = null;
try {
  pipeline = await Pipeline.open({ dataDir, config, indexUrl });
  send({ op: 'ready', counters: pipeline.counters });
} catch (error) {
  send({ op: 'open-failed', error: serializeError(error) });
}

/**
 * Answers the requests waiting, in arrival order; commits that arrived together (while the worker
 * was busy) are committed together, in one index transaction and one corpus append (Pipeline
 * commitExtractedMany): the crawl hands pages over without waiting, so they queue up here.
 * Resolves once the queue is empty (requests arriving meanwhile are taken too) or the pipeline closed.
 */
async function drain(open: Pipeline, queue: DedupRequest[]): Promise<void> {
  while (queue.length > 0) {
    const first = queue[0]!;
    if (first.op === 'commit') {
      let end = 1;
      while (end < queue.length && queue[end]!.op === 'commit') end++;
      const batch = queue.splice(0, end) as Extract<DedupRequest, { op: 'commit' }>[];
      try {
        const results = await open.commitExtractedMany(batch);
        batch.forEach((request, i) => send({ id: request.id, ok: true, result: results[i]!, counters: open.counters }));
      } catch (error) {
        for (const request of batch) send({ id: request.id, ok: false, error: serializeError(error), counters: open.counters });
      }
      continue;
    }
    queue.shift();
    try {
      if (first.op === 'skip') {
        await open.recordSkip(first.url, first.reason, first.detail);
        send({ id: first.id, ok: true, result: null, counters: open.counters });
      } else {
        await open.close();
        send({ id: first.id, ok: true, result: null, counters: open.counters });
        port!.close();
        return;
      }
    } catch (error) {
      send({ id: first.id, ok: false, error: serializeError(error), counters: open.counters });
    }
  }
}

if (pipeline !== null) {
  const open = pipeline;
  const queue: DedupRequest[] = [];
  // One drain at a time (the Pipeline is async: a second one would interleave with its writes).
  let draining = false;
  const schedule = (): void => {
    if (draining) return;
    draining = true;
    // After the messages already delivered to this thread have been queued.
    setImmediate(() => {
      void drain(open, queue).finally(() => {
        draining = false;
        if (queue.length > 0) schedule();
      });
    });
  };
  port.on('message', (request: DedupRequest) => {
    queue.push(request);
    schedule();
  });
}
