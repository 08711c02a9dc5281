/**
 * A writer process for the concurrency test: `node --import tsx concurrent-writer-child.ts <db> <role> <count> <go-file>`.
 * Waits for <go-file> to exist (so both writers start together), then judges `count` documents.
 * Role A judges base fingerprint i for i ascending; role B judges a copy of base i at distance 2 (and,
 * for every fifth i, an exact copy), for i descending, so the two meet in the middle and race for
 * every pair. Single calls and small batches alternate. Prints the decisions as one JSON line.
 * With a fifth argument `verify`, the index runs the second stage and every document has a sketch:
 * B's copy of base i lies 8 bits away (beyond k) with a sketch of Jaccard ~0.95 to A's, so only the
 * second stage, which must see the other process's sketches, can match them.
 */
import { existsSync } from 'node:fs';
import { defaultConfig } from '../../src/config.js';
import { FingerprintIndex } from '../../src/fingerprint-index/fingerprint-index.js';
import { shingleSketch } from '../../src/fingerprint/shingle-sketch.js';
import type { Decision, IndexCandidate } from '../../src/types.js';
import { flipBits, paramsFor, prng, randomFingerprint } from './index-test-helpers.js';

const [path, role, countArg, goFile, mode] = process.argv.slice(2);
if (path === undefined || (role !== 'A' && role !== 'B') || countArg === undefined || goFile === undefined) {
  process.stderr.write('usage: concurrent-writer-child.ts <db> <A|B> <count> <go-file>\n');
  process.exit(2);
}
const count = Number(countArg);

/** The shared sequence of base fingerprints (same seed in both processes). */
const next = prng(2024);
const bases = Array.from({ length: count }, () => randomFingerprint(next));

const verify = mode === 'verify' ? defaultConfig().verify : null;

/** The sketch of features numbered from..from+200 (base i: from = 1000·i; B's copy: 10 further). */
function sketchOf(from: number): Uint32Array {
  const ids = Array.from({ length: 200 }, (_, k) => from + k);
  return shingleSketch(Uint32Array.from(ids, (id) => Math.imul(id, 0x9e3779b1) >>> 0), Uint32Array.from(ids), ids.length, verify!.sketchSize);
}

function similarDocFor(i: number): IndexCandidate {
  if (role === 'A') return { url: `https://a.example/${i}`, fingerprint: bases[i]!, textHash: `text-${i}`, sketch: sketchOf(1000 * i) };
  const far = flipBits(bases[i]!, [i % 8, 8 + (i % 8), 16 + (i % 8), 24 + (i % 8), 32 + (i % 8), 40 + (i % 8), 48 + (i % 8), 56 + (i % 8)]);
  return { url: `https://b.example/${i}`, fingerprint: far, textHash: `copy-${i}`, sketch: sketchOf(1000 * i + 10) };
}

function docFor(i: number): IndexCandidate {
  if (verify !== null) return similarDocFor(i);
  if (role === 'A') return { url: `https://a.example/${i}`, fingerprint: bases[i]!, textHash: `text-${i}` };
  if (i % 5 === 0) return { url: `https://b.example/${i}`, fingerprint: bases[i]!, textHash: `text-${i}` };
  return { url: `https://b.example/${i}`, fingerprint: flipBits(bases[i]!, [i % 32, 32 + ((i * 7) % 32)]), textHash: `copy-${i}` };
}

const index = FingerprintIndex.open(path, { params: paramsFor(3), busyTimeoutMs: 30_000, verify });
process.stdout.write('ready\n');
const deadline = Date.now() + 30_000;
while (!existsSync(goFile)) {
  if (Date.now() > deadline) throw new Error('the go file never appeared');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
}

const order = Array.from({ length: count }, (_, i) => (role === 'A' ? i : count - 1 - i));
const decisions: Array<{ url: string; decision: Decision }> = [];
for (let at = 0; at < order.length; ) {
  if (at % 10 === 0) {
    const batch = order.slice(at, at + 3).map(docFor);
    index.checkAndInsertMany(batch).forEach((decision, j) => decisions.push({ url: batch[j]!.url, decision }));
    at += batch.length;
  } else {
    const doc = docFor(order[at]!);
    decisions.push({ url: doc.url, decision: index.checkAndInsert(doc) });
    at++;
  }
}
index.close();
process.stdout.write(`${JSON.stringify(decisions)}\n`);
