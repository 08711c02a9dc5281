/**
 * Worker thread body of AnalysisThread: fingerprints extracted pages (`analyzeExtractedPage`,
 * pure) and posts each result back under its request id. Says `ready` once loaded.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '../config.js';
import { analyzeExtractedPage } from '../pipeline.js';
import { StemCache } from '../text/stem-cache.js';
import type { AnalysisReply, AnalysisRequest } from './analysis-thread.js';

const port = parentPort;
if (port === null) throw new Error('analysis-worker must run in a worker thread');
const config = (workerData as { config: Config }).config;
const stemCache = new StemCache();

port.on('message', (request: AnalysisRequest) => {
  let reply: AnalysisReply;
  try {
    const page = analyzeExtractedPage(request.input, request.page, config, { stemCache });
    // The caller has the extracted page and its text: they do not travel back (analysis-thread.ts).
    reply = { id: request.id, ok: true, page: { ...page, page: null, text: '' } };
  } catch (error) {
    reply = { id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});
port.postMessage('ready');
