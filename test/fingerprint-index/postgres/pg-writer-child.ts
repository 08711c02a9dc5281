/**
 * A writer process for the PostgreSQL concurrency tests:
 * `node --import tsx pg-writer-child.ts <url> <worker> <clusters> <go-file> [<pause-file>]`.
 * Opens the index, prints `ready`, waits for <go-file>, then judges one document of every cluster, in
 * its own order, alternating single calls and batches of 2–20. Every cluster's documents lie within
 * distance 3 of each other (each flips a subset of the same 3 bits of the cluster's base; no subset
 * is an exact copy with the cluster's text hash); every tenth cluster's document also goes under a URL
 * all workers share. With <pause-file>: after half the clusters prints `half` and waits for the file.
 * Prints its decisions as one JSON line at the end.
 */
import { existsSync } from 'node:fs';
import { PgFingerprintIndex } from '../../../src/fingerprint-index/postgres/pg-fingerprint-index.js';
import type { Decision, IndexCandidate } from '../../../src/types.js';
import { flipBits, paramsFor, prng, randomFingerprint, randomPositions } from '../index-test-helpers.js';

const [url, workerArg, clustersArg, goFile, pauseFile] = process.argv.slice(2);
if (url === undefined || workerArg === undefined || clustersArg === undefined || goFile === undefined) {
  process.stderr.write('usage: pg-writer-child.ts <url> <worker> <clusters> <go-file> [<pause-file>]\n');
  process.exit(2);
}
const worker = Number(workerArg);
const clusters = Number(clustersArg);

/** Bases and bit sets shared by every worker (same seed). */
const shared = prng(4242);
const bases = Array.from({ length: clusters }, () => ({ base: randomFingerprint(shared), bits: randomPositions(shared, 3) }));

function docFor(c: number): IndexCandidate[] {
  const { base, bits } = bases[c]!;
  const mask = (worker + c) % 8;
  const flips = bits.filter((_, i) => (mask >> i) & 1);
  const fingerprint = flipBits(base, flips);
  const textHash = flips.length === 0 ? `text-${c}` : `copy-${c}-${worker}`;
  const own: IndexCandidate = { url: `https://w${worker}.example/${c}`, fingerprint, textHash };
  return c % 10 === 0 ? [own, { url: `https://shared.example/${c}`, fingerprint: base, textHash: `text-${c}` }] : [own];
}

function wait(file: string): void {
  const deadline = Date.now() + 120_000;
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`${file} never appeared`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
  }
}

const index = await PgFingerprintIndex.open(url, { params: paramsFor(3), batchSize: 8, retryForMs: 120_000 });
process.stdout.write('ready\n');
wait(goFile);
const order = prng(1000 + worker);
const clusterOrder = Array.from({ length: clusters }, (_, i) => i);
for (let i = clusterOrder.length - 1; i > 0; i--) {
  const j = order() % (i + 1);
  [clusterOrder[i], clusterOrder[j]] = [clusterOrder[j]!, clusterOrder[i]!];
}
const decisions: Array<{ url: string; decision: Decision }> = [];
let paused = pauseFile === undefined;
for (let at = 0, size = 1; at < clusterOrder.length; at += size, size = (size % 20) + 1) {
  if (!paused && at >= clusterOrder.length / 2) {
    process.stdout.write('half\n');
    wait(pauseFile!);
    paused = true;
  }
  const batch = clusterOrder.slice(at, at + size).flatMap(docFor);
  const got = batch.length === 1 ? [await index.checkAndInsert(batch[0]!)] : await index.checkAndInsertMany(batch);
  got.forEach((decision, i) => decisions.push({ url: batch[i]!.url, decision }));
}
await index.close();
process.stdout.write(`${JSON.stringify(decisions)}\n`);
