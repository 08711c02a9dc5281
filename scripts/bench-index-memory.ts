/**
 * Memory a process holds per stored document when it opens a filled neardup index with the flag
 * stages on (issue 25: target ≤ 1 KB per stored document beyond a baseline), PostgreSQL and SQLite:
 *
 *   npm run bench:memory -- [--corpus /tmp/corpus.jsonl] [--docs N] [--cli DIR] [--workers n]
 *       [--backend pg|sqlite|both] [--repeat 1] [--fill-max-in-flight 1]
 *
 * For each backend:
 * 1. fill: the real CLI (`node DIR/bin/neardup.js dedup <corpus> --index <url>`, or `--data <dir>` for
 *    SQLite; DIR from --cli, default this repository, built with `npm run build`) on the corpus (its
 *    first N lines with --docs), defaults otherwise (flag stages on, --workers the CLI's default
 *    unless given) but `--max-in-flight` 1 (--fill-max-in-flight): with larger batches a PostgreSQL fill
 *    with the flag stages on fails as of 43f0cf1..e9a0c3b — a page stored and flagged `compiled` in a
 *    batch and judged again in the same batch gives two (url, kind) rows in one
 *    `INSERT INTO neardup_flags ... ON CONFLICT DO UPDATE`, which PostgreSQL refuses (21000); one
 *    document a batch cannot give two. Both backends are filled alike; the run's summary gives the
 *    stored documents S;
 * 2. peak: a NEW CLI process dedups a one-document corpus against the filled index (so it loads what it
 *    keeps in memory), under /usr/bin/time: its "maximum resident set size" (getrusage of the waited
 *    child: the whole process with its worker threads);
 * 3. baseline: the same one-document run against an EMPTY index (a fresh database, or a fresh --data);
 * and prints (peak − baseline) / S in bytes. With --repeat R, steps 2 and 3 run R times alternately
 * (a different one-document corpus each time) and the lowest peak of each is kept.
 *
 * Each measured process also loads a probe (--import, main thread only) that samples
 * process.memoryUsage() every 20 ms and prints the highest heapUsed, external and arrayBuffers on exit:
 * where the extra memory is (JS objects vs. buffers), printed beside each figure.
 *
 * The PostgreSQL cluster is a throwaway one (test/helpers/postgres-server.ts: PostgreSQL binaries on
 * PATH or under /usr/lib/postgresql/<v>/bin, run as the `postgres` OS user when root); it is stopped and
 * every temp folder removed at the end, also on failure.
 * Last line:
 *   memory: backend=pg docs=N stored=S peak_mb=.. baseline_mb=.. bytes_per_doc=.. disk_bytes_per_doc=.. | backend=sqlite ...
 * disk_bytes_per_doc: the filled index on disk over S (SQLite: neardup.db with -wal and -shm;
 * PostgreSQL: pg_total_relation_size of the neardup tables, with their indexes and TOAST).
 */
import { execFile } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync, createWriteStream } from 'node:fs';
import pg from 'pg';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { finished } from 'node:stream/promises';
import { parseArgs, promisify } from 'node:util';
import { PostgresServer } from '../test/helpers/postgres-server.js';

const { values: flags } = parseArgs({
  options: {
    corpus: { type: 'string', default: '/tmp/corpus.jsonl' },
    docs: { type: 'string' },
    cli: { type: 'string' },
    workers: { type: 'string' },
    backend: { type: 'string', default: 'both' },
    repeat: { type: 'string', default: '1' },
    'fill-max-in-flight': { type: 'string', default: '1' },
  },
});

function fail(message: string): never {
  process.stderr.write(`bench-index-memory: ${message}\n`);
  process.exit(2);
}

function positiveInt(name: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) fail(`Expected \`--${name}\` to be an integer ≥ 1, got \`${raw}\``);
  return value;
}

const corpusFile = resolve(flags.corpus!);
if (!existsSync(corpusFile)) fail(`Expected a JSONL corpus (scripts/make-corpus.ts), but ${corpusFile} does not exist`);
const docLimit = flags.docs === undefined ? null : positiveInt('docs', flags.docs);
const repeat = positiveInt('repeat', flags.repeat!);
const fillMaxInFlight = positiveInt('fill-max-in-flight', flags['fill-max-in-flight']!);
if (flags.workers !== undefined && !/^\d+$/u.test(flags.workers)) fail(`Expected \`--workers\` to be an integer ≥ 0, got \`${flags.workers}\``);
if (!['pg', 'sqlite', 'both'].includes(flags.backend!)) fail(`Expected \`--backend\` to be pg, sqlite or both, got \`${flags.backend}\``);
const backends = flags.backend === 'both' ? ['pg', 'sqlite'] as const : [flags.backend as 'pg' | 'sqlite'];
const cliDir = resolve(flags.cli ?? new URL('..', import.meta.url).pathname);
const cliEntry = join(cliDir, 'bin/neardup.js');
if (!existsSync(join(cliDir, 'dist/cli.js'))) fail(`Expected a built CLI, but ${join(cliDir, 'dist/cli.js')} is missing: run \`npm run build\` in ${cliDir}`);

// ------------------------------------------------------------------ the measured child

/** Highest process.memoryUsage() fields seen in the main thread, printed to stderr on exit. */
const PROBE = `
import { isMainThread } from 'node:worker_threads';
if (isMainThread) {
  const high = { heapUsed: 0, external: 0, arrayBuffers: 0 };
  const sample = () => {
    const m = process.memoryUsage();
    for (const k of Object.keys(high)) high[k] = Math.max(high[k], m[k]);
  };
  setInterval(sample, 20).unref();
  process.on('exit', () => {
    sample();
    process.stderr.write('MEMPROBE ' + JSON.stringify(high) + '\\n');
  });
}
`;

interface Run {
  readonly peakRssBytes: number;
  readonly summary: { stored: number; documents: number };
  /** Highest sampled heapUsed / external / arrayBuffers of the main thread, bytes. */
  readonly probe: { heapUsed: number; external: number; arrayBuffers: number };
}

async function runDedup(work: string, input: string, target: string[], extra: string[] = []): Promise<Run> {
  const args = ['--import', join(work, 'probe.mjs'), cliEntry, 'dedup', input, ...target, '--no-progress', '--json', ...extra];
  if (flags.workers !== undefined) args.push('--workers', flags.workers);
  const env: NodeJS.ProcessEnv = { ...process.env, NEARDUP_CONFIG: '' };
  delete env.NEARDUP_INDEX_URL;
  const { stdout, stderr } = await promisify(execFile)('/usr/bin/time', ['-f', 'RUSAGE %M', process.execPath, ...args], {
    maxBuffer: 64 << 20, env, cwd: work,
  }).catch((error: { stderr?: string; message: string }) => fail(`neardup dedup failed: ${error.message.slice(-3000)}`));
  const usage = /RUSAGE (\d+)\s*$/u.exec(stderr);
  const probe = /MEMPROBE (\{.*\})/u.exec(stderr);
  if (usage === null || probe === null) fail(`no resource usage from /usr/bin/time or the probe; stderr: ${stderr.slice(-500)}`);
  return { peakRssBytes: Number(usage[1]) * 1024, summary: JSON.parse(stdout) as Run['summary'], probe: JSON.parse(probe[1]!) as Run['probe'] };
}

// ------------------------------------------------------------------ inputs

/** The corpus's first `limit` non-empty lines in `out` (or the corpus itself without a limit); lines written. */
async function corpusOf(out: string, limit: number | null): Promise<string> {
  if (limit === null) return corpusFile;
  const sink = createWriteStream(out);
  let written = 0;
  const lines = createInterface({ input: createReadStream(corpusFile) });
  for await (const line of lines) {
    if (line === '') continue;
    sink.write(`${line}\n`);
    if (++written === limit) break;
  }
  lines.close();
  sink.end();
  await finished(sink);
  if (written < limit) fail(`Expected ${limit} documents, but ${corpusFile} has ${written}`);
  return out;
}

/** A one-document corpus (number `i`: each measured run gets its own document and URL). */
function oneDocument(work: string, i: number): string {
  const file = join(work, `one-${i}.jsonl`);
  const text = `One short document to start the process on, number ${i}. It asks the index about a page nobody stored.`;
  writeFileSync(file, JSON.stringify({ url: `https://memory-probe.example/one/${i}`, text }) + '\n');
  return file;
}

// ------------------------------------------------------------------ a backend

interface Figure {
  readonly backend: string;
  readonly stored: number;
  readonly peak: Run;
  readonly baseline: Run;
  readonly diskBytes: number;
}

/** Where a run writes: `--index` args for a fresh or the filled database, `--data` for SQLite. */
interface Backend {
  readonly name: 'pg' | 'sqlite';
  filled(): Promise<string[]>;
  empty(i: number): Promise<string[]>;
  /** Bytes the filled index takes on disk (the corpus file not counted). */
  diskBytes(): Promise<number>;
}

function sqliteBackend(work: string): Backend {
  const filled = join(work, 'sqlite-filled');
  return {
    name: 'sqlite',
    filled: async () => ['--data', filled],
    empty: async (i) => ['--data', join(work, `sqlite-empty-${i}`)],
    diskBytes: async () => ['neardup.db', 'neardup.db-wal', 'neardup.db-shm'].reduce((sum, f) => sum + (existsSync(join(filled, f)) ? statSync(join(filled, f)).size : 0), 0),
  };
}

function pgBackend(work: string, server: PostgresServer): Backend {
  let filledUrl: string | null = null;
  return {
    name: 'pg',
    filled: async () => {
      filledUrl ??= await server.createDatabase('filled');
      // The corpus stays in --data (a folder of its own per run).
      return ['--index', filledUrl, '--data', join(work, 'pg-data-filled')];
    },
    empty: async (i) => ['--index', await server.createDatabase(`empty_${i}`), '--data', join(work, `pg-data-empty-${i}`)],
    // Tables with their indexes and TOAST (pg_total_relation_size), as the fill left them (not vacuumed).
    diskBytes: async () => {
      const client = new pg.Client({ connectionString: filledUrl! });
      await client.connect();
      try {
        const result = await client.query("SELECT coalesce(sum(pg_total_relation_size(oid)), 0)::float8 AS bytes FROM pg_class WHERE relkind = 'r' AND relname LIKE 'neardup%'");
        return Number(result.rows[0].bytes);
      } finally {
        await client.end();
      }
    },
  };
}

function lowest(runs: Run[]): Run {
  return runs.reduce((best, r) => (r.peakRssBytes < best.peakRssBytes ? r : best));
}

async function measure(work: string, backend: Backend, corpus: string): Promise<Figure> {
  const fill = await runDedup(work, corpus, await backend.filled(), ['--max-in-flight', String(fillMaxInFlight)]);
  const stored = fill.summary.stored;
  if (!(stored > 0)) fail(`the fill run stored no document (${JSON.stringify(fill.summary)})`);
  const peaks: Run[] = [];
  const baselines: Run[] = [];
  for (let i = 0; i < repeat; i++) {
    // Alternately, so that both see the machine alike.
    peaks.push(await runDedup(work, oneDocument(work, 2 * i), await backend.filled()));
    baselines.push(await runDedup(work, oneDocument(work, 2 * i + 1), await backend.empty(i)));
  }
  const figure = { backend: backend.name, stored, peak: lowest(peaks), baseline: lowest(baselines), diskBytes: await backend.diskBytes() };
  process.stdout.write(`${describe(figure)}\n  probe (main thread, highest sampled, MB): ${probeLine(figure)}\n`);
  return figure;
}

// ------------------------------------------------------------------ figures

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

function bytesPerDoc(figure: Figure): number {
  return (figure.peak.peakRssBytes - figure.baseline.peakRssBytes) / figure.stored;
}

function describe(figure: Figure): string {
  return `backend=${figure.backend} docs=${docCount} stored=${figure.stored} peak_mb=${mb(figure.peak.peakRssBytes)} baseline_mb=${mb(figure.baseline.peakRssBytes)} bytes_per_doc=${bytesPerDoc(figure).toFixed(0)} disk_bytes_per_doc=${(figure.diskBytes / figure.stored).toFixed(0)}`;
}

function probeLine(figure: Figure): string {
  const fields = ['heapUsed', 'external', 'arrayBuffers'] as const;
  return fields.map((f) => `${f} ${mb(figure.peak.probe[f])} vs ${mb(figure.baseline.probe[f])} (+${((figure.peak.probe[f] - figure.baseline.probe[f]) / figure.stored).toFixed(0)} B/doc)`).join(', ');
}

// ------------------------------------------------------------------ main

let docCount = 0;
const work = mkdtempSync(join(tmpdir(), 'neardup-bench-memory-'));
let server: PostgresServer | null = null;
const cleanUp = () => {
  server?.remove();
  server = null;
  rmSync(work, { recursive: true, force: true });
};
// fail() exits the process: the exit handler removes what is left (the server's own handler stops it).
process.on('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

try {
  mkdirSync(join(work, 'in'));
  writeFileSync(join(work, 'probe.mjs'), PROBE);
  const corpus = await corpusOf(join(work, 'in', 'corpus.jsonl'), docLimit);
  docCount = docLimit ?? (await countLines(corpus));
  process.stdout.write(`bench-index-memory: cli=${cliEntry} corpus=${corpusFile} docs=${docCount} workers=${flags.workers ?? 'default'} repeat=${repeat} fill_max_in_flight=${fillMaxInFlight}\n`);
  const figures: Figure[] = [];
  for (const name of backends) {
    if (name === 'pg') {
      server = await PostgresServer.start();
      figures.push(await measure(work, pgBackend(work, server), corpus));
      server.remove();
      server = null;
    } else {
      figures.push(await measure(work, sqliteBackend(work), corpus));
    }
  }
  process.stdout.write(`memory: ${figures.map(describe).join(' | ')}\n`);
} finally {
  cleanUp();
}

async function countLines(file: string): Promise<number> {
  let count = 0;
  for await (const line of createInterface({ input: createReadStream(file) })) if (line !== '') count++;
  return count;
}
