/**
 * Worker thread body: receives batches of documents and unparsed JSONL lines, runs the pure half
 * of the pipeline on each (parse the line; `analyzePage`: extract if HTML, normalise, fingerprint),
 * and posts the results back in the same order. A document that throws becomes an error result;
 * the batch goes on. Texts the main thread lacks come back as JSON bytes (see WireResult).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { AnalyzeOptions } from '../analyze/analyze-text.js';
import type { AnalyzedPage } from '../analyze/analyze-page.js';
import { StemCache } from '../analyze/analyze-text.js';
import type { Config } from '../config.js';
import type { PageInput } from '../types.js';
import { analyzeInput, analyzeJsonlText, type AnalyzeResult } from './analyze-item.js';
import type { AnalyzeReady, AnalyzeRequest, AnalyzeResponse, WireLine, WireResult } from './analyze-pool.js';

const port = parentPort;
if (port === null) throw new Error('analyze-worker must run in a worker thread');
const config = (workerData as { config: Config }).config;
/**
 * One stem cache for this thread's whole run (stemming dominates fingerprinting cost, and words
 * repeat across documents). Stems do not change fingerprints, so caching cannot change results.
 */
const options: AnalyzeOptions = { stemCache: new StemCache() };

function isWireLine(input: PageInput | WireLine): input is WireLine {
  return (input as Partial<WireLine>).kind === 'jsonl-line';
}

port.on('message', (request: AnalyzeRequest) => {
  const bytes = request.bytes === null ? null : Buffer.from(request.bytes.buffer, request.bytes.byteOffset, request.bytes.byteLength);
  const results: WireResult[] = [];
  // JSON strings of the texts to send back as bytes, and which result each belongs to.
  const jsonTexts: string[] = [];
  const jsonOf: number[] = [];
  for (const input of request.inputs) {
    let result: AnalyzeResult;
    if (isWireLine(input)) {
      result = analyzeJsonlText(bytes!.toString('utf8', input.start, input.end), input, config, options);
    } else {
      result = analyzeInput(input, config, options);
      if (result.ok && input.text !== undefined && result.page.text === input.text && result.page.text.length > 0) {
        results.push({ ok: true, page: { ...result.page, text: '' }, textIsInput: true });
        continue;
      }
    }
    if (result.ok && result.page.skip === null && result.page.text.length > 0) {
      jsonOf.push(results.length);
      jsonTexts.push(JSON.stringify(result.page.text));
    }
    results.push(result);
  }
  let texts: Uint8Array | null = null;
  if (jsonTexts.length > 0) {
    let total = 0;
    for (const t of jsonTexts) total += Buffer.byteLength(t, 'utf8');
    const out = Buffer.allocUnsafeSlow(total); // its own ArrayBuffer, so it can be transferred
    let offset = 0;
    for (let j = 0; j < jsonTexts.length; j++) {
      const written = out.write(jsonTexts[j]!, offset, 'utf8');
      const r = results[jsonOf[j]!] as { readonly ok: true; readonly page: AnalyzedPage };
      results[jsonOf[j]!] = { ok: true, page: { ...r.page, text: '' }, textJson: [offset, offset + written] };
      offset += written;
    }
    texts = new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  }
  const response: AnalyzeResponse = { id: request.id, results, texts };
  port.postMessage(response, texts === null ? [] : [texts.buffer as ArrayBuffer]);
});

const ready: AnalyzeReady = { ready: true };
port.postMessage(ready);
