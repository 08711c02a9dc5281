/**
 * `neardup dedup <input...>`: batch dedup of existing corpora (HTML/text files and folders,
 * JSONL, WARC) into a --data folder, with the same outputs as a crawl.
 */
import { join } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import { dedupBatch, type BatchProgress, type BatchSummary } from '../batch/dedup-batch.js';
import type { BatchProblem } from '../input/batch-entry.js';
import { inputKindHelp } from '../input/input-kind.js';
import { abortOnSigint, indexLabel, indexUrlFrom, intFlag, statusLine, verifyOption } from './shared.js';
import { writeErrorLine } from './terminal-text.js';

interface DedupFlags {
  readonly verify?: 'on' | 'off';
  readonly data: string;
  readonly index?: string;
  readonly workers?: number;
  readonly distance?: number;
  readonly maxInFlight?: number;
  readonly json?: boolean;
  readonly progress: boolean;
}

/** Problems printed one a line on stderr before the rest are only counted. */
const problemsPrinted = 20;

function progressLine(p: Readonly<BatchProgress>): string {
  const rejected = p.exact + p.near + p.similar;
  return `dedup: ${p.documents} docs  ${Math.round(p.docsPerSecond)} docs/s  kept ${p.stored}  rejected ${rejected} `
    + `(exact ${p.exact}, near ${p.near}, similar ${p.similar})  skipped ${p.skipped}  errors ${p.errors}`;
}

function summaryText(s: BatchSummary, dataDir: string, indexUrl: string | null): string {
  const reasons = (m: Record<string, number>) => Object.entries(m).map(([k, v]) => `${k} ${v}`).join(', ');
  const lines = [
    `dedup: ${s.documents} document${s.documents === 1 ? '' : 's'} in ${(s.elapsedMs / 1000).toFixed(1)} s (${Math.round(s.docsPerSecond)} docs/s, `
      + `${s.workers === 0 ? 'in-process' : `${s.workers} worker${s.workers === 1 ? '' : 's'}`})${s.interrupted ? ' — interrupted' : ''}`,
    `  stored ${s.stored}, rejected ${s.exact + s.near + s.similar} (exact ${s.exact}, near ${s.near}, similar ${s.similar}), skipped ${s.skipped}`
      + `${s.skipped > 0 ? ` (${reasons(s.skippedBy)})` : ''}, errors ${s.errors}`,
  ];
  // URLs judged before keep their decision: not counted again above.
  if (s.repeated > 0) lines.push(`  already judged: ${s.repeated} (URLs seen earlier in this run or by an earlier one; their decision stands)`);
  if (s.ignored > 0) lines.push(`  ignored records: ${s.ignored} (${reasons(s.ignoredBy)})`);
  // The cascade's flags (evidence in the database's flags table and `neardup clusters`).
  if (Object.keys(s.flagged).length > 0) lines.push(`  flagged: ${reasons(s.flagged as Record<string, number>)}`);
  const index = indexUrl === null ? join(dataDir, 'neardup.db') : indexLabel(indexUrl);
  lines.push(`  outputs: ${index}, ${join(dataDir, 'corpus.jsonl')}`);
  return `${lines.join('\n')}\n`;
}

export function registerDedup(program: Command): void {
  program
    .command('dedup')
    .description(`batch dedup of existing files: ${inputKindHelp}; JSONL lines are {url,text} or {url,html}`)
    .argument('<input...>', 'files and folders to read, in this order (folders recursively, sorted by name)')
    .option('--data <dir>', 'folder for neardup.db and corpus.jsonl', './data')
    .option('--index <url>', 'a PostgreSQL index shared by many processes and machines (postgres://user:password@host:port/db) instead of neardup.db in --data (the corpus stays in --data); also NEARDUP_INDEX_URL or config index.url')
    .option('--workers <n>', 'worker threads for extraction and fingerprinting, 0 = one per core but one (default: config dedup.workers, 0)', intFlag('workers', 0, 256))
    .option('--max-in-flight <n>', 'documents read but not yet committed, at most (default: config dedup.maxInFlight, 512)', intFlag('max-in-flight', 1, 1_000_000))
    .option('--distance <k>', 'near-duplicate threshold k (default: config fingerprint.distance, 3)', intFlag('distance', 0, 31))
    .addOption(verifyOption())
    .option('--json', 'print the summary as JSON on stdout', false)
    .option('--no-progress', 'no live progress line on stderr (it is shown only on a terminal anyway)')
    .action(async (inputs: string[], flags: DedupFlags, cmd: Command) => {
      const root = cmd.parent ?? cmd;
      const config = loadConfig({
        file: root.opts<{ config?: string }>().config,
        overrides: {
          ...(flags.distance === undefined ? {} : { fingerprint: { distance: flags.distance } }),
          ...(flags.verify === undefined ? {} : { verify: { enabled: flags.verify === 'on' } }),
          dedup: {
            ...(flags.workers === undefined ? {} : { workers: flags.workers }),
            ...(flags.maxInFlight === undefined ? {} : { maxInFlight: flags.maxInFlight }),
          },
        },
      });
      const indexUrl = indexUrlFrom(flags.index, config);

      const tty = flags.progress && process.stderr.isTTY === true;
      let lastDraw = 0;
      const status = statusLine();
      let printed = 0;
      let unprinted = 0;
      const onProblem = (p: BatchProblem) => {
        if (printed >= problemsPrinted) {
          unprinted += 1;
          return;
        }
        printed += 1;
        status.clear();
        writeErrorLine(`${p.position}: ${p.message}`);
      };
      const onProgress = (p: Readonly<BatchProgress>) => {
        const now = performance.now();
        if (now - lastDraw < 250) return;
        lastDraw = now;
        status.draw(progressLine(p));
      };

      const interrupt = abortOnSigint('neardup: interrupted, finishing documents in flight (Ctrl-C again to quit now)', status.clear);
      let summary: BatchSummary;
      try {
        summary = await dedupBatch({
          inputs,
          dataDir: flags.data,
          indexUrl,
          config,
          onProblem,
          ...(tty ? { onProgress } : {}),
          signal: interrupt.signal,
        });
      } finally {
        interrupt.dispose();
        status.clear();
      }
      if (unprinted > 0) process.stderr.write(`neardup: ${unprinted} more problems not shown (${summary.errors} in all)\n`);
      if (flags.json === true) {
        process.stdout.write(`${JSON.stringify({ ...summary, dataDir: flags.data }, null, 2)}\n`);
      } else {
        process.stdout.write(summaryText(summary, flags.data, indexUrl));
      }
      if (summary.interrupted) {
        process.exitCode = 130;
      } else if (summary.documents + summary.ignored === 0) {
        // Nothing read at all is a failed run: a wrong file, a wrong format. The problems printed
        // above say why; with none (empty inputs), this line does.
        if (summary.errors === 0) process.stderr.write('neardup: no record could be read from the inputs (they are empty)\n');
        process.exitCode = 1;
      }
    });
}
