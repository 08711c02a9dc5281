/**
 * One crawl of the hostile site (scripts/hostile-site.ts) with the real CLI in a child process,
 * read back into a shape the reliability tests check: what the crawl recorded for each linked
 * page, the server's request log, and the folders the crawl could have written to.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { routeKey, startHostileSite } from '../helpers/hostile-site.js';
import type { Expectation, HostileSite } from '../helpers/hostile-site.js';
import { inspectDataDir, spawnCli } from '../helpers/fault-crawl.js';
import type { CliRun, DataDirReport } from '../helpers/fault-crawl.js';
import { makeTempDir } from '../helpers/temp-dir.js';

/** The crawl is killed (and reported as a hang) after this long. */
export const CRAWL_LIMIT_MS = 300_000;
/** Per-request timeout given to the crawl: bounds the stalled pages. */
export const REQUEST_TIMEOUT_SECS = 3;

/** What the crawl recorded for one URL. */
export interface Outcome {
  readonly kind: 'stored' | 'exact' | 'near' | 'skipped';
  readonly url: string;
  readonly reason?: string;
  readonly detail?: string | null;
  /** The corpus text, for stored documents. */
  readonly text?: string;
}

export interface HostileCrawl {
  readonly site: HostileSite;
  readonly run: CliRun;
  readonly report: DataDirReport;
  /** Folder holding everything below (removed by cleanup). */
  readonly work: string;
  readonly dataDir: string;
  /** The crawl's working directory, HOME and TMPDIR: all must stay empty. */
  readonly cwd: string;
  readonly home: string;
  readonly tmp: string;
  /** Content of the file a `file:` redirect points at: must never be stored. */
  readonly sentinel: string;
  /** What was recorded for a linked page (matched by routeKey on url and final url). */
  outcomesOf(e: Expectation | string): readonly Outcome[];
  cleanup(): Promise<void>;
}

/** Every file under dir, relative, sorted (folders end with `/`). */
export function listFiles(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix === '' ? e.name : `${prefix}/${e.name}`;
    if (e.isDirectory()) out.push(`${rel}/`, ...listFiles(join(dir, e.name), rel));
    else out.push(rel);
  }
  return out.sort();
}

/** A failure that only says the machine was slow: the page was not judged, through no fault of its own. */
export function isTimeout(o: Outcome): boolean {
  return o.kind === 'skipped' && o.reason === 'fetch-error' && /time(d)? ?out|timeout/i.test(o.detail ?? '');
}

export function describeOutcomes(os: readonly Outcome[]): string {
  return os.map((o) => `${o.kind}${o.reason === undefined ? '' : ` ${o.reason}`}${o.detail ? ` (${o.detail.slice(0, 80)})` : ''}`).join('; ');
}

/** What is wrong with the outcomes of one family's pages (empty when each fits its expectation). */
export function familyProblems(c: HostileCrawl, family: string): string[] {
  const wrong: string[] = [];
  const slow: string[] = [];
  const pages = c.site.expectations.filter((e) => e.family === family);
  if (pages.length === 0) return [`no pages of family ${family}`];
  for (const e of pages) {
    const os = c.outcomesOf(e);
    if (os.length === 0) continue; // a test of its own
    const stored = os.some((o) => o.kind === 'stored');
    if (e.outcome === 'stored' && !stored) {
      if (os.every(isTimeout)) slow.push(e.path);
      else wrong.push(`${e.path.slice(0, 80)}: expected stored (${e.note}), got ${describeOutcomes(os)}`);
    }
    if ((e.outcome === 'not-stored' || e.outcome === 'not-fetched') && stored) {
      wrong.push(`${e.path.slice(0, 80)}: expected not stored (${e.note}), got stored`);
    }
    if (e.expectText !== undefined && stored) {
      const text = (os.find((o) => o.kind === 'stored')!.text ?? '').replace(/\s+/g, ' ');
      if (!text.includes(e.expectText)) wrong.push(`${e.path}: expected "${e.expectText}" in the stored text, got "${text.slice(0, 80)}"`);
    }
  }
  const groups = new Map<string, string[]>();
  for (const e of pages) {
    if (e.group === undefined || !c.outcomesOf(e).some((o) => o.kind === 'stored')) continue;
    groups.set(e.group, [...(groups.get(e.group) ?? []), e.path]);
  }
  for (const [group, paths] of groups) if (paths.length > 1) wrong.push(`${group}: copies of one article all stored: ${paths.join(', ')}`);
  // A timeout says the machine was slow (a heavy page blocked the event loop), not that the page was mishandled.
  if (slow.length > 0) console.warn(`hostile crawl: ${slow.length} ${family} pages timed out on this machine instead of being stored: ${slow.join(', ')}`);
  return wrong;
}

/** Serves the hostile site, crawls it into a fresh data folder, and reads the result back. */
export async function runHostileCrawl(): Promise<HostileCrawl> {
  const work = makeTempDir('neardup-hostile-');
  const dataDir = join(work, 'data');
  const cwd = join(work, 'cwd');
  const home = join(work, 'home');
  const tmp = join(work, 'tmp');
  for (const d of [cwd, home, tmp]) mkdirSync(d);
  const sentinel = `SECRET-FILE-SENTINEL-${process.pid}-${Date.now()}`;
  const secret = join(work, 'secret.txt');
  writeFileSync(secret, `${sentinel}\nroot:x:0:0:root:/root:/bin/bash\n`);
  const site = await startHostileSite({ secretFile: secret, stallLimitMs: 60_000 });
  const run = await spawnCli(
    ['crawl', site.url, '--data', dataDir, '--timeout', String(REQUEST_TIMEOUT_SECS), '--max-pages', '5000',
      '--host-rpm', '1000000', '--json', '--no-progress'],
    { cwd, env: { HOME: home, TMPDIR: tmp, NEARDUP_CONFIG: '' }, timeoutMs: CRAWL_LIMIT_MS },
  );
  const report = await inspectDataDir(dataDir);
  const outcomes = new Map<string, Outcome[]>();
  const corpusText = new Map<string, string>();
  for (const line of report.corpus) if (line.record !== null) corpusText.set(String(line.record.url), String(line.record.text));
  const add = (o: Outcome, ...urls: (string | null | undefined)[]) => {
    for (const key of new Set(urls.filter((u): u is string => typeof u === 'string').map(routeKey))) {
      outcomes.set(key, [...(outcomes.get(key) ?? []), o]);
    }
  };
  for (const d of report.stored) add({ kind: 'stored', url: d.url, text: corpusText.get(d.url) ?? '' }, d.url);
  for (const d of report.rejected) add({ kind: d.kind, url: d.url }, d.url);
  for (const s of report.skipped) add({ kind: 'skipped', url: s.url, reason: s.reason, detail: s.detail }, s.url);
  return {
    site, run, report, work, dataDir, cwd, home, tmp, sentinel,
    outcomesOf: (e) => outcomes.get(routeKey(typeof e === 'string' ? e : e.path)) ?? [],
    cleanup: async () => {
      await site.close();
      rmSync(work, { recursive: true, force: true });
    },
  };
}
