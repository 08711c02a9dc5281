/**
 * Benchmark of the fingerprint index (src/fingerprint-index/).
 *
 *   npm run bench:index -- --n 1000000 [--ops 100000] [--lookups 100000] [--batch 1000] [--single 20000]
 *                          [--brute-ms 3000] [--load-batch 10000] [--db <file>] [--keep] [--verify]
 *
 * --verify: the index runs the second stage (config `verify` defaults) and every document carries a
 * 64-value sketch (distinct per document, drawn like the fingerprints), so the load stores sketches
 * and each check-and-insert also looks up its sketch keys; compare with a run without it, one
 * after the other (the ratio of their `checkinsert_per_s` is the second stage's cost). Step 2 times
 * the index calls only: building the documents and their sketches (the analysis's work in a real
 * run) is left out of the clock in both runs.
 *
 * 1. loads N random fingerprints through checkAndInsertMany (10,000 per transaction) into a fresh
 *    database under the OS temp folder (or --db; an existing --db is reused, and kept), in a child
 *    process; then opens it (timing the in-memory build);
 * 2. runs `--ops` check-and-inserts in transactions of `--batch` (half within distance 1–3 of a stored
 *    fingerprint, half new), then `--single` more one transaction each;
 * 3. runs `--lookups` plain lookups (check), half near a stored fingerprint, half not;
 * 4. reports memory, then, beside it, a brute-force linear scan (popcount over every fingerprint in a
 *    typed array) for a sample of the same queries, in a second child process, and checks that both
 *    give the same nearest distance.
 *
 * Memory: RSS (VmRSS) is sampled after each phase, and the peak (VmHWM, from /proc/self/status; on
 * other systems getrusage's maxrss) is that of this process, which only opens and uses the index: the
 * load and the brute-force copy of the fingerprints run in child processes. Fingerprints are drawn from
 * a counter-based generator, so queries near stored ones are recomputed instead of kept (the benchmark
 * holds no per-fingerprint memory). The last line is the summary; its rss_mb is the PEAK RSS (VmHWM)
 * of this process over the whole run (start-up, open and in-memory build, check-and-inserts, lookups),
 * not the RSS after a garbage collection:
 *   index: n=<N> checkinsert_per_s=<..> lookup_per_s=<..> bruteforce_lookup_per_s=<..> rss_mb=<..> db_mb=<..>
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { popcount32 } from '../src/fingerprint/fingerprint-codec.js';
import { defaultConfig } from '../src/config.js';
import { FingerprintIndex } from '../src/fingerprint-index/fingerprint-index.js';
import type { FingerprintParams, IndexCandidate } from '../src/types.js';
import { fmix32 } from '../src/fingerprint/murmur-hash.js';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '1000000' },
    ops: { type: 'string', default: '100000' },
    lookups: { type: 'string', default: '100000' },
    batch: { type: 'string', default: '1000' },
    single: { type: 'string', default: '20000' },
    'brute-ms': { type: 'string', default: '3000' },
    db: { type: 'string' },
    salt: { type: 'string', default: '0' },
    'load-batch': { type: 'string', default: '10000' },
    'load-only': { type: 'boolean', default: false },
    'brute-only': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    verify: { type: 'boolean', default: false },
  },
});
const verify = values.verify ? defaultConfig().verify : null;

function intArg(name: keyof typeof values, min: number): number {
  const raw = values[name];
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    console.error(`bench-index: expected --${name} to be an integer ≥ ${min}, got ${String(raw)}`);
    process.exit(2);
  }
  return value;
}

const N = intArg('n', 1);
const OPS = intArg('ops', 2);
const LOOKUPS = intArg('lookups', 2);
const BATCH = intArg('batch', 1);
const SINGLE = intArg('single', 0);
const BRUTE_MS = intArg('brute-ms', 1);
const LOAD_BATCH = intArg('load-batch', 1);

const params: FingerprintParams = { distance: 3, shingleSize: 3, hash: 'rabin', weighting: 'unit', normalizerVersion: 1 };

// ------------------------------------------------------------------ deterministic fingerprints

/** 32 random-looking bits for (stream, i, lane). */
function rand32(stream: number, i: number, lane: number): number {
  return fmix32((Math.imul(i, 0x9e3779b1) ^ fmix32(stream * 4 + lane + 0x5bd1e995)) >>> 0);
}

/** Loaded fingerprint number i (stream 1). */
function loadedHi(i: number): number {
  return rand32(1, i, 0);
}
function loadedLo(i: number): number {
  return rand32(1, i, 1);
}

interface Query {
  hi: number;
  lo: number;
  /** Bits flipped from loaded fingerprint `base`, or -1 for a fresh random fingerprint. */
  base: number;
  flips: number;
}

/** Differs between runs on a reused database, so "fresh" queries are not the ones a previous run stored. */
let querySalt = 0;

/** Query i of a stream: even i near a loaded fingerprint (1–3 bits flipped), odd i fresh. */
function query(streamNumber: number, i: number): Query {
  const stream = streamNumber + 8 * querySalt;
  if (i % 2 === 1) return { hi: rand32(stream, i, 0), lo: rand32(stream, i, 1), base: -1, flips: 0 };
  const base = rand32(stream, i, 2) % N;
  let hi = loadedHi(base);
  let lo = loadedLo(base);
  const flips = 1 + (rand32(stream, i, 3) % 3);
  const used = new Set<number>();
  for (let f = 0; used.size < flips; f++) {
    const bit = rand32(stream, i, 4 + f) % 64;
    if (used.has(bit)) continue;
    used.add(bit);
    if (bit < 32) hi = (hi ^ (1 << bit)) >>> 0;
    else lo = (lo ^ (1 << (bit - 32))) >>> 0;
  }
  return { hi, lo, base, flips };
}

/**
 * A document as the pipeline hands it to the index: the same object shape with and without --verify
 * (`sketch: null` when off, as src/pipeline.ts passes it), so that property reads cost the same.
 */
function doc(url: string, hi: number, lo: number, textHash: string): IndexCandidate {
  const sketch = verify === null ? null : sketchFor(hi, lo, verify.sketchSize);
  return { url, fingerprint: { hi, lo }, textHash, title: '', language: 'eng', textLength: 1000, fetchedAt: 1_700_000_000_000, depth: 1, sketch };
}

/** A document's sketch for --verify: `size` distinct values drawn from its fingerprint, ascending. */
function sketchFor(hi: number, lo: number, size: number): Uint32Array {
  // Each value mixed from (document, position) on its own: a chain (each value from the last) lets two
  // documents that meet on one value share all the rest, which the second stage rightly merges.
  const out = new Uint32Array(size);
  const h = fmix32((hi ^ Math.imul(lo, 0x9e3779b1)) >>> 0);
  for (let i = 0; i < size; i++) out[i] = fmix32((h ^ fmix32(Math.imul(i + 1, 0x6d2b79f5) >>> 0)) >>> 0) >>> 0;
  return out.sort();
}

function mb(bytes: number): string {
  return (bytes / 2 ** 20).toFixed(0);
}

function fileBytes(path: string): number {
  let total = 0;
  for (const suffix of ['', '-wal', '-shm']) if (existsSync(path + suffix)) total += statSync(path + suffix).size;
  return total;
}

/** RSS now and its peak so far (VmRSS, VmHWM), in bytes. */
function memory(): { rss: number; peak: number } {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
    const rss = kb('VmRSS');
    const peak = kb('VmHWM');
    if (Number.isFinite(rss) && Number.isFinite(peak)) return { rss, peak };
  } catch {
    // not Linux: fall through
  }
  return { rss: process.memoryUsage().rss, peak: process.resourceUsage().maxRSS * 1024 };
}

function rate(count: number, ms: number): number {
  return Math.round((count * 1000) / ms);
}

/** CPU milliseconds this process has used (user + system): on a shared machine, wall time also counts waiting. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** A phase's wall-clock and CPU rates. */
function timed<T>(count: number, body: () => T): { result: T; perS: number; cpuPerS: number; ms: number; cpu: number } {
  const wall = performance.now();
  const cpuStart = cpuMs();
  const result = body();
  const ms = performance.now() - wall;
  const cpu = cpuMs() - cpuStart;
  return { result, perS: rate(count, ms), cpuPerS: rate(count, cpu), ms, cpu };
}

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

// ------------------------------------------------------------------ 1. load

const dir = values.db === undefined ? mkdtempSync(join(tmpdir(), 'neardup-bench-index-')) : null;
const dbPath = values.db ?? join(dir!, 'index.db');
const reuse = existsSync(dbPath) && !values['load-only'] && !values['brute-only'];
if (reuse) querySalt = 1 + (Date.now() % 100_000);
if (values['brute-only']) querySalt = intArg('salt', 0);
const memStart = memory();
log(`bench-index: n=${N} ops=${OPS} lookups=${LOOKUPS} batch=${BATCH} db=${dbPath}${reuse ? ' (reused)' : ''}`);
log(`  (rates: wall clock, and in brackets per CPU second of this process; the machine may be shared)`);

if (values['load-only']) {
  // The child process of step 1 (see below).
  const index = FingerprintIndex.open(dbPath, { params, verify });
  const load = timed(N, () => {
    for (let start = 0; start < N; start += LOAD_BATCH) {
      const docs: IndexCandidate[] = [];
      for (let i = start; i < Math.min(N, start + LOAD_BATCH); i++) {
        docs.push(doc(`https://site${i % 1009}.example/page/${i.toString(36)}`, loadedHi(i), loadedLo(i), `load-${i}`));
      }
      index.checkAndInsertMany(docs);
    }
  });
  const s = index.stats();
  index.close();
  log(
    `load: ${N} check-and-inserts in transactions of ${LOAD_BATCH} in ${(load.ms / 1000).toFixed(1)} s: ` +
      `${load.perS}/s [${load.cpuPerS}/s]; stored=${s.stored} rejected=${s.exact + s.near}`,
  );
  process.exit(0);
}

if (values['brute-only']) {
  // The child process of step 4 (see below): copies every stored fingerprint into a typed array and
  // scans it linearly for the lookup queries, for up to --brute-ms; prints the rate and each nearest distance.
  const source = FingerprintIndex.open(dbPath, { params, readonly: true });
  const fps = new Uint32Array(2 * (source.stats().stored + 1024));
  let count = 0;
  for (const stored of source.stored()) {
    if (2 * count + 2 > fps.length) break;
    fps[2 * count] = stored.fingerprint.hi;
    fps[2 * count + 1] = stored.fingerprint.lo;
    count++;
  }
  source.close();
  const bruteNearest = (hi: number, lo: number): number => {
    let best = 65;
    for (let i = 0; i < count; i++) {
      const d = popcount32((fps[2 * i]! ^ hi) >>> 0) + popcount32((fps[2 * i + 1]! ^ lo) >>> 0);
      if (d < best) best = d;
    }
    return best;
  };
  const nearest: number[] = [];
  let bruteMs = 0;
  let bruteCpuMs = 0;
  while (bruteMs < BRUTE_MS && nearest.length < LOOKUPS) {
    const q = query(4, nearest.length);
    const wall = performance.now();
    const cpu = cpuMs();
    nearest.push(bruteNearest(q.hi, q.lo));
    bruteMs += performance.now() - wall;
    bruteCpuMs += cpuMs() - cpu;
  }
  log(`brute: ${count} ${bruteMs} ${bruteCpuMs} ${nearest.join(',')}`);
  process.exit(0);
}

if (!reuse) {
  // The load runs in a child process, so that what this process measures (its RSS above all) is what a
  // process opening an index of N fingerprints holds, not what is left over from writing them.
  const child = spawnSync(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), '--n', String(N), '--load-batch', String(LOAD_BATCH), '--db', dbPath, '--load-only', ...(verify === null ? [] : ['--verify'])],
    { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' },
  );
  process.stdout.write(child.stdout.split('\n').filter((line) => line.startsWith('load:')).map((line) => `${line}\n`).join(''));
  if (child.status !== 0) {
    console.error(`bench-index: the load failed (exit ${String(child.status)})`);
    process.exit(1);
  }
}

const opened = timed(1, () => {
  const index = FingerprintIndex.open(dbPath, { params, verify });
  index.check({ hi: 0, lo: 0 }, 'warm-up'); // builds the in-memory table
  return index;
});
const index = opened.result;
if (index.stats().stored < N) {
  console.error(`bench-index: ${dbPath} holds ${index.stats().stored} stored documents, fewer than --n ${N}`);
  process.exit(2);
}
const memOpened = memory();
log(
  `open: reopen + in-memory build ${(opened.ms / 1000).toFixed(2)} s [${(opened.cpu / 1000).toFixed(2)} s CPU] ` +
    `in ${index.buildPasses} pass${index.buildPasses === 1 ? ' (saved bucket counts)' : 'es'} over the documents, ` +
    `table ${mb(index.memoryBytes)} MB (${(index.memoryBytes / index.stats().stored).toFixed(1)} B/fingerprint)`,
);

// ------------------------------------------------------------------ 2. check-and-insert

const run = Date.now().toString(36);
let expectedNear = 0;
let gotNear = 0;
let gotStored = 0;
let wrongMatch = 0;
/**
 * Only the index calls are timed: the documents (and their sketches, which the analysis makes in a real
 * run, see bench:fingerprint) are built before each call, outside the clock.
 */
function timedCalls(count: number, body: (clock: <T>(call: () => T) => T) => void): { perS: number; cpuPerS: number } {
  let ms = 0;
  let cpu = 0;
  body((call) => {
    const wall = performance.now();
    const cpuStart = cpuMs();
    const result = call();
    ms += performance.now() - wall;
    cpu += cpuMs() - cpuStart;
    return result;
  });
  return { perS: rate(count, ms), cpuPerS: rate(count, cpu) };
}

const ops = timedCalls(OPS, (clock) => {
  for (let start = 0; start < OPS; start += BATCH) {
    const queries: Query[] = [];
    const docs: IndexCandidate[] = [];
    for (let i = start; i < Math.min(OPS, start + BATCH); i++) {
      const q = query(2, i);
      queries.push(q);
      docs.push(doc(`https://ops.example/${run}/${i}`, q.hi, q.lo, `ops-${run}-${i}`));
    }
    const decisions = clock(() => index.checkAndInsertMany(docs));
    for (let j = 0; j < decisions.length; j++) {
      const d = decisions[j]!;
      const q = queries[j]!;
      if (q.base >= 0) expectedNear++;
      if (d.kind === 'near') {
        gotNear++;
        if (q.base >= 0 && d.distance > q.flips) wrongMatch++;
      } else if (d.kind === 'stored') gotStored++;
    }
  }
});
log(
  `check-and-insert: ${OPS} in transactions of ${BATCH}: ${ops.perS}/s [${ops.cpuPerS}/s] ` +
    `(${gotNear} near of ${expectedNear} built near, ${gotStored} stored, ${wrongMatch} with a wrong distance)`,
);

if (SINGLE > 0) {
  const single = timedCalls(SINGLE, (clock) => {
    for (let i = 0; i < SINGLE; i++) {
      const q = query(3, i);
      const d = doc(`https://single.example/${run}/${i}`, q.hi, q.lo, `single-${run}-${i}`);
      clock(() => index.checkAndInsert(d));
    }
  });
  log(`check-and-insert: ${SINGLE} one transaction each: ${single.perS}/s [${single.cpuPerS}/s]`);
}

const memAfterOps = memory();

// ------------------------------------------------------------------ 3. lookups

const lookups = timed(LOOKUPS, () => {
  let found = 0;
  for (let i = 0; i < LOOKUPS; i++) {
    const q = query(4, i);
    if (index.check({ hi: q.hi, lo: q.lo }, `lookup-${i}`) !== null) found++;
  }
  return found;
});
log(`lookup: ${LOOKUPS} checks: ${lookups.perS}/s [${lookups.cpuPerS}/s] (${lookups.result} found a match, ~${LOOKUPS / 2} built near)`);

const memAfterLookups = memory();
// RSS of what is live after a full garbage collection, for comparison with the peak.
setFlagsFromString('--expose-gc');
(runInNewContext('gc') as () => void)();
// V8 frees the backing stores of collected ArrayBuffers on a background thread: give it a moment.
await new Promise((resolve) => setTimeout(resolve, 500));
const usage = process.memoryUsage();
const memAfterGc = memory();
log(
  `memory: peak rss ${mb(memAfterGc.peak)} MB (VmHWM); rss ${mb(memStart.rss)} MB at start (node + tsx + modules), ` +
    `${mb(memOpened.rss)} after open + build (peak ${mb(memOpened.peak)} so far), ${mb(memAfterOps.rss)} after check-and-inserts, ` +
    `${mb(memAfterLookups.rss)} after lookups, ${mb(memAfterGc.rss)} after a full GC; in-memory index ${mb(index.memoryBytes)} MB; ` +
    `JS heap ${mb(usage.heapUsed)}/${mb(usage.heapTotal)} MB, array buffers ${mb(usage.arrayBuffers)} MB (V8 leaves out the growable buffers of the index's planes)`,
);

// ------------------------------------------------------------------ 4. brute force, beside it (in a child process)

const brute = spawnSync(
  process.execPath,
  [
    ...process.execArgv, fileURLToPath(import.meta.url), '--n', String(N), '--db', dbPath, '--brute-only',
    '--brute-ms', String(BRUTE_MS), '--lookups', String(LOOKUPS), '--salt', String(querySalt),
  ],
  { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 64 * 2 ** 20 },
);
const bruteLine = brute.stdout.split('\n').find((line) => line.startsWith('brute: '));
if (brute.status !== 0 || bruteLine === undefined) {
  console.error(`bench-index: the brute-force scan failed (exit ${String(brute.status)})`);
  process.exit(1);
}
const [countText, msText, cpuText, nearestText] = bruteLine.slice('brute: '.length).split(' ');
const count = Number(countText);
const bruteMs = Number(msText);
const bruteCpuMs = Number(cpuText);
const nearest = nearestText!.split(',').map(Number);
let disagreements = 0;
for (let i = 0; i < nearest.length; i++) {
  const q = query(4, i);
  const match = index.check({ hi: q.hi, lo: q.lo }, `lookup-${i}`);
  const indexNearest = match === null ? 65 : match.distance;
  if ((nearest[i]! <= params.distance ? nearest[i]! : 65) !== indexNearest) disagreements++;
}
const bruteQueries = nearest.length;
const brutePerS = (bruteQueries * 1000) / bruteMs;
const bruteCpuPerS = (bruteQueries * 1000) / bruteCpuMs;
log(
  `brute force: ${bruteQueries} linear scans over ${count} fingerprints: ${brutePerS.toFixed(1)}/s [${bruteCpuPerS.toFixed(1)}/s]; ` +
    `index/brute = ${(lookups.perS / brutePerS).toFixed(0)}x [${(lookups.cpuPerS / bruteCpuPerS).toFixed(0)}x]; ` +
    `${disagreements} disagreements with the index`,
);

index.close();
// VmHWM is the kernel's high-water mark, which it may update lazily: the largest of every reading is reported.
const peak = Math.max(memory().peak, memAfterGc.peak, memAfterGc.rss, memAfterLookups.peak, memAfterOps.peak, memOpened.peak);
const dbBytes = fileBytes(dbPath);
if (!values.keep && !reuse) {
  if (dir !== null) rmSync(dir, { recursive: true, force: true });
  else for (const suffix of ['', '-wal', '-shm']) rmSync(dbPath + suffix, { force: true });
}

log(
  `index: n=${N} checkinsert_per_s=${ops.perS} lookup_per_s=${lookups.perS} ` +
    `bruteforce_lookup_per_s=${brutePerS.toFixed(1)} rss_mb=${mb(peak)} db_mb=${mb(dbBytes)} verify=${verify === null ? 'off' : 'on'} ` +
    `checkinsert_cpu_per_s=${ops.cpuPerS}`,
);
