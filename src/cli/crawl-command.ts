/**
 * `neardup crawl <url...>`: crawl from the seeds, skip near-duplicates, store the rest in --data.
 * Live progress on stderr when it is a terminal; a summary at the end (JSON on stdout with --json).
 */
import { join } from 'node:path';
import type { Command } from 'commander';
import { defaultConfig, loadConfig } from '../config.js';
import type { PartialConfig } from '../config.js';
import type { CrawlPartitionOptions, CrawlProgress, CrawlSummary } from '../crawl/crawl.js';
// Types only: crawlee is loaded when a crawl starts, not when the CLI does.
import type { SeedOutcome } from '../crawl/seed-outcomes.js';
import { SCOPE_MODES, type ScopeMode } from '../types.js';
import { corpusFileName, crawleeFolderName, databaseFileName } from '../store/data-folder.js';
import { abortOnSigint, choiceFlag, indexLabel, indexUrlFrom, intFlag, statusLine, verifyOption } from './shared.js';
import { writeErrorLine } from './terminal-text.js';
import { InvalidArgumentError } from 'commander';
import { ValidationError } from '../errors.js';
import { parsePartition, partitionLabel, type CrawlPartition } from '../crawl/crawl-partition.js';

interface CrawlFlags {
  readonly verify?: 'on' | 'off';
  readonly data: string;
  readonly index?: string;
  readonly partition?: CrawlPartition;
  readonly partitionWait?: number;
  readonly maxPages?: number;
  readonly maxDepth?: number;
  readonly concurrency?: number;
  readonly scope?: ScopeMode;
  readonly distance?: number;
  readonly followDuplicates?: boolean;
  readonly robots: boolean;
  readonly hostRpm?: number;
  readonly maxPageBytes?: number;
  readonly timeout?: number;
  readonly userAgent?: string;
  readonly maxLinksPerPage?: number;
  readonly queueMultiple?: number;
  readonly json?: boolean;
  readonly progress: boolean;
}

function reasons(byReason: Readonly<Record<string, number>>): string {
  return Object.entries(byReason).sort((a, b) => b[1] - a[1]).map(([reason, n]) => `${reason} ${n}`).join(', ');
}

/** The live line: pages/s, stored, rejected exact / near, skipped by reason. */
export function crawlProgressLine(p: CrawlProgress): string {
  const skipped = p.skipped > 0 ? ` (${reasons(p.skippedBy)})` : '';
  const hosts = p.hostRates.map((h) => `${h.host} ${h.rps.toFixed(1)}/s`).join(', ');
  const { politeness, robots, dedup } = p.waiting;
  return `crawl: ${p.fetched} pages  ${p.pagesPerSec.toFixed(1)} pages/s  stored ${p.stored}  `
    + `rejected ${p.exact + p.near + p.similar} (exact ${p.exact}, near ${p.near}, similar ${p.similar})  skipped ${p.skipped}${skipped}`
    + `${hosts === '' ? '' : `  hosts: ${hosts}`}  waiting: politeness ${politeness}, robots ${robots}, dedup ${dedup}`;
}

/** Exit code of a crawl in which no seed could be fetched (README, exit codes). */
export const NO_SEED_FETCHED_EXIT_CODE = 3;

/** stderr lines for the seeds that could not be fetched, and whether none could. */
export function seedFailureLines(outcomes: readonly SeedOutcome[]): { lines: string[]; noneFetched: boolean } {
  const lines = outcomes.filter((o) => o.status === 'failed').map((o) => `${o.url}: ${o.cause ?? o.reason ?? 'not fetched'}`);
  const noneFetched = outcomes.length > 0 && outcomes.every((o) => o.status === 'failed');
  if (noneFetched) lines.push(`no seed could be fetched (exit code ${NO_SEED_FETCHED_EXIT_CODE})`);
  return { lines, noneFetched };
}

/** commander's parser of `--partition i/N` (a bad value: one line, exit 2). */
function partitionFlag(raw: string): CrawlPartition {
  try {
    return parsePartition(raw);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

/** The crawl's partition from `--partition` and `--partition-wait`, checked against the index (null: the whole crawl). */
function partitionOption(flags: CrawlFlags, indexUrl: string | null): CrawlPartitionOptions | null {
  if (flags.partition === undefined) {
    if (flags.partitionWait !== undefined) throw new ValidationError('`--partition-wait` is for a partitioned crawl: give `--partition i/N` too');
    return null;
  }
  if (indexUrl === null) {
    throw new ValidationError('`--partition` needs a shared PostgreSQL index (--index postgres://... or NEARDUP_INDEX_URL): the processes of a partitioned crawl share their frontier through it');
  }
  return { ...flags.partition, ...(flags.partitionWait === undefined ? {} : { waitMs: flags.partitionWait * 1000 }) };
}

/** The summary's line of a partitioned crawl: this process's share, and work left where no crawler runs. */
function partitionLine(s: CrawlSummary): string | null {
  if (s.partition === null) return null;
  const { index, count, orphaned } = s.partition;
  const left = Object.entries(orphaned).sort((a, b) => Number(a[0]) - Number(b[0])).map(([part, n]) => `${part}/${count} (${n} URL${n === 1 ? '' : 's'})`);
  return `  partition ${partitionLabel({ index, count })}: corpus of this process only`
    + (left.length === 0 ? '; the shared frontier is done' : `; work left in partitions with no crawler running: ${left.join(', ')} (run them with the same --index)`);
}

/** The closing summary, for people. */
export function crawlSummaryText(s: CrawlSummary, indexUrl: string | null = null): string {
  const ended = s.stopReason === 'finished'
    ? 'finished'
    : s.stopReason === 'max-pages'
      ? `stopped at the page budget (--max-pages), not at the end of the site: ${s.pending} URL${s.pending === 1 ? '' : 's'} left in the queue (run again with a larger --max-pages to go on)`
      : `interrupted, ${s.pending} requests left (run the same command again to resume)`;
  const lines = [
    `crawl: ${s.fetched} pages in ${(s.elapsedMs / 1000).toFixed(1)} s (${s.pagesPerSec.toFixed(1)} pages/s), ${ended}`,
    `  stored ${s.stored}, rejected ${s.exact + s.near + s.similar} (exact ${s.exact}, near ${s.near}, similar ${s.similar}), skipped ${s.skipped}`
      + `${s.skipped > 0 ? ` (${reasons(s.skippedBy)})` : ''}${s.errors > 0 ? `, errors ${s.errors}` : ''}`,
  ];
  // The cascade's flags (evidence in the database's flags table and `neardup clusters`).
  if (s.flagged !== undefined && Object.keys(s.flagged).length > 0) lines.push(`  flagged: ${reasons(s.flagged as Record<string, number>)}`);
  if (s.handledBefore > 0 || s.releasedLocks > 0 || s.repairedRequests > 0) {
    lines.push(`  resumed: ${s.handledBefore} requests handled by earlier runs`
      + `${s.releasedLocks > 0 ? `, ${s.releasedLocks} requests in flight when it stopped fetched again` : ''}`
      + `${s.repairedRequests > 0 ? `, a torn last line of the frontier journal ended` : ''}`);
  }
  if ((s.replaced ?? 0) > 0) {
    lines.push(`  primaries: ${s.replaced} stored cop${s.replaced === 1 ? 'y' : 'ies'} replaced by a page judged later that is the better primary of its cluster (corpus and index changed together)`);
  }
  for (const m of s.hostMirrors ?? []) {
    lines.push(`  host mirror: ${m.mirror} mirrors ${m.original} (${m.copies} of ${m.judged} pages judged were copies); not crawled further: ${m.requestsSkipped} queued request${m.requestsSkipped === 1 ? '' : 's'} to it not fetched (--follow-duplicates crawls it all)`);
  }
  const notFollowed = s.linksNotFollowed ?? { duplicate: 0, mirror: 0 };
  if (notFollowed.duplicate > 0 || notFollowed.mirror > 0) {
    const parts = [];
    if (notFollowed.duplicate > 0) parts.push(`${notFollowed.duplicate} on duplicate pages (copies of pages already stored)`);
    if (notFollowed.mirror > 0) parts.push(`${notFollowed.mirror} on or to confirmed mirrors`);
    lines.push(`  links not followed: ${parts.join(', ')} (--follow-duplicates follows them)`);
  }
  if (s.linksDropped > 0) {
    lines.push(`  links dropped: ${s.linksDropped} (over --max-links-per-page on their page, or past --queue-multiple × the pages left)`);
  }
  const partition = partitionLine(s);
  if (partition !== null) lines.push(partition);
  const index = indexUrl === null ? join(s.dataDir, databaseFileName) : indexLabel(indexUrl);
  lines.push(`  outputs: ${index}, ${join(s.dataDir, corpusFileName)}, ${join(s.dataDir, crawleeFolderName)}/`);
  return `${lines.join('\n')}\n`;
}

export function registerCrawl(program: Command): void {
  const d = defaultConfig().crawl;
  const distance = defaultConfig().fingerprint.distance;
  program
    .command('crawl')
    .description('crawl from seed URLs, skip exact and near-duplicate pages (and the links on them), store the rest')
    .argument('<url...>', 'seed URLs (http or https); their hosts make the crawl scope')
    .option('--data <dir>', 'folder for neardup.db, corpus.jsonl and the crawl queue (crawlee/); the same folder resumes a crawl', './data')
    .option('--index <url>', 'a PostgreSQL index shared by many processes and machines (postgres://user:password@host:port/db) instead of neardup.db in --data (the corpus stays in --data); also NEARDUP_INDEX_URL or config index.url')
    .option('--partition <i/N>', 'crawl partition i of N (0 ≤ i < N) of the hosts, by a hash of their registrable domain, with the other partitions run by other processes or machines on the same --index postgres://... (needed); links reach the other partitions through a frontier table in that database', partitionFlag)
    .option('--partition-wait <secs>', 'with --partition: how long work left in partitions with no crawler running (one killed and not restarted yet) keeps this process waiting before it ends (default: 600)', intFlag('partition-wait', 0, 7 * 86_400))
    .option('--max-pages <n>', `pages to fetch in all, earlier runs on --data included (default: ${d.maxPages})`, intFlag('max-pages', 1, 100_000_000))
    .option('--max-depth <n>', `links to follow from a seed, at most (default: ${d.maxDepth})`, intFlag('max-depth', 0, 10_000))
    .option('--concurrency <n>', `requests in flight (default: ${d.concurrency})`, intFlag('concurrency', 1, 1000))
    .option('--scope <mode>', `host: the seeds' hosts; domain: their registrable domains; any: everywhere (default: ${d.scope})`, choiceFlag('scope', SCOPE_MODES))
    .option('--distance <k>', `near-duplicate threshold k, Hamming distance (default: ${distance})`, intFlag('distance', 0, 31))
    .option('--follow-duplicates', `follow links on pages rejected as duplicates (default: ${d.followDuplicates})`)
    .option('--no-robots', `ignore robots.txt (default: obeyed)`)
    .option('--host-rpm <n>', `requests per minute to one host, at most (default: ${d.maxRequestsPerMinutePerHost})`, intFlag('host-rpm', 1, 1_000_000))
    .option('--max-page-bytes <n>', `pages larger than this are skipped (default: ${d.maxPageBytes})`, intFlag('max-page-bytes', 1024, 1 << 30))
    .option('--timeout <secs>', `per-request timeout (default: ${d.requestTimeoutSecs})`, intFlag('timeout', 1, 3600))
    .option('--user-agent <ua>', `User-Agent header; its first word picks the robots.txt group (default: "${d.userAgent}")`)
    .addOption(verifyOption())
    .option('--max-links-per-page <n>', `in-scope links of a page considered for the queue, at most (default: ${d.maxLinksPerPage})`, intFlag('max-links-per-page', 1, 10_000_000))
    .option('--queue-multiple <n>', `queue at most n times the pages --max-pages has left; further links are dropped (default: ${d.queueBudgetMultiple})`, intFlag('queue-multiple', 1, 1_000_000))
    .option('--json', 'print the summary as JSON on stdout', false)
    .option('--no-progress', 'no live progress line on stderr (shown only on a terminal anyway)')
    .action(async (seeds: string[], flags: CrawlFlags, cmd: Command) => {
      const root = cmd.parent ?? cmd;
      const crawlOverrides: Record<string, unknown> = {
        maxPages: flags.maxPages,
        maxDepth: flags.maxDepth,
        concurrency: flags.concurrency,
        scope: flags.scope,
        followDuplicates: flags.followDuplicates === true ? true : undefined,
        respectRobots: flags.robots === false ? false : undefined,
        maxRequestsPerMinutePerHost: flags.hostRpm,
        maxPageBytes: flags.maxPageBytes,
        requestTimeoutSecs: flags.timeout,
        userAgent: flags.userAgent,
        maxLinksPerPage: flags.maxLinksPerPage,
        queueBudgetMultiple: flags.queueMultiple,
      };
      const overrides: PartialConfig = {
        crawl: crawlOverrides as PartialConfig['crawl'],
        ...(flags.distance === undefined ? {} : { fingerprint: { distance: flags.distance } }),
        ...(flags.verify === undefined ? {} : { verify: { enabled: flags.verify === 'on' } }),
      };
      const config = loadConfig({ file: root.opts<{ config?: string }>().config, overrides });
      const indexUrl = indexUrlFrom(flags.index, config);
      const partition = partitionOption(flags, indexUrl);

      const tty = flags.progress && process.stderr.isTTY === true;
      const status = statusLine();
      const onProgress = (p: CrawlProgress) => status.draw(crawlProgressLine(p));
      const interrupt = abortOnSigint('neardup: interrupted, finishing pages in flight; run the same command again to resume', status.clear);
      // Loaded here, so that the other commands start without loading crawlee.
      const { crawl } = await import('../crawl/crawl.js');
      let summary: CrawlSummary;
      try {
        summary = await crawl({
          seeds,
          dataDir: flags.data,
          indexUrl,
          partition,
          config,
          signal: interrupt.signal,
          ...(tty ? { onProgress, progressIntervalMs: 250 } : {}),
        });
      } finally {
        interrupt.dispose();
        status.clear();
      }
      if (flags.json === true) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
      else process.stdout.write(crawlSummaryText(summary, indexUrl));
      const seedReport = seedFailureLines(summary.seedOutcomes);
      for (const line of seedReport.lines) writeErrorLine(line);
      if (seedReport.noneFetched) process.exitCode = NO_SEED_FETCHED_EXIT_CODE;
    });
}
