/**
 * `neardup eval --pairs <tsv>`: precision, recall and F1 of "distance ≤ k" for k = 0..16 on
 * labelled document pairs, with the best k marked.
 */
import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import { evaluatePairs } from '../eval/evaluate-pairs.js';
import { formatEvalReport } from '../eval/format-eval-report.js';
import { intFlag, verifyOption } from './shared.js';

interface EvalFlags {
  readonly pairs: string;
  readonly maxK: number;
  readonly distance?: number;
  readonly json?: boolean;
  readonly verify?: 'on' | 'off';
}

export function registerEval(program: Command): void {
  program
    .command('eval')
    .description('precision / recall / F1 of "distance ≤ k" on labelled pairs, k = 0..16, best k marked')
    .requiredOption('--pairs <tsv>', 'pairs file: `a<TAB>b<TAB>label[<TAB>kind]` lines; a and b are .html/.htm/.txt files (optionally .gz, relative to the pairs file) or <file.jsonl>#<id>; label 1 = duplicate, 0 = not')
    .option('--max-k <n>', 'largest threshold scored', intFlag('max-k', 0, 64), 16)
    .option('--distance <k>', 'the configured k, marked in the table (default: config fingerprint.distance, 3)', intFlag('distance', 0, 31))
    .option('--json', 'print the report as JSON (rows, best k, per-kind figures, every pair\'s distance and decision)', false)
    .addOption(verifyOption())
    .action(async (flags: EvalFlags, cmd: Command) => {
      const root = cmd.parent ?? cmd;
      const config = loadConfig({
        file: root.opts<{ config?: string }>().config,
        overrides: {
          ...(flags.distance === undefined ? {} : { fingerprint: { distance: flags.distance } }),
          ...(flags.verify === undefined ? {} : { verify: { enabled: flags.verify === 'on' } }),
        },
      });
      const report = await evaluatePairs({ pairsFile: flags.pairs, config, maxK: flags.maxK });
      process.stdout.write(flags.json === true ? `${JSON.stringify(report, null, 2)}\n` : formatEvalReport(report));
    });
}
