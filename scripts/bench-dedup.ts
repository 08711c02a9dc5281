/**
 * Batch dedup throughput: `npm run bench:dedup -- [--docs 100000] [--workers 0] [--baseline-docs n]`;
 * the cascade's cost: `npm run bench:dedup -- --cascade-ratio [--rounds 2] [--docs n]` (see below);
 * on natural pages instead of generated documents: add `--natural DIR` (a data set folder, see generateNatural).
 *
 * Generates (once, cached under /tmp/neardup-bench-dedup/) a JSONL file of --docs documents of
 * ~5 KB text each, made from the dev pages' hand-made texts: paragraphs drawn at random, with
 * ~3% of words replaced, so that documents differ; ~10% of documents are duplicates of an
 * earlier one (half exact copies, half with two words changed). Then, each in a fresh child
 * process and a fresh data folder:
 *   1. neardup: `dedupBatch` with worker threads (default: one per core), as `neardup dedup` runs;
 *   2. baseline beside it: the same reader, analysis and index, all on the main thread
 *      (`inProcess: true`), on the first --baseline-docs documents (default: all).
 *   3. the k-only path beside it (`--verify off`: no second stage, no sketches), with workers, unless
 *      --no-k-only; its docs/s and the ratio verify_ratio = docs/s with the second stage / without,
 *      and, since docs/s follows the machine's load, the CPU ms per document of both runs (the run
 *      alone, every thread) and verify_cpu_ratio = k-only CPU per document / second-stage CPU per document.
 * The machine's load average is printed before and after: on a shared machine docs/s depends on
 * it, so CPU ms per document (all threads) is printed beside it, with the main thread's share, and
 * the cores the run actually got (CPU time / wall time: with the kernel's autogroup scheduling a
 * process gets one session's share of the machine, however many threads it runs). Last line:
 *   `dedup: docs=<n> docs_per_s=<..> peak_rss_mb=<..> baseline_docs_per_s=<..> speedup=<..> cpu_ms_per_doc=<..> baseline_cpu_ms_per_doc=<..> main_cpu_ms_per_doc=<..> cores_used=<..> baseline_cores_used=<..> stored=<..> rejected=<..>`
 */
import { execFile } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync, readdirSync, renameSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import { once } from 'node:events';
import { seededRandom } from '../test/helpers/seeded-random.js';
import { loadDevTruth } from '../test/helpers/dev-texts.js';

const { values: flags } = parseArgs({
  options: {
    docs: { type: 'string', default: '100000' },
    workers: { type: 'string', default: '0' },
    'baseline-docs': { type: 'string' },
    seed: { type: 'string', default: '7' },
    child: { type: 'string' },
    input: { type: 'string' },
    data: { type: 'string' },
    limit: { type: 'string' },
    'verify-off': { type: 'boolean', default: false },
    'no-k-only': { type: 'boolean', default: false },
    'cascade-off': { type: 'boolean', default: false },
    'cascade-ratio': { type: 'boolean', default: false },
    rounds: { type: 'string', default: '1' },
    natural: { type: 'string' },
  },
});

const here = new URL('.', import.meta.url).pathname;

// ------------------------------------------------------------------ child: one measured run

if (flags.child !== undefined) {
  const { loadConfig } = await import('../src/config.js');
  const { dedupEntries } = await import('../src/batch/dedup-batch.js');
  const { readInputs, resolveInputs } = await import('../src/input/read-inputs.js');
  const stages = loadConfig({ env: {} }).cascade;
  const cascadeOff = {
    homoglyph: { ...stages.homoglyph, enabled: false }, generated: { ...stages.generated, enabled: false },
    synonymised: { ...stages.synonymised, enabled: false }, compiled: { ...stages.compiled, enabled: false },
  };
  const config = loadConfig({
    env: {},
    overrides: {
      ...(flags['verify-off'] ? { verify: { enabled: false } } : {}),
      ...(flags['cascade-off'] ? { cascade: cascadeOff } : {}),
    },
  });
  const limit = flags.limit === undefined ? Number.POSITIVE_INFINITY : Number(flags.limit);
  async function* limited() {
    let n = 0;
    for await (const entry of readInputs(await resolveInputs([flags.input!]), { rawJsonl: true })) {
      if (n++ >= limit) return;
      yield entry;
    }
  }
  // CPU time of each thread (main, workers, V8/libuv helpers), read from /proc while the workers
  // still run (the last progress call comes after the last batch, before the pool closes).
  let threads: Record<string, number> = {};
  const threadCpu = () => {
    const out: Record<string, number> = {};
    let names: string[] = [];
    try { names = readdirSync('/proc/self/task'); } catch { return out; }
    for (const t of names) {
      try {
        const comm = readFileSync(`/proc/self/task/${t}/comm`, 'utf8').trim();
        const stat = readFileSync(`/proc/self/task/${t}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const ms = (Number(f[11]) + Number(f[12])) * 10; // utime + stime, in 10 ms ticks
        if (ms > 0) out[t === String(process.pid) ? 'main' : `${comm}:${t}`] = ms;
      } catch { /* the thread ended */ }
    }
    return out;
  };
  let calls = 0;
  const before = process.cpuUsage();
  const summary = await dedupEntries(limited(), {
    dataDir: flags.data!,
    config,
    onProgress: (p) => { if (calls++ % 64 === 0 || p.documents >= limit) threads = threadCpu(); },
    ...(flags.child === 'inline' ? { inProcess: true } : { workers: Number(flags.workers) }),
  });
  const cpu = process.cpuUsage(); // every thread of the process: main and workers
  const during = process.cpuUsage(before); // the same, for the run alone (no process start)
  threads.main = threadCpu().main ?? 0;
  process.stdout.write(`${JSON.stringify({ ...summary, problems: summary.problems.length, cpuMs: (cpu.user + cpu.system) / 1000, runCpuMs: (during.user + during.system) / 1000, threads, peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) })}\n`);
  process.exit(0);
}

// ------------------------------------------------------------------ the input

const docs = Number(flags.docs);
const seed = Number(flags.seed);
if (!Number.isInteger(docs) || docs < 1) throw new Error(`Expected \`docs\` to be a positive integer, got \`${flags.docs}\``);

async function generate(path: string): Promise<void> {
  const truth = loadDevTruth();
  const paragraphs = Object.values(truth).flatMap((t) => t.articleBody.split(/\n+/).map((p) => p.trim()).filter((p) => p.length >= 80));
  const vocabulary = [...new Set(paragraphs.join(' ').split(/\s+/).filter((w) => /^\p{L}{4,}$/u.test(w)))];
  const random = seededRandom(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  const recent: string[] = []; // the last documents, candidates to be duplicated
  const tmp = `${path}.partial`;
  const out = createWriteStream(tmp);
  for (let i = 0; i < docs; i += 1) {
    let text: string;
    if (recent.length > 0 && random() < 0.1) {
      text = pick(recent);
      if (random() < 0.5) {
        const words = text.split(' ');
        for (let e = 0; e < 2; e += 1) words[Math.floor(random() * words.length)] = pick(vocabulary);
        text = words.join(' ');
      }
    } else {
      const parts: string[] = [];
      let length = 0;
      while (length < 5000) {
        const words = pick(paragraphs).split(' ');
        for (let w = 0; w < words.length; w += 1) if (random() < 0.03) words[w] = pick(vocabulary);
        const p = words.join(' ');
        parts.push(p);
        length += p.length + 2;
      }
      text = parts.join('\n\n');
      recent.push(text);
      if (recent.length > 2000) recent.splice(0, 1000);
    }
    if (!out.write(`${JSON.stringify({ url: `https://bench.example/doc/${i}`, text, source: 'bench' })}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  renameSync(tmp, path);
}

/**
 * `--natural DIR`: natural pages instead: the hand-made texts of a data set folder (ground-truth.json,
 * `{id: {articleBody}}`, e.g. ../shared/datasets/dragnet-train or article-benchmark-dev; read from
 * where it is, nothing copied), each text of 80 words or more once, in a seeded order, with ~10%
 * duplicates of earlier ones (half exact, half with two words changed) as above. --docs is ignored:
 * the set's size decides. Beside the generated documents (every one a compilation of shared
 * paragraphs, most flagged `generated`), the cascade's cost on pages as a crawl finds them.
 */
async function generateNatural(dir: string, path: string): Promise<void> {
  const truthFile = join(dir, 'ground-truth.json');
  if (!existsSync(truthFile)) throw new Error(`Expected a data set folder with ground-truth.json for --natural, got ${dir} (no ${truthFile})`);
  const truth = JSON.parse(readFileSync(truthFile, 'utf8')) as Record<string, { articleBody?: string }>;
  const texts = Object.values(truth).map((t) => (t.articleBody ?? '').trim()).filter((t) => t.split(/\s+/).length >= 80);
  const random = seededRandom(seed);
  for (let i = texts.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [texts[i], texts[j]] = [texts[j]!, texts[i]!];
  }
  const vocabulary = [...new Set(texts.join(' ').split(/\s+/).filter((w) => /^\p{L}{4,}$/u.test(w)))];
  const out = createWriteStream(`${path}.partial`);
  let n = 0;
  const write = async (text: string) => {
    if (!out.write(`${JSON.stringify({ url: `https://bench.example/natural/${n++}`, text, source: 'bench' })}\n`)) await once(out, 'drain');
  };
  for (let i = 0; i < texts.length; i++) {
    await write(texts[i]!);
    if (i > 0 && random() < 0.1) {
      const words = texts[Math.floor(random() * i)]!.split(' ');
      if (random() < 0.5) for (let e = 0; e < 2; e += 1) words[Math.floor(random() * words.length)] = vocabulary[Math.floor(random() * vocabulary.length)]!;
      await write(words.join(' '));
    }
  }
  out.end();
  await once(out, 'finish');
  renameSync(`${path}.partial`, path);
}

const cacheDir = join(tmpdir(), 'neardup-bench-dedup');
await mkdir(cacheDir, { recursive: true });
const natural = flags.natural;
const input = natural === undefined
  ? join(cacheDir, `docs-${docs}-seed${seed}.jsonl`)
  : join(cacheDir, `natural-${natural.replace(/[^A-Za-z0-9]+/g, '_')}-seed${seed}.jsonl`);
if (!existsSync(input)) {
  process.stderr.write(`generating ${natural === undefined ? `${docs} documents` : `natural pages from ${natural}`} → ${input}\n`);
  await (natural === undefined ? generate(input) : generateNatural(natural, input));
}

// ------------------------------------------------------------------ the two runs

interface RunResult {
  documents: number; stored: number; exact: number; near: number; similar: number; skipped: number; errors: number;
  elapsedMs: number; docsPerSecond: number; workers: number; peakRssMb: number; cpuMs: number;
  /** CPU ms of the run alone (without process start and module loading). */
  runCpuMs: number;
  workerUtilization: number | null;
  /** CPU ms per thread (`main`, other threads by id) while the run was going. */
  threads: Record<string, number>;
}

const run = promisify(execFile);
async function measure(mode: 'batch' | 'inline', limit?: number, verifyOff = false, cascadeOff = false): Promise<RunResult> {
  const data = await mkdtemp(join(tmpdir(), `neardup-bench-${mode}-`));
  try {
    const args = ['--import', 'tsx', join(here, 'bench-dedup.ts'), '--child', mode, '--input', input, '--data', data, '--workers', flags.workers];
    if (limit !== undefined) args.push('--limit', String(limit));
    if (verifyOff) args.push('--verify-off');
    if (cascadeOff) args.push('--cascade-off');
    const { stdout } = await run(process.execPath, args, { maxBuffer: 1 << 24 });
    return JSON.parse(stdout.trim().split('\n').at(-1)!) as RunResult;
  } finally {
    await rm(data, { recursive: true, force: true });
  }
}

const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');
process.stderr.write(`load average before: ${load()} (${availableParallelism()} cores)\n`);

/**
 * `--cascade-ratio`: batch dedup with the cascade on (the default config) and off (every stage off),
 * alternately, --rounds times each; the best docs/s of each (the run least slowed by other load) and
 * their ratio. Last line:
 * `cascade: docs=<n> on_docs_per_s=<..> off_docs_per_s=<..> ratio=<..> on_cpu_ms_per_doc=<..> off_cpu_ms_per_doc=<..> flagged=<..>`
 */
if (flags['cascade-ratio']) {
  const rounds = Number(flags.rounds);
  const on: RunResult[] = [];
  const offRuns: RunResult[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const cascadeOff of r % 2 === 0 ? [true, false] : [false, true]) {
      const result = await measure('batch', undefined, false, cascadeOff);
      (cascadeOff ? offRuns : on).push(result);
      process.stderr.write(`cascade ${cascadeOff ? 'off' : 'on '}: ${result.documents} docs in ${(result.elapsedMs / 1000).toFixed(1)} s, ${Math.round(result.docsPerSecond)} docs/s, `
        + `CPU ${(result.cpuMs / result.documents).toFixed(2)} ms/doc (main ${((result.threads.main ?? 0) / result.documents).toFixed(2)}), peak RSS ${result.peakRssMb} MB, `
        + `stored ${result.stored}, flagged ${JSON.stringify((result as { flagged?: unknown }).flagged ?? {})}, load ${load()}\n`);
    }
  }
  const best = (xs: RunResult[]) => xs.reduce((a, b) => (b.docsPerSecond > a.docsPerSecond ? b : a));
  const a = best(on);
  const b = best(offRuns);
  process.stderr.write(`load average after: ${load()}\n`);
  process.stdout.write(`cascade: input=${natural === undefined ? 'generated' : 'natural'} docs=${a.documents} on_docs_per_s=${Math.round(a.docsPerSecond)} off_docs_per_s=${Math.round(b.docsPerSecond)} `
    + `ratio=${(a.docsPerSecond / b.docsPerSecond).toFixed(3)} on_cpu_ms_per_doc=${(a.cpuMs / a.documents).toFixed(3)} off_cpu_ms_per_doc=${(b.cpuMs / b.documents).toFixed(3)} `
    + `on_peak_rss_mb=${a.peakRssMb} off_peak_rss_mb=${b.peakRssMb}\n`);
  process.exit(0);
}

const batch = await measure('batch');
process.stderr.write(`neardup: ${batch.documents} docs in ${(batch.elapsedMs / 1000).toFixed(1)} s with ${batch.workers} workers, `
  + `stored ${batch.stored}, exact ${batch.exact}, near ${batch.near}, skipped ${batch.skipped}, errors ${batch.errors}, peak RSS ${batch.peakRssMb} MB, `
  + `CPU ${(batch.cpuMs / batch.documents).toFixed(2)} ms/doc (all threads, process start included; main thread ${((batch.threads.main ?? 0) / batch.documents).toFixed(2)}), `
  + `${(batch.runCpuMs / batch.elapsedMs).toFixed(2)} cores used, workers busy ${((batch.workerUtilization ?? 0) * 100).toFixed(0)}% of the time\n`);
const baselineDocs = flags['baseline-docs'] === undefined ? undefined : Number(flags['baseline-docs']);
const baseline = await measure('inline', baselineDocs);
process.stderr.write(`baseline (in-process, 1 thread): ${baseline.documents} docs in ${(baseline.elapsedMs / 1000).toFixed(1)} s, peak RSS ${baseline.peakRssMb} MB, `
  + `CPU ${(baseline.cpuMs / baseline.documents).toFixed(2)} ms/doc, ${(baseline.runCpuMs / baseline.elapsedMs).toFixed(2)} cores used\n`);
const kOnly = flags['no-k-only'] ? null : await measure('batch', undefined, true);
if (kOnly !== null) process.stderr.write(`k-only (--verify off): ${kOnly.documents} docs in ${(kOnly.elapsedMs / 1000).toFixed(1)} s, stored ${kOnly.stored}, exact ${kOnly.exact}, near ${kOnly.near}, `
  + `main thread ${((kOnly.threads.main ?? 0) / kOnly.documents).toFixed(2)} ms/doc, ${(kOnly.runCpuMs / kOnly.elapsedMs).toFixed(2)} cores used\n`);
process.stderr.write(`load average after: ${load()}\n`);

const f = (x: number) => Math.round(x);
process.stdout.write(`dedup: docs=${batch.documents} docs_per_s=${f(batch.docsPerSecond)} peak_rss_mb=${batch.peakRssMb} `
  + `baseline_docs_per_s=${f(baseline.docsPerSecond)} speedup=${(batch.docsPerSecond / baseline.docsPerSecond).toFixed(2)} `
  + `cpu_ms_per_doc=${(batch.cpuMs / batch.documents).toFixed(2)} baseline_cpu_ms_per_doc=${(baseline.cpuMs / baseline.documents).toFixed(2)} `
  + `main_cpu_ms_per_doc=${((batch.threads.main ?? 0) / batch.documents).toFixed(2)} `
  + `cores_used=${(batch.runCpuMs / batch.elapsedMs).toFixed(2)} baseline_cores_used=${(baseline.runCpuMs / baseline.elapsedMs).toFixed(2)} `
  + `stored=${batch.stored} rejected=${batch.exact + batch.near + batch.similar}`
  + (kOnly === null ? '' : ` k_only_docs_per_s=${f(kOnly.docsPerSecond)} verify_ratio=${(batch.docsPerSecond / kOnly.docsPerSecond).toFixed(2)} k_only_stored=${kOnly.stored}`
    // On a shared machine docs/s follows the load; CPU per document (the run alone, all threads) does not.
    + ` k_only_cpu_ms_per_doc=${(kOnly.runCpuMs / kOnly.documents).toFixed(3)} verify_cpu_ms_per_doc=${(batch.runCpuMs / batch.documents).toFixed(3)}`
    + ` verify_cpu_ratio=${(kOnly.runCpuMs / kOnly.documents / (batch.runCpuMs / batch.documents)).toFixed(2)}`)
  + '\n');
