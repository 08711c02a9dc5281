/**
 * Worker thread body of the crawl's deduplication stage (dedup-stage.ts): opens the Pipeline of
 * the data folder, then answers commits and skips in the order they arrive, each after its writes
 * committed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '../config.js';
import { Pipeline } from '../pipeline.js';
import { serializeError } from '../errors.js';
import type { DedupReply, DedupRequest } from './dedup-stage.js';

const port = parentPort;
if (port === null) throw new Error('dedup-worker must run in a worker thread');
const { dataDir, config } = workerData as { dataDir: string; config: Config };
const send = (reply: DedupReply) => port.postMessage(reply);

let pipeline: Pipeline | null = null;
try {
  pipeline = Pipeline.open({ dataDir, config });
  send({ op: 'ready', counters: pipeline.counters });
} catch (error) {
  send({ op: 'open-failed', error: serializeError(error) });
}

if (pipeline !== null) {
  const open = pipeline;
  port.on('message', (request: DedupRequest) => {
    try {
      if (request.op === 'commit') {
        send({ id: request.id, ok: true, result: open.commitExtracted(request.input, request.page), counters: open.counters });
      } else if (request.op === 'skip') {
        open.recordSkip(request.url, request.reason, request.detail);
        send({ id: request.id, ok: true, result: null, counters: open.counters });
      } else {
        open.close();
        send({ id: request.id, ok: true, result: null, counters: open.counters });
        port.close();
      }
    } catch (error) {
      send({ id: request.id, ok: false, error: serializeError(error), counters: open.counters });
    }
  });
}
