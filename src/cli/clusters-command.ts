/**
 * `neardup clusters`: the duplicate URL clusters of a --data folder, with the primary of each and
 * the host mirrors, as JSON (default), CSV or a self-contained HTML page. Without --out the report
 * goes to standard output; with it, the file is written atomically (its folder must exist).
 */
import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import { ValidationError } from '../errors.js';
import { formatClustersCsv } from '../report/format-csv.js';
import { formatClustersHtml } from '../report/format-html.js';
import { formatClustersJson } from '../report/format-json.js';
import { loadClusterReport } from '../report/load-cluster-report.js';
import { loadPgClusterReport } from '../report/load-pg-cluster-report.js';
import { writeFileAtomic } from '../report/write-file-atomic.js';
import { isInsideDataFolder } from '../store/data-folder.js';
import { choiceFlag, indexLabel, indexUrlFrom, intFlag } from './shared.js';
import { forStdout, forTerminal } from './terminal-text.js';

const formats = ['json', 'csv', 'html'] as const;
type Format = (typeof formats)[number];

interface ClustersFlags {
  readonly data: string;
  readonly index?: string;
  readonly format: Format;
  readonly out?: string;
  readonly maxHtmlClusters: number;
}

/** Writes text to stdout and resolves once it is handed to the OS; a closed pipe (`| head`) is not an error. */
function writeStdout(text: string): Promise<void> {
  return new Promise((done, fail) => {
    const onError = (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') done();
      else fail(error);
    };
    process.stdout.once('error', onError);
    process.stdout.write(text, (error) => {
      process.stdout.removeListener('error', onError);
      if (error === null || error === undefined || (error as NodeJS.ErrnoException).code === 'EPIPE') done();
      else fail(error);
    });
  });
}

export function registerClusters(program: Command): void {
  program
    .command('clusters')
    .description('duplicate URL clusters of a --data folder: the primary of each and why, host mirrors; JSON, CSV or HTML')
    .option('--data <dir>', 'folder holding neardup.db (made by crawl or dedup)', './data')
    .option('--index <url>', 'build the report from a PostgreSQL index (postgres://user:password@host:port/db) instead of --data; also NEARDUP_INDEX_URL or config index.url')
    .option('--format <format>', `report format: ${formats.join('|')}`, choiceFlag('format', formats), 'json')
    .option('--out <file>', 'write the report to this file (atomically; its folder must exist) instead of standard output')
    .option('--max-html-clusters <n>', 'clusters listed in the HTML page, largest first (JSON and CSV list all)', intFlag('max-html-clusters', 1, 10_000_000), 1000)
    .action(async (flags: ClustersFlags, cmd: Command) => {
      const root = cmd.parent ?? cmd;
      const config = loadConfig({ file: root.opts<{ config?: string }>().config });
      if (flags.out !== undefined) {
        if (flags.out.trim() === '') throw new ValidationError('Expected `--out` to be a file path, got `` (string)');
        if (isInsideDataFolder(flags.out, flags.data)) {
          throw new ValidationError(`Refusing to write the report \`${flags.out}\` inside the data folder \`${flags.data}\` (its index, corpus and crawl journal live there): choose a path outside it`);
        }
      }
      const indexUrl = indexUrlFrom(flags.index, config);
      const report = indexUrl === null ? loadClusterReport(flags.data, config) : await loadPgClusterReport(indexUrl, config);
      const text = flags.format === 'json' ? formatClustersJson(report)
        : flags.format === 'csv' ? formatClustersCsv(report)
        : formatClustersHtml(report, { source: indexUrl === null ? flags.data : indexLabel(indexUrl), generatedAt: new Date(), maxClusters: flags.maxHtmlClusters });
      if (flags.out === undefined) {
        await writeStdout(forStdout(text));
      } else {
        writeFileAtomic(flags.out, text);
        process.stderr.write(forTerminal(`clusters: ${report.stats.clusters} clusters, ${report.stats.mirrors} mirror pairs → ${flags.out}\n`, true));
      }
    });
}
