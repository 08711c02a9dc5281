/**
 * Decision quality and cost of batch corpus dedup (issue 25), on a corpus from scripts/make-corpus.ts:
 *
 *   npx tsx scripts/make-corpus.ts --out /tmp/corpus.jsonl
 *   npm run bench:corpus -- --corpus /tmp/corpus.jsonl [--labels <corpus>.labels.jsonl] [--verify off] [--flags off]
 *       [--cli source|dist] [--workers n] [--keep DIR] [--no-startup] [--misses 20] [--config overlay.json]
 *
 * Runs the real CLI path, `neardup dedup <corpus> --data <fresh dir>` with the defaults (flag stages on),
 * in a child process under /usr/bin/time, so the CPU time (user + system) and peak RSS are the
 * whole process's with its threads and children (getrusage of the waited child), and nothing this
 * script does is counted. `--cli source` (default) runs the TypeScript through tsx, as
 * `npm run neardup`; `--cli dist` runs bin/neardup.js (needs `npm run build`). The same CLI started on
 * a one-document corpus is measured too (unless --no-startup) and its CPU printed as `startup_cpu_ms`, so
 * the per-document figure can be read with and without the process start.
 *
 * Then, from the labels and the index the run left (documents table: kind, match_id, url):
 *   caught        copies not stored, overall and by kind (a variant of a variant counts as a copy);
 *   removed       distinct documents not stored; those that hold every sentence of the stored document
 *                 they matched, or whose every sentence that document holds (an excerpt), are counted
 *                 apart as `containment` (the rule's containment, made certain on the texts);
 *   bytes/doc     size of the database files (neardup.db, -wal, -shm) over stored documents: what the
 *                 index keeps beyond the corpus text (corpus.jsonl is not counted);
 *   cpu ms/doc, peak RSS, docs/s (documents over wall time of the child).
 * Last line:
 *   `bench-corpus: docs=<n> caught=<c>/<copies> (<ratio>) exact=<..> edit=<..> shuffle=<..> append=<..> removed=<n> containment=<n> cpu_ms_per_doc=<..> startup_cpu_ms=<..> peak_rss_mb=<..> db_bytes_per_stored_doc=<..> docs_per_s=<..>`
 */
import { execFile } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { parseArgs, promisify } from 'node:util';
import Database from 'better-sqlite3';

const { values: flags } = parseArgs({
  options: {
    corpus: { type: 'string', default: '/tmp/corpus.jsonl' },
    labels: { type: 'string' },
    verify: { type: 'string', default: 'on' },
    flags: { type: 'string', default: 'on' },
    cli: { type: 'string', default: 'source' },
    workers: { type: 'string' },
    keep: { type: 'string' },
    'no-startup': { type: 'boolean', default: false },
    misses: { type: 'string', default: '10' },
    config: { type: 'string' },
  },
});

function fail(message: string): never {
  process.stderr.write(`bench-corpus: ${message}\n`);
  process.exit(2);
}
const corpus = resolve(flags.corpus);
const labelsFile = resolve(flags.labels ?? corpus.replace(/\.jsonl$/u, '') + '.labels.jsonl');
if (!existsSync(corpus)) fail(`Expected a corpus made by scripts/make-corpus.ts, but ${corpus} does not exist`);
if (!existsSync(labelsFile)) fail(`Expected the corpus's labels file, but ${labelsFile} does not exist (--labels)`);
for (const name of ['verify', 'flags'] as const) {
  if (flags[name] !== 'on' && flags[name] !== 'off') fail(`Expected \`--${name}\` to be on or off, got \`${flags[name]}\``);
}
if (flags.cli !== 'source' && flags.cli !== 'dist') fail(`Expected \`--cli\` to be source or dist, got \`${flags.cli}\``);

const repo = new URL('..', import.meta.url).pathname;
const cliEntry = flags.cli === 'dist' ? join(repo, 'bin/neardup.js') : join(repo, 'scripts/neardup-from-source.js');
const work = mkdtempSync(join(tmpdir(), 'neardup-bench-corpus-'));

// ------------------------------------------------------------------ the measured child

interface Run { readonly cpuMs: number; readonly peakRssMb: number; readonly wallS: number; readonly summary: Record<string, unknown> }

async function runDedup(input: string, dataDir: string): Promise<Run> {
  const args = [cliEntry];
  // --config: a JSON file overlaid on the defaults (e.g. other verify thresholds); --flags off adds to it.
  const overlay = flags.config === undefined ? {} : JSON.parse(readFileSync(resolve(flags.config), 'utf8')) as Record<string, unknown>;
  if (flags.flags === 'off') {
    const off = { enabled: false };
    overlay.cascade = { ...(overlay.cascade as object | undefined), homoglyph: off, generated: off, synonymised: off, compiled: off };
  }
  if (Object.keys(overlay).length > 0) {
    const config = join(work, 'config.json');
    writeFileSync(config, JSON.stringify(overlay));
    args.push('--config', config);
  }
  args.push('dedup', input, '--data', dataDir, '--no-progress', '--json', '--verify', flags.verify!);
  if (flags.workers !== undefined) args.push('--workers', flags.workers);
  const { stdout, stderr } = await promisify(execFile)('/usr/bin/time', ['-f', 'RUSAGE %U %S %M %e', process.execPath, ...args], {
    maxBuffer: 64 << 20, env: { ...process.env, NEARDUP_CONFIG: '' },
  });
  const usage = /RUSAGE (\S+) (\S+) (\d+) (\S+)\s*$/u.exec(stderr);
  if (usage === null) fail(`no resource usage from /usr/bin/time; stderr: ${stderr.slice(-500)}`);
  return {
    cpuMs: (Number(usage[1]) + Number(usage[2])) * 1000,
    peakRssMb: Number(usage[3]) / 1024,
    wallS: Number(usage[4]),
    summary: JSON.parse(stdout) as Record<string, unknown>,
  };
}

let startupCpuMs = Number.NaN;
if (!flags['no-startup']) {
  // One short document: an empty input is refused as bad input (exit 1), so start-up is this.
  const empty = join(work, 'one.jsonl');
  writeFileSync(empty, JSON.stringify({ url: 'https://example.com/one', text: 'One short document to start the process on.' }) + '\n');
  startupCpuMs = (await runDedup(empty, join(work, 'empty-data'))).cpuMs;
}
const dataDir = resolve(flags.keep ?? join(work, 'data'));
const run = await runDedup(corpus, dataDir);

// ------------------------------------------------------------------ judging the decisions

interface Label { readonly url: string; readonly kind: string; readonly source?: string; readonly base?: string; readonly contains?: string[] }
const COPY_KINDS = ['exact', 'edit', 'shuffle', 'append'];

const db = new Database(join(dataDir, 'neardup.db'), { readonly: true });
db.defaultSafeIntegers(true);
// Every rejected document by URL, in one pass (documents has no index on url: a query per label was
// quadratic, hours at 1 M documents).
const rejectedByUrl = new Map<string, { kind: string; matched: string | null }>();
for (const row of db.prepare("SELECT d.url AS url, d.kind AS kind, m.url AS matched FROM documents d LEFT JOIN documents m ON m.id = d.match_id WHERE d.kind <> 'stored'").iterate()) {
  const r = row as { url: string; kind: string; matched: string | null };
  rejectedByUrl.set(r.url, { kind: r.kind, matched: r.matched });
}
const storedCount = Number(db.prepare("SELECT count(*) FROM documents WHERE kind = 'stored'").pluck().get() as bigint);

const caught: Record<string, [number, number]> = Object.fromEntries(COPY_KINDS.map((k) => [k, [0, 0]]));
const removedDistinct: { url: string; matched: string; kind: string }[] = [];
const missed: { url: string; kind: string; base: string }[] = [];
for await (const line of createInterface({ input: createReadStream(labelsFile) })) {
  if (line === '') continue;
  const label = JSON.parse(line) as Label;
  const rejected = rejectedByUrl.get(label.url);
  if (COPY_KINDS.includes(label.kind)) {
    caught[label.kind]![1] += 1;
    if (rejected !== undefined) caught[label.kind]![0] += 1;
    else missed.push({ url: label.url, kind: label.kind, base: label.base! });
  } else if (rejected !== undefined) {
    removedDistinct.push({ url: label.url, matched: rejected.matched ?? '', kind: rejected.kind });
  }
}

// A removed distinct document is containment when every sentence of the stored one it matched is in
// it, or every sentence of it is in the stored one (an excerpt: nothing of it is new).
const wanted = new Set(removedDistinct.flatMap((r) => [r.url, r.matched]));
const texts = new Map<string, string>();
if (wanted.size > 0) {
  for await (const line of createInterface({ input: createReadStream(corpus) })) {
    const at = line.indexOf('","text":');
    const url = line.slice(8, at);
    if (wanted.has(url)) texts.set(url, (JSON.parse(line) as { text: string }).text);
  }
}
const squash = (s: string) => s.replace(/\s+/gu, ' ').trim();
function containsWhole(outer: string, inner: string): boolean {
  const o = squash(outer);
  return inner.split(/\n|(?<=[.!?])\s+/u).map(squash).filter((s) => s !== '').every((s) => o.includes(s));
}
const containment = removedDistinct.filter((r) => containsWhole(texts.get(r.url) ?? '', texts.get(r.matched) ?? '\0')
  || containsWhole(texts.get(r.matched) ?? '', texts.get(r.url) ?? '\0'));
const wronglyRemoved = removedDistinct.filter((r) => !containment.includes(r));

// ------------------------------------------------------------------ report

let dbBytes = 0;
for (const f of readdirSync(dataDir)) if (f.startsWith('neardup.db')) dbBytes += statSync(join(dataDir, f)).size;
const docs = Number(run.summary.documents);
const copies = COPY_KINDS.reduce((s, k) => s + caught[k]![1], 0);
const caughtAll = COPY_KINDS.reduce((s, k) => s + caught[k]![0], 0);
const f3 = (x: number) => x.toFixed(3);
const cpuPerDoc = run.cpuMs / docs;

process.stdout.write(`corpus ${corpus}: ${docs} documents, --verify ${flags.verify}, flag stages ${flags.flags}, cli ${flags.cli}\n`);
process.stdout.write(`  decisions: stored ${String(run.summary.stored)}, exact ${String(run.summary.exact)}, near ${String(run.summary.near)}, similar ${String(run.summary.similar)}, skipped ${String(run.summary.skipped)}, errors ${String(run.summary.errors)}\n`);
process.stdout.write(`  copies caught ${caughtAll}/${copies} (${f3(caughtAll / copies)}): ${COPY_KINDS.map((k) => `${k} ${caught[k]![0]}/${caught[k]![1]}`).join(', ')}\n`);
process.stdout.write(`  distinct documents removed: ${wronglyRemoved.length} wrongly, ${containment.length} containing a whole stored document or wholly inside one (containment)\n`);
for (const r of wronglyRemoved.slice(0, Number(flags.misses))) process.stdout.write(`    removed ${r.url} (${r.kind} of ${r.matched})\n`);
for (const m of missed.slice(0, Number(flags.misses))) process.stdout.write(`    missed ${m.url} (${m.kind} of ${m.base})\n`);
process.stdout.write(`  cost: ${f3(cpuPerDoc)} CPU ms/doc whole process (${Math.round(run.cpuMs)} ms; start-up on a one-document corpus ${Math.round(startupCpuMs)} ms, `
  + `${f3((run.cpuMs - startupCpuMs) / docs)} ms/doc without it), peak RSS ${Math.round(run.peakRssMb)} MB, ${Math.round(docs / run.wallS)} docs/s wall\n`);
process.stdout.write(`  database: ${(dbBytes / 1e6).toFixed(1)} MB for ${storedCount} stored documents = ${Math.round(dbBytes / storedCount)} bytes per stored document\n`);
process.stdout.write(`bench-corpus: docs=${docs} caught=${caughtAll}/${copies} (${f3(caughtAll / copies)}) ${COPY_KINDS.map((k) => `${k}=${caught[k]![0]}/${caught[k]![1]}`).join(' ')} `
  + `removed=${wronglyRemoved.length} containment=${containment.length} cpu_ms_per_doc=${f3(cpuPerDoc)} startup_cpu_ms=${Math.round(startupCpuMs)} `
  + `peak_rss_mb=${Math.round(run.peakRssMb)} db_bytes_per_stored_doc=${Math.round(dbBytes / storedCount)} docs_per_s=${Math.round(docs / run.wallS)}\n`);
db.close();
if (flags.keep === undefined) rmSync(work, { recursive: true, force: true });
