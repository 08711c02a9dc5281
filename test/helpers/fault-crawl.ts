/**
 * The kill -9 harness. Crawls a local 2,000-page site with mirrors (or deduplicates a JSONL file
 * of the same documents) with the real CLI in a child process, SIGKILLs it at random moments
 * (each run freezes its corpus writes after a random number of stored documents, through the
 * NEARDUP_FAULT_FREEZE hook, and is killed while the rest of it runs on; see runFaultCrawl),
 * resumes with the same `--data` until the run completes, and compares the result with an
 * uninterrupted run of the same input:
 *
 * - the same set of stored URLs;
 * - no URL stored twice, no URL both stored and rejected;
 * - no two stored documents within distance k (brute force over every stored pair);
 * - corpus.jsonl: no torn line, no duplicated line, and exactly the database's stored URLs.
 *
 *   npx tsx scripts/fault-crawl.ts [--kills 10] [--seed 42] [--mode crawl|dedup|both] [--tear] [--keep]
 *
 * `--tear` also cuts the crawl's frontier journal in the middle of its last line after each kill
 * (what a kill during an append leaves; rare, made certain).
 *
 * Last line: `fault-crawl: mode=<..> kills=<..> stored=<..> baseline_stored=<..> problems=<..>`,
 * exit code 1 when a check fails. test/reliability/kill-resume.test.ts runs a shorter version.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { escapeHtml } from '../../src/report/html-escape.js';
import { makeText, seededRandom } from './hostile-site.js';
import { FingerprintIndex } from '../../src/fingerprint-index/fingerprint-index.js';
import { fingerprintToHex, hammingDistance } from '../../src/fingerprint/fingerprint-codec.js';
import { corpusFileName, databaseFileName } from '../../src/store/data-folder.js';
import { crawleeFolderName } from '../../src/store/data-folder.js';
import { frontierJournalName } from '../../src/crawl/frontier-journal.js';
import { FAULT_FREEZE_ENV, FAULT_FREEZE_MESSAGE } from '../../src/store/fault-freeze.js';
import type { Fingerprint, FingerprintParams, RejectedDocument, SkippedPage, StoredDocument } from '../../src/types.js';
import { makeTempDir } from './temp-dir.js';

export const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const cliPath = join(repoRoot, 'scripts', 'neardup-from-source.js');

// ------------------------------------------------------------------ the site

export interface MirrorSiteOptions {
  /** Distinct articles. @default 1500 */
  readonly originals?: number;
  /** Byte-identical text of articles 0..mirrors-1 on another template. @default 300 */
  readonly mirrors?: number;
  /** Copies with one word changed of the next `nears` articles. @default 200 */
  readonly nears?: number;
}

export interface MirrorSite {
  readonly url: string;
  /** Every page path the site serves, `/` included. */
  readonly paths: readonly string[];
  /** Requests served so far. */
  readonly requestCount: () => number;
  close(): Promise<void>;
}

/** One generated document of the site (also used for the JSONL input of the dedup runs). */
export interface SiteDocument {
  readonly path: string;
  readonly title: string;
  readonly paragraphs: readonly string[];
  readonly links: readonly string[];
  /** `original`, `mirror` (same text) or `near` (one word changed). */
  readonly kind: 'original' | 'mirror' | 'near';
}

/**
 * The documents of the site. Mirrors and near copies are linked only from their original, so the
 * original is always fetched (and stored) first, whatever the crawl's concurrency: the stored set
 * of an uninterrupted crawl is deterministic, which is what a resumed crawl is compared with.
 */
export function mirrorSiteDocuments(options: MirrorSiteOptions = {}): SiteDocument[] {
  const originals = options.originals ?? 1500;
  const mirrors = Math.min(options.mirrors ?? 300, originals);
  const nears = Math.min(options.nears ?? 200, originals - mirrors);
  const docs: SiteDocument[] = [];
  const hub: string[] = [];
  for (let i = 0; i < Math.min(originals, 10); i++) hub.push(`/a/${i}`);
  docs.push({ path: '/', title: 'Fault site', paragraphs: makeText(7_000_000), links: hub, kind: 'original' });
  for (let i = 0; i < originals; i++) {
    const links = [i + 1, 2 * i + 1, 2 * i + 2].filter((j) => j < originals).map((j) => `/a/${j}`);
    if (i < mirrors) links.push(`/m/${i}`);
    else if (i < mirrors + nears) links.push(`/n/${i}`);
    const paragraphs = makeText(5_000_000 + i);
    docs.push({ path: `/a/${i}`, title: `Article ${i}`, paragraphs, links, kind: 'original' });
    if (i < mirrors) {
      // A mirror links on into the mirror site (only reachable through mirrors after the first).
      docs.push({ path: `/m/${i}`, title: `Article ${i} (mirror)`, paragraphs, links: [`/m/${i + 1}`], kind: 'mirror' });
    } else if (i < mirrors + nears) {
      const edited = [...paragraphs];
      edited[2] = edited[2]!.replace(/^\S+/, 'Qwertyzed');
      docs.push({ path: `/n/${i}`, title: `Article ${i}`, paragraphs: edited, links: [], kind: 'near' });
    }
  }
  return docs;
}

function renderDocument(doc: SiteDocument): string {
  const template = doc.kind === 'original'
    ? ['<header><a href="/">Home</a></header>', '<footer>Fault site</footer>']
    : ['<div class="topbar"><a href="/">Mirror home</a> <a href="/">About this mirror</a></div>', '<div class="bottom">Mirrored content</div>'];
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(doc.title)}</title></head><body>${template[0]}` +
    `<main><article><h1>${escapeHtml(doc.title)}</h1>${doc.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('')}</article>` +
    `<ul>${doc.links.map((l) => `<li><a href="${l}">${l}</a></li>`).join('')}</ul></main>${template[1]}</body></html>`;
}

/** Serves mirrorSiteDocuments() on 127.0.0.1 at a random port (pages rendered on request). */
export async function startMirrorSite(options: MirrorSiteOptions = {}): Promise<MirrorSite> {
  const docs = new Map(mirrorSiteDocuments(options).map((d) => [d.path, d]));
  let count = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    count++;
    const path = req.url ?? '/';
    res.on('error', () => undefined);
    if (path === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('User-agent: *\nAllow: /\n');
      return;
    }
    const doc = docs.get(path);
    const body = Buffer.from(doc === undefined ? '<p>not found</p>' : renderDocument(doc));
    res.writeHead(doc === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); s.on('error', () => undefined); });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    paths: [...docs.keys()],
    requestCount: () => count,
    close: () => new Promise<void>((ok) => {
      server.close(() => ok());
      server.closeAllConnections();
      for (const s of sockets) s.destroy();
    }),
  };
}

/** Writes the site's documents as JSONL `{url, html}` (mirrors included) for `neardup dedup`. */
export function writeDedupInput(file: string, baseUrl: string, options: MirrorSiteOptions = {}): number {
  const lines = mirrorSiteDocuments(options).map((d) => JSON.stringify({ url: new URL(d.path, baseUrl).href, html: renderDocument(d) }));
  writeFileSync(file, `${lines.join('\n')}\n`);
  return lines.length;
}

// ------------------------------------------------------------------ reading a --data folder

/** One line of corpus.jsonl as read back, or why it could not be read. */
export interface CorpusLine {
  /** 1-based line number. */
  readonly line: number;
  readonly record: { readonly id?: unknown; readonly url?: unknown; readonly text?: unknown; readonly title?: unknown; readonly fingerprint?: unknown } | null;
  /** Why the line is not a record (torn, not JSON), or null. */
  readonly error: string | null;
}

/** Everything a --data folder holds, read back for checks. */
export interface DataDirReport {
  readonly dataDir: string;
  readonly params: FingerprintParams | null;
  readonly stored: readonly StoredDocument[];
  readonly rejected: readonly RejectedDocument[];
  readonly skipped: readonly SkippedPage[];
  readonly storedUrls: readonly string[];
  readonly corpus: readonly CorpusLine[];
  /** False when the file's last byte is not a newline (a torn last line). */
  readonly corpusEndsClean: boolean;
  /** Whether corpus.jsonl exists at all. */
  readonly corpusExists: boolean;
}

/** Reads the index (read-only, with the parameters stored in it) and corpus.jsonl of a data folder. */
export async function inspectDataDir(dataDir: string): Promise<DataDirReport> {
  const dbPath = join(dataDir, databaseFileName);
  let params: FingerprintParams | null = null;
  let stored: StoredDocument[] = [];
  let rejected: RejectedDocument[] = [];
  let skipped: SkippedPage[] = [];
  if (existsSync(dbPath)) {
    params = FingerprintIndex.readParams(dbPath);
    const index = FingerprintIndex.open(dbPath, { params, readonly: true });
    try {
      stored = [...index.stored()];
      rejected = [...index.rejected()];
      skipped = [...index.skipped()];
    } finally {
      index.close();
    }
  }
  const corpusPath = join(dataDir, corpusFileName);
  const corpusExists = existsSync(corpusPath);
  const raw = corpusExists ? readFileSync(corpusPath) : Buffer.alloc(0);
  const corpusEndsClean = raw.length === 0 || raw[raw.length - 1] === 0x0a;
  const text = raw.toString('utf8');
  const parts = text.split('\n');
  if (parts.at(-1) === '') parts.pop();
  const corpus: CorpusLine[] = parts.map((line, i) => {
    try {
      const record = JSON.parse(line) as CorpusLine['record'];
      if (typeof record !== 'object' || record === null) return { line: i + 1, record: null, error: 'not a JSON object' };
      return { line: i + 1, record, error: null };
    } catch (error) {
      return { line: i + 1, record: null, error: `not JSON (${(error as Error).message.slice(0, 80)}): ${line.slice(0, 80)}` };
    }
  });
  return { dataDir, params, stored, rejected, skipped, storedUrls: stored.map((d) => d.url), corpus, corpusEndsClean, corpusExists };
}

/** Every pair of stored documents within `distance` (brute force; n is a few thousand here). */
export function nearStoredPairs(stored: readonly { readonly url: string; readonly fingerprint: Fingerprint }[], distance: number): Array<[string, string, number]> {
  const n = stored.length;
  const hi = new Uint32Array(n);
  const lo = new Uint32Array(n);
  stored.forEach((d, i) => { hi[i] = d.fingerprint.hi; lo[i] = d.fingerprint.lo; });
  const pairs: Array<[string, string, number]> = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const d = hammingDistance({ hi: hi[i]!, lo: lo[i]! }, { hi: hi[j]!, lo: lo[j]! });
      if (d <= distance) pairs.push([stored[i]!.url, stored[j]!.url, d]);
    }
  }
  return pairs;
}

function firstDuplicates<T>(values: readonly T[]): T[] {
  const seen = new Set<T>();
  const dup = new Set<T>();
  for (const v of values) (seen.has(v) ? dup : seen).add(v);
  return [...dup];
}

/**
 * The promises a data folder must keep whatever happened to the process that wrote it:
 * one row per URL, no two stored documents within k, every rejection points at a stored
 * document, corpus.jsonl whole (no torn or duplicated line) and equal to the stored set
 * (`corpus: false` checks the database alone).
 */
export function checkDataDir(report: DataDirReport, options: { readonly corpus?: boolean } = {}): string[] {
  const problems: string[] = [];
  const few = (xs: readonly unknown[]) => xs.slice(0, 5).map((x) => JSON.stringify(x)).join(', ');
  if (report.params === null) return [`no ${databaseFileName} in ${report.dataDir}`];
  const storedIds = new Set(report.stored.map((d) => d.id));
  const dupStored = firstDuplicates(report.storedUrls);
  if (dupStored.length > 0) problems.push(`${dupStored.length} URLs stored twice in the database, e.g. ${few(dupStored)}`);
  const rejectedUrls = report.rejected.map((d) => d.url);
  const dupRejected = firstDuplicates(rejectedUrls);
  if (dupRejected.length > 0) problems.push(`${dupRejected.length} URLs rejected twice, e.g. ${few(dupRejected)}`);
  const storedSet = new Set(report.storedUrls);
  const both = rejectedUrls.filter((u) => storedSet.has(u));
  if (both.length > 0) problems.push(`${both.length} URLs both stored and rejected, e.g. ${few(both)}`);
  const selfMatch = report.rejected.filter((d) => report.stored.some((s) => s.id === d.matchId && s.url === d.url));
  if (selfMatch.length > 0) problems.push(`${selfMatch.length} URLs rejected as duplicates of themselves, e.g. ${few(selfMatch.map((d) => d.url))}`);
  const dangling = report.rejected.filter((d) => !storedIds.has(d.matchId));
  if (dangling.length > 0) problems.push(`${dangling.length} rejections point at no stored document, e.g. ${few(dangling.map((d) => [d.url, d.matchId]))}`);
  const skippedAndStored = report.skipped.filter((s) => storedSet.has(s.url));
  if (skippedAndStored.length > 0) problems.push(`${skippedAndStored.length} URLs both stored and skipped, e.g. ${few(skippedAndStored.map((s) => [s.url, s.reason]))}`);
  const pairs = nearStoredPairs(report.stored, report.params.distance);
  if (pairs.length > 0) problems.push(`${pairs.length} pairs of stored documents within distance ${report.params.distance}, e.g. ${few(pairs)}`);

  if (options.corpus === false) return problems;
  if (!report.corpusEndsClean) problems.push('corpus.jsonl ends with a torn line (no final newline)');
  const bad = report.corpus.filter((l) => l.error !== null);
  if (bad.length > 0) problems.push(`${bad.length} corpus.jsonl lines are not records, e.g. line ${bad[0]!.line}: ${bad[0]!.error}`);
  const records = report.corpus.flatMap((l) => (l.record === null ? [] : [l.record]));
  const corpusUrls = records.map((r) => String(r.url));
  const dupLines = firstDuplicates(corpusUrls);
  if (dupLines.length > 0) problems.push(`${dupLines.length} URLs have more than one corpus.jsonl line, e.g. ${few(dupLines)}`);
  const dupIds = firstDuplicates(records.map((r) => Number(r.id)));
  if (dupIds.length > 0) problems.push(`${dupIds.length} ids have more than one corpus.jsonl line, e.g. ${few(dupIds)}`);
  const corpusSet = new Set(corpusUrls);
  const notInCorpus = report.storedUrls.filter((u) => !corpusSet.has(u));
  if (notInCorpus.length > 0) problems.push(`${notInCorpus.length} stored documents have no corpus.jsonl line, e.g. ${few(notInCorpus)}`);
  const notStored = corpusUrls.filter((u) => !storedSet.has(u));
  if (notStored.length > 0) problems.push(`${notStored.length} corpus.jsonl lines are not stored documents, e.g. ${few(notStored)}`);
  const byId = new Map(report.stored.map((d) => [d.id, d]));
  const mismatched = records.filter((r) => {
    const doc = byId.get(Number(r.id));
    return doc !== undefined && (doc.url !== r.url || fingerprintToHex(doc.fingerprint) !== r.fingerprint);
  });
  if (mismatched.length > 0) problems.push(`${mismatched.length} corpus.jsonl lines disagree with the database (url or fingerprint), e.g. ${few(mismatched.map((r) => r.url))}`);
  return problems;
}

// ------------------------------------------------------------------ running the CLI

export interface CliRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
  /** True when this harness killed it. */
  readonly killed: boolean;
}

export interface SpawnCliOptions {
  readonly env?: Readonly<Record<string, string>>;
  /** SIGKILL after this long and report it (a hang). @default 600_000 */
  readonly timeoutMs?: number;
  /** Called once the child runs; may return a promise-returning killer schedule. */
  readonly onSpawn?: (child: ChildProcess) => void;
  readonly cwd?: string;
}

/** Environment for every child: fast per-host rate, no colours, no progress bars. */
export function cliEnv(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NEARDUP_CRAWL_MAX_REQUESTS_PER_MINUTE_PER_HOST: '1000000',
    NO_COLOR: '1',
    FORCE_COLOR: '0',
    CRAWLEE_LOG_LEVEL: 'WARNING',
    ...extra,
  };
}

/** Runs `node scripts/neardup-from-source.js <args>` (the CLI from the sources) in its own process group. */
export function spawnCli(args: readonly string[], options: SpawnCliOptions = {}): Promise<CliRun> {
  const started = Date.now();
  const child = spawn(process.execPath, [cliPath, ...args], {
    cwd: options.cwd ?? repoRoot,
    env: cliEnv(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  let killed = false;
  child.stdout!.on('data', (c: Buffer) => { if (stdout.length < 1_000_000) stdout += c.toString(); });
  child.stderr!.on('data', (c: Buffer) => { if (stderr.length < 1_000_000) stderr += c.toString(); });
  const timer = setTimeout(() => { killed = true; killGroup(child); }, options.timeoutMs ?? 600_000);
  options.onSpawn?.(child);
  return new Promise((ok) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      ok({ code, signal, stdout, stderr, ms: Date.now() - started, killed: killed || signal === 'SIGKILL' });
    });
  });
}

/** SIGKILLs the child's process group (the child and anything it started), by its id. */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    try { child.kill('SIGKILL'); } catch { /* already gone */ }
  }
}

/** Whole lines in a corpus.jsonl so far (0 when there is none yet). */
function corpusLineCount(file: string): number {
  if (!existsSync(file)) return 0;
  const raw = readFileSync(file);
  let n = 0;
  for (let i = raw.indexOf(0x0a); i >= 0; i = raw.indexOf(0x0a, i + 1)) n++;
  return n;
}

// ------------------------------------------------------------------ the fault run

export type FaultMode = 'crawl' | 'dedup';

export interface FaultRunOptions {
  readonly mode: FaultMode;
  /** SIGKILLs before the run is let finish. @default 10 */
  readonly kills?: number;
  /** Seed of the kill moments. @default 42 */
  readonly seed?: number;
  /** Holds baseline/, faulted/ and the dedup input. @default a fresh temp dir */
  readonly workDir?: string;
  readonly site?: MirrorSiteOptions;
  /** Extra CLI flags for both runs. */
  readonly extraArgs?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  /** Per-process limit (a hang fails the run). @default 600_000 */
  readonly timeoutMs?: number;
  /**
   * After each kill of a crawl, cut the frontier journal in the middle of its last line: what a
   * kill leaves when it lands during an append. Makes that rare moment certain. @default false
   */
  readonly tearJournal?: boolean;
  /** Resumes allowed after the kills before giving up. @default 5 */
  readonly maxFinishRuns?: number;
  readonly log?: (line: string) => void;
}

export interface FaultKill {
  /** ms after the child was started (-1 when it ended before the kill). */
  readonly afterMs: number;
  readonly killed: boolean;
  readonly code: number | null;
}

export interface FaultRunResult {
  readonly mode: FaultMode;
  readonly baseline: DataDirReport;
  readonly faulted: DataDirReport;
  readonly baselineRun: CliRun;
  readonly kills: readonly FaultKill[];
  /** Journal lines torn after kills (see tearJournal). */
  readonly tornJournalLines: number;
  /** Runs after the last kill until one exited 0. */
  readonly finishRuns: readonly CliRun[];
  /** Human-readable failed checks; empty when every promise held. */
  readonly problems: readonly string[];
  readonly workDir: string;
}

function argsFor(mode: FaultMode, input: string, dataDir: string, extra: readonly string[]): string[] {
  return mode === 'crawl'
    ? ['crawl', input, '--data', dataDir, '--max-pages', '100000', '--max-depth', '1000', ...extra]
    : ['dedup', input, '--data', dataDir, ...extra];
}

/** Cuts a journal in the middle of its last line (a kill during an append); returns the line cut, or null. */
export function tearJournalTail(journalPath: string, rnd: () => number): string | null {
  if (!existsSync(journalPath)) return null;
  const text = readFileSync(journalPath, 'utf8');
  const end = text.endsWith('\n') ? text.length - 1 : text.length;
  const start = text.lastIndexOf('\n', end - 1) + 1;
  if (end - start < 2) return null;
  truncateSync(journalPath, Buffer.byteLength(text.slice(0, start + 1 + Math.floor(rnd() * (end - start - 1)))));
  return text.slice(start, end);
}

/** Runs the whole comparison: uninterrupted baseline, then kills and resumes, then checks. */
export async function runFaultCrawl(options: FaultRunOptions): Promise<FaultRunResult> {
  const log = options.log ?? (() => undefined);
  const kills = options.kills ?? 10;
  const rnd = seededRandom(options.seed ?? 42);
  const workDir = options.workDir ?? makeTempDir(`neardup-fault-${options.mode}-`);
  mkdirSync(workDir, { recursive: true });
  const baselineDir = join(workDir, 'baseline');
  const faultedDir = join(workDir, 'faulted');
  const timeoutMs = options.timeoutMs ?? 600_000;
  const extra = options.extraArgs ?? [];
  const env = options.env ?? {};

  let site: MirrorSite | null = null;
  let input: string;
  if (options.mode === 'crawl') {
    site = await startMirrorSite(options.site);
    input = site.url;
  } else {
    input = join(workDir, 'input.jsonl');
    const n = writeDedupInput(input, 'http://fault.example/', options.site);
    log(`dedup input: ${n} documents in ${input}`);
  }
  try {
    const baselineRun = await spawnCli(argsFor(options.mode, input, baselineDir, extra), { env, timeoutMs });
    log(`baseline: exit ${baselineRun.code} in ${baselineRun.ms} ms`);
    if (baselineRun.code !== 0) {
      throw new Error(`baseline ${options.mode} failed (exit ${baselineRun.code}, signal ${baselineRun.signal}): ${baselineRun.stderr.slice(-2000)}`);
    }
    // Kill moments: each run freezes its corpus writes once it has stored a random share of the
    // uninterrupted run's documents (shares sorted, counted from what earlier runs left in corpus.jsonl,
    // at least one new document), just before or just after that document's corpus line
    // (NEARDUP_FAULT_FREEZE, src/store/fault-freeze.ts), and is killed a random 0–150 ms after it says
    // so while the rest of it (crawler, workers, queue) keeps running. The frozen run cannot finish,
    // so every kill lands, on a fast machine or a loaded one. With 4 kills or more, the first one
    // comes at the very first stored document.
    const baselineStored = (await inspectDataDir(baselineDir)).storedUrls.length;
    // Up to 80%: every killed run leaves documents for the next one to store.
    const shares = Array.from({ length: kills }, () => 0.03 + rnd() * 0.77).sort((a, b) => a - b);
    if (kills >= 4) shares[0] = 0;
    const killLog: FaultKill[] = [];
    let finishedEarly = false;
    let tornJournalLines = 0;
    for (let i = 0; i < kills && !finishedEarly; i++) {
      const share = shares[i]!;
      const linesBefore = corpusLineCount(join(faultedDir, corpusFileName));
      const afterStored = Math.max(1, Math.round(share * baselineStored) - linesBefore);
      const phase = rnd() < 0.5 ? 'before-corpus' : 'after-corpus';
      const jitter = Math.floor(rnd() * 150);
      let firedAt = -1;
      const run = await spawnCli(argsFor(options.mode, input, faultedDir, extra), {
        env: { ...env, [FAULT_FREEZE_ENV]: `${afterStored}:${phase}` },
        timeoutMs,
        onSpawn: (child) => {
          const spawned = Date.now();
          let said = '';
          const onData = (chunk: Buffer) => {
            said += chunk.toString();
            if (!said.includes(FAULT_FREEZE_MESSAGE)) return;
            child.stderr!.off('data', onData);
            setTimeout(() => { firedAt = Date.now() - spawned; killGroup(child); }, jitter);
          };
          child.stderr!.on('data', onData);
        },
      });
      const killed = run.signal === 'SIGKILL';
      killLog.push({ afterMs: firedAt, killed, code: run.code });
      log(`run ${i + 1}: ${killed ? `frozen ${phase} after ${afterStored} new stored documents (${Math.round(share * 100)}% of the uninterrupted run's), killed ${jitter} ms later (${firedAt} ms after start)` : `exited ${run.code} without freezing`} (${run.ms} ms)`);
      if (!killed) {
        if (run.code !== 0) throw new Error(`resumed ${options.mode} failed (exit ${run.code}): ${run.stderr.slice(-2000)}`);
        finishedEarly = true;
      } else if (options.mode === 'crawl' && options.tearJournal === true) {
        const torn = tearJournalTail(join(faultedDir, crawleeFolderName, frontierJournalName), rnd);
        if (torn !== null) tornJournalLines++;
        log(`  cut the journal's last line: ${torn ?? '(none)'}`);
      }
    }
    const finishRuns: CliRun[] = [];
    if (!finishedEarly) {
      for (let i = 0; i < (options.maxFinishRuns ?? 5); i++) {
        const run = await spawnCli(argsFor(options.mode, input, faultedDir, extra), { env, timeoutMs });
        finishRuns.push(run);
        log(`finish run ${i + 1}: exit ${run.code} in ${run.ms} ms`);
        if (run.code === 0) break;
      }
    }
    const problems: string[] = [];
    const lastFinish = finishRuns.at(-1);
    if (lastFinish !== undefined && lastFinish.code !== 0) {
      problems.push(`the resumed ${options.mode} never completed: exit ${lastFinish.code}: ${lastFinish.stderr.split('\n').slice(-5).join(' | ')}`);
    }
    for (const run of [...finishRuns]) {
      if (/database is locked|SQLITE_BUSY/i.test(run.stderr)) problems.push(`"database is locked" escaped: ${run.stderr.slice(0, 300)}`);
    }
    const baseline = await inspectDataDir(baselineDir);
    const faulted = await inspectDataDir(faultedDir);
    problems.push(...checkDataDir(baseline).map((p) => `baseline: ${p}`));
    problems.push(...checkDataDir(faulted).map((p) => `after kills: ${p}`));
    const base = new Set(baseline.storedUrls);
    const got = new Set(faulted.storedUrls);
    const missing = [...base].filter((u) => !got.has(u));
    const extraUrls = [...got].filter((u) => !base.has(u));
    if (missing.length > 0) problems.push(`${missing.length} URLs stored by the uninterrupted run are not stored after the kills, e.g. ${missing.slice(0, 5).join(', ')}`);
    if (extraUrls.length > 0) problems.push(`${extraUrls.length} URLs stored after the kills were not stored by the uninterrupted run, e.g. ${extraUrls.slice(0, 5).join(', ')}`);
    // Rejections and skips are decided by the same input, so they must match too (nothing lost, nothing judged twice).
    const sameSet = (what: string, a: readonly string[], b: readonly string[]) => {
      const sa = new Set(a);
      const sb = new Set(b);
      const lost = [...sa].filter((u) => !sb.has(u));
      const gained = [...sb].filter((u) => !sa.has(u));
      if (lost.length > 0 || gained.length > 0) {
        problems.push(`${what} differ: ${lost.length} only in the uninterrupted run (e.g. ${lost.slice(0, 3).join(', ')}), ` +
          `${gained.length} only after the kills (e.g. ${gained.slice(0, 3).join(', ')})`);
      }
    };
    sameSet('rejected URLs', baseline.rejected.map((d) => d.url), faulted.rejected.map((d) => d.url));
    sameSet('skipped URLs', baseline.skipped.map((d) => d.url), faulted.skipped.map((d) => d.url));
    return { mode: options.mode, baseline, faulted, baselineRun, kills: killLog, tornJournalLines, finishRuns, problems, workDir };
  } finally {
    await site?.close();
  }
}
