/**
 * A writer process for the PostgreSQL second-stage race:
 * `node --import tsx pg-similar-writer-child.ts <url> <worker> <clusters> <go-file>`.
 * Opens the index with the second stage on, prints `ready`, waits for <go-file>, then judges its copy of
 * every cluster (similarCopy), in its own order, in batches of 1–12. Prints its decisions as one JSON line.
 */
import { existsSync } from 'node:fs';
import { PgFingerprintIndex } from '../../../src/fingerprint-index/postgres/pg-fingerprint-index.js';
import type { Decision } from '../../../src/types.js';
import { paramsFor, prng } from '../index-test-helpers.js';
import { VERIFY, similarCopy } from './similar-docs.js';

const [url, workerArg, clustersArg, goFile] = process.argv.slice(2);
if (url === undefined || workerArg === undefined || clustersArg === undefined || goFile === undefined) {
  process.stderr.write('usage: pg-similar-writer-child.ts <url> <worker> <clusters> <go-file>\n');
  process.exit(2);
}
const worker = Number(workerArg);
const clusters = Number(clustersArg);

const index = await PgFingerprintIndex.open(url, { params: paramsFor(3), batchSize: 5, verify: VERIFY, retryForMs: 120_000 });
process.stdout.write('ready\n');
const deadline = Date.now() + 120_000;
while (!existsSync(goFile)) {
  if (Date.now() > deadline) throw new Error(`${goFile} never appeared`);
  await new Promise((resolve) => setTimeout(resolve, 2));
}
const order = prng(2000 + worker);
const clusterOrder = Array.from({ length: clusters }, (_, i) => i);
for (let i = clusterOrder.length - 1; i > 0; i--) {
  const j = order() % (i + 1);
  [clusterOrder[i], clusterOrder[j]] = [clusterOrder[j]!, clusterOrder[i]!];
}
const decisions: Array<{ url: string; decision: Decision }> = [];
for (let at = 0, size = 1; at < clusterOrder.length; at += size, size = (size % 12) + 1) {
  const batch = clusterOrder.slice(at, at + size).map((c) => similarCopy(worker, c));
  const got = batch.length === 1 ? [await index.checkAndInsert(batch[0]!)] : await index.checkAndInsertMany(batch);
  got.forEach((decision, i) => decisions.push({ url: batch[i]!.url, decision }));
}
await index.close();
process.stdout.write(`${JSON.stringify(decisions)}\n`);
