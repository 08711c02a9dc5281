/**
 * Worker thread body: receives batches of PageInput, runs the pure half of the pipeline
 * (`analyzePage`: extract if HTML, normalise, fingerprint) on each, and posts the results back
 * in the same order. A document that throws becomes an error result; the batch goes on.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { analyzePage, type AnalyzeOptions } from '../pipeline.js';
import { StemCache } from '../text/stem-cache.js';
import type { Config } from '../config.js';
import type { AnalyzeReady, AnalyzeRequest, AnalyzeResponse, WireResult } from './analyze-pool.js';

const port = parentPort;
if (port === null) throw new Error('analyze-worker must run in a worker thread');
const config = (workerData as { config: Config }).config;
/**
 * One stem cache for this thread's whole run (stemming dominates fingerprinting cost, and words
 * repeat across documents). Stems do not change fingerprints, so caching cannot change results.
 */
const options: AnalyzeOptions = { stemCache: new StemCache() };

port.on('message', (request: AnalyzeRequest) => {
  const results: WireResult[] = request.inputs.map((input): WireResult => {
    try {
      const page = analyzePage(input, config, options);
      if (input.text !== undefined && page.text === input.text && page.text.length > 0) return { ok: true, page: { ...page, text: '' }, textIsInput: true };
      return { ok: true, page };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  });
  const response: AnalyzeResponse = { id: request.id, results };
  port.postMessage(response);
});

const ready: AnalyzeReady = { ready: true };
port.postMessage(ready);
