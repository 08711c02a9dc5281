/**
 * Benchmark of the PostgreSQL index (src/fingerprint-index/postgres/) against the SQLite one, in the same run.
 *
 *   npm run bench:pg -- [--n 10000000] [--processes 8] [--ops 20000] [--batch 100] [--sync on|off|both] [--fsync-off]
 *
 * 1. starts a throwaway PostgreSQL cluster (test/helpers/postgres-server.ts) with the settings the README
 *    gives users (SERVER_SETTINGS; fsync and full_page_writes on, as on any server whose data matters;
 *    --fsync-off: the tests' unsafe cluster), creates the index and loads N random fingerprints with COPY;
 * 2. one process opens the index alone (open_s: connect, schema check, COPY of the stored rows, table build);
 * 3. `--processes` processes open it, then run `--ops` check-and-inserts each at once, in transactions
 *    of `--batch` (half within distance 1–3 of a loaded fingerprint, half new); checkinsert_per_s is
 *    all their documents over the wall time from the common start to the last one's end. With `--sync
 *    both` (the default) this runs twice, with new URLs: synchronous_commit on (PostgreSQL's default: a
 *    commit returns once its WAL is on disk) and off (`ALTER DATABASE ... SET synchronous_commit = off`,
 *    a user's choice: a server crash may lose the last few hundred milliseconds of commits, never
 *    consistency); the last line's checkinsert_per_s is the first one run (on, unless --sync off);
 * 4. the same work in one process on a SQLite index holding the same N fingerprints (loaded beforehand
 *    in a child process, not timed): sqlite_single_per_s.
 * Each figure is printed with the load average (the machine may be shared) and the CPU the writers and
 * the server used per check-and-insert (a figure that does not depend on how busy the machine is).
 * Last line:
 *   pg: n=<N> processes=<P> checkinsert_per_s=<aggregate> open_s=<one process> sqlite_single_per_s=<..>
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { fingerprintToBigInt } from '../src/fingerprint/fingerprint-codec.js';
import { blockLayout, blockValue } from '../src/fingerprint-index/block-layout.js';
import { FingerprintIndex } from '../src/fingerprint-index/fingerprint-index.js';
import { PgFingerprintIndex } from '../src/fingerprint-index/postgres/pg-fingerprint-index.js';
import type { FingerprintParams, IndexCandidate } from '../src/types.js';
import { PostgresServer } from '../test/helpers/postgres-server.js';
import { fmix32 } from '../src/fingerprint/murmur-hash.js';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '10000000' },
    processes: { type: 'string', default: '8' },
    ops: { type: 'string', default: '20000' },
    batch: { type: 'string', default: '100' },
    sync: { type: 'string', default: 'both' },
    'fsync-off': { type: 'boolean', default: false },
    tag: { type: 'string', default: 'a' },
    // Child roles (internal).
    role: { type: 'string' },
    url: { type: 'string' },
    worker: { type: 'string', default: '0' },
    go: { type: 'string' },
    db: { type: 'string' },
  },
});

function intArg(name: 'n' | 'processes' | 'ops' | 'batch' | 'worker', min: number): number {
  const value = Number(values[name]);
  if (!Number.isInteger(value) || value < min) {
    console.error(`bench-pg: expected --${name} to be an integer ≥ ${min}, got ${String(values[name])}`);
    process.exit(2);
  }
  return value;
}

const N = intArg('n', 1);
const PROCESSES = intArg('processes', 1);
const OPS = intArg('ops', 0);
const BATCH = intArg('batch', 1);
if (!['on', 'off', 'both'].includes(values.sync!)) {
  console.error(`bench-pg: expected --sync to be on, off or both, got ${values.sync}`);
  process.exit(2);
}
/**
 * Server settings for a neardup index (README): memory for the block indexes and the url index, fewer
 * checkpoints under a write-heavy load, no JIT compilation for short statements.
 */
const SERVER_SETTINGS = { shared_buffers: '1GB', max_wal_size: '4GB', jit: 'off' };
const params: FingerprintParams = { distance: 3, shingleSize: 3, hash: 'rabin', weighting: 'unit', normalizerVersion: 1 };
const SELF = fileURLToPath(import.meta.url);

// ------------------------------------------------------------------ deterministic fingerprints

/** 32 random-looking bits for (stream, i, lane): loaded fingerprints are stream 1, worker w's queries 2 + w. */
function rand32(stream: number, i: number, lane: number): number {
  return fmix32((Math.imul(i, 0x9e3779b1) ^ fmix32(stream * 4 + lane + 0x5bd1e995)) >>> 0);
}

/** Query i of worker w: even i within 1–3 bits of a loaded fingerprint, odd i fresh. */
function query(worker: number, i: number, tag = 'a'): IndexCandidate {
  const stream = 2 + worker;
  const url = `https://${tag}.w${worker}.example/${i}`;
  if (i % 2 === 1) return { url, fingerprint: { hi: rand32(stream, i, 0), lo: rand32(stream, i, 1) }, textHash: `q${worker}:${i}` };
  const base = rand32(stream, i, 2) % N;
  let hi = rand32(1, base, 0);
  let lo = rand32(1, base, 1);
  const flips = 1 + (rand32(stream, i, 3) % 3);
  const used = new Set<number>();
  for (let f = 0; used.size < flips; f++) {
    const bit = rand32(stream, i, 4 + f) % 64;
    if (used.has(bit)) continue;
    used.add(bit);
    if (bit < 32) hi = (hi ^ (1 << bit)) >>> 0;
    else lo = (lo ^ (1 << (bit - 32))) >>> 0;
  }
  return { url, fingerprint: { hi, lo }, textHash: `q${worker}:${i}` };
}

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

// ------------------------------------------------------------------ child roles

/** PostgreSQL writer: open (timed), `ready <open_s>`, wait for the go file, run OPS, `done <cpu seconds of the run>`. */
async function writer(): Promise<void> {
  const worker = intArg('worker', 0);
  const index = await PgFingerprintIndex.open(values.url!, { params, batchSize: BATCH });
  log(`ready ${index.openSeconds.toFixed(2)} ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)}`);
  if (OPS > 0) {
    while (!existsSync(values.go!)) await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const cpu = process.cpuUsage();
  for (let at = 0; at < OPS; at += BATCH) {
    const docs = Array.from({ length: Math.min(BATCH, OPS - at) }, (_, j) => query(worker, at + j, values.tag));
    await index.checkAndInsertMany(docs);
  }
  const used = process.cpuUsage(cpu);
  await index.close();
  log(`done ${((used.user + used.system) / 1e6).toFixed(3)}`);
}

/** SQLite load (not timed by the parent's figure): N fingerprints, 10,000 per transaction. */
function sqliteLoad(): void {
  const index = FingerprintIndex.open(values.db!, { params });
  for (let at = 0; at < N; at += 10_000) {
    const docs: IndexCandidate[] = [];
    for (let i = at; i < Math.min(N, at + 10_000); i++) {
      docs.push({ url: `https://load.example/${i}`, fingerprint: { hi: rand32(1, i, 0), lo: rand32(1, i, 1) }, textHash: `l${i}` });
    }
    index.checkAndInsertMany(docs);
  }
  index.close();
  log('done');
}

// ------------------------------------------------------------------ parent

function runChild(args: string[], onLine: (line: string) => void = () => undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', SELF, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let buffer = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      for (let nl = buffer.indexOf('\n'); nl !== -1; nl = buffer.indexOf('\n')) {
        onLine(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
      }
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`bench-pg child ${args.join(' ')} exited ${code}`))));
  });
}

const common = ['--n', String(N), '--batch', String(BATCH)];

/** Loads N fingerprints into the PostgreSQL index with one COPY. */
async function loadPostgres(url: string): Promise<void> {
  await (await PgFingerprintIndex.open(url, { params })).close();
  const layout = blockLayout(params.distance);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = function* (): Generator<string> {
      let chunk = '';
      for (let i = 0; i < N; i++) {
        const hi = rand32(1, i, 0);
        const lo = rand32(1, i, 1);
        const blocks = layout.starts.map((s, b) => blockValue(hi, lo, s, layout.widths[b]!)).join('\t');
        chunk += `${i + 1}\tstored\thttps://load.example/${i}\t${fingerprintToBigInt({ hi, lo })}\t${blocks}\tl${i}\n`;
        if (chunk.length > 1 << 16) {
          yield chunk;
          chunk = '';
        }
      }
      if (chunk !== '') yield chunk;
    };
    const columns = ['id', 'kind', 'url', 'fingerprint', ...layout.starts.map((_, b) => `b${b}`), 'text_hash'];
    await pipeline(Readable.from(rows()), client.query(copyFrom(`COPY neardup_documents (${columns.join(', ')}) FROM STDIN`)));
    await client.query(`SELECT setval('neardup_documents_id_seq', $1)`, [N]);
    await client.query('VACUUM ANALYZE neardup_documents');
  } finally {
    await client.end();
  }
}

/** SQLite: the same queries as all writers, one process, transactions of BATCH. */
function sqliteSingle(dbPath: string): number {
  const index = FingerprintIndex.open(dbPath, { params });
  index.check({ hi: 1, lo: 2 }, 'warm-up'); // builds the in-memory table (not timed, like the writers' open)
  const started = performance.now();
  for (let worker = 0; worker < PROCESSES; worker++) {
    for (let at = 0; at < OPS; at += BATCH) {
      index.checkAndInsertMany(Array.from({ length: Math.min(BATCH, OPS - at) }, (_, j) => query(worker, at + j)));
    }
  }
  const seconds = (performance.now() - started) / 1000;
  index.close();
  return (PROCESSES * OPS) / seconds;
}

/** The load average, for printing beside a figure. */
function load(): string {
  return `load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`;
}

/** `--processes` writers released together; returns the aggregate rate and the writers' CPU seconds. */
async function raceWriters(url: string, folder: string, tag: string, onGo: () => void): Promise<{ rate: number; opens: number[]; cpu: number }> {
  const goFile = join(folder, `go-${tag}`);
  let ready = 0;
  let goAt = 0;
  let cpu = 0;
  const opens: number[] = [];
  const writers = Array.from({ length: PROCESSES }, (_, w) =>
    runChild(['--role', 'writer', '--url', url, ...common, '--ops', String(OPS), '--worker', String(w), '--go', goFile, '--tag', tag], (line) => {
      if (line.startsWith('done ')) cpu += Number(line.split(' ')[1]);
      if (!line.startsWith('ready ')) return;
      opens.push(Number(line.split(' ')[1]));
      if (++ready === PROCESSES) {
        onGo();
        goAt = performance.now();
        writeFileSync(goFile, 'go');
      }
    }),
  );
  await Promise.all(writers);
  return { rate: (PROCESSES * OPS) / ((performance.now() - goAt) / 1000), opens, cpu };
}

async function main(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'neardup-bench-pg-'));
  const server = await PostgresServer.start({ fast: values['fsync-off'], settings: SERVER_SETTINGS });
  try {
    const url = await server.createDatabase('bench');
    log(`server: ${Object.entries(SERVER_SETTINGS).map(([k, v]) => `${k}=${v}`).join(' ')} fsync=${values['fsync-off'] ? 'off' : 'on'}`);
    let t = performance.now();
    await loadPostgres(url);
    log(`loaded ${N} fingerprints into PostgreSQL in ${((performance.now() - t) / 1000).toFixed(1)} s (COPY, indexes, ANALYZE); ${load()}`);

    let openSeconds = 0;
    await runChild(['--role', 'writer', '--url', url, ...common, '--ops', '0'], (line) => {
      if (line.startsWith('ready ')) {
        openSeconds = Number(line.split(' ')[1]);
        log(`one process opened the index in ${openSeconds} s (rss ${line.split(' ')[2]} MB); ${load()}`);
      }
    });

    const modes = values.sync === 'both' ? ['on', 'off'] : [values.sync!];
    let pgRate = 0;
    for (const mode of modes) {
      await setSynchronousCommit(url, mode);
      let serverCpu = 0; // from the common start: the writers' opens are not counted
      const run = await raceWriters(url, folder, `sync-${mode}`, () => (serverCpu = server.cpuSeconds()));
      const serverUsed = server.cpuSeconds() - serverCpu;
      const perOp = (seconds: number) => ((seconds / (PROCESSES * OPS)) * 1e6).toFixed(0);
      log(
        `synchronous_commit=${mode}: ${PROCESSES} processes opened at once in ${Math.min(...run.opens)}–${Math.max(...run.opens)} s; ` +
          `${PROCESSES * OPS} check-and-inserts at ${run.rate.toFixed(0)}/s; CPU per check-and-insert: writers ${perOp(run.cpu)} µs, ` +
          `server ${perOp(serverUsed)} µs; ${load()}`,
      );
      if (pgRate === 0) pgRate = run.rate;
    }

    const dbPath = join(folder, 'sqlite.db');
    t = performance.now();
    await runChild(['--role', 'sqlite-load', '--db', dbPath, ...common]);
    log(`loaded ${N} fingerprints into SQLite in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const sqliteRate = sqliteSingle(dbPath);
    log(`SQLite, one process: ${sqliteRate.toFixed(0)}/s; ${load()}`);
    log(
      `pg: n=${N} processes=${PROCESSES} checkinsert_per_s=${pgRate.toFixed(0)} open_s=${openSeconds.toFixed(2)} ` +
        `sqlite_single_per_s=${sqliteRate.toFixed(0)}`,
    );
  } finally {
    server.remove();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Sets the database's synchronous_commit for the sessions opened after (the writers). */
async function setSynchronousCommit(url: string, mode: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`ALTER DATABASE bench SET synchronous_commit = ${mode === 'on' ? 'on' : 'off'}`);
  } finally {
    await client.end();
  }
}

if (values.role === 'writer') await writer();
else if (values.role === 'sqlite-load') sqliteLoad();
else await main();
