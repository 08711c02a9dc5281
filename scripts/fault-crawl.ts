/**
 * The kill -9 harness, run directly (test/helpers/fault-crawl.ts holds it; see its comment):
 *
 *   npx tsx scripts/fault-crawl.ts [--kills 10] [--seed 42] [--mode crawl|dedup|both] [--tear] [--keep]
 *
 * `--tear` also cuts the crawl's frontier journal in the middle of its last line after each kill
 * (what a kill during an append leaves; rare, made certain).
 *
 * Last line: `fault-crawl: mode=<..> kills=<..> stored=<..> baseline_stored=<..> problems=<..>`,
 * exit code 1 when a check fails.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFaultCrawl, type FaultMode } from '../test/helpers/fault-crawl.js';

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback;
}

{
  const kills = Number(flag('kills', '10'));
  const seed = Number(flag('seed', '42'));
  const modeArg = flag('mode', 'both');
  const keep = process.argv.includes('--keep');
  const tear = process.argv.includes('--tear');
  const modes: FaultMode[] = modeArg === 'both' ? ['crawl', 'dedup'] : [modeArg as FaultMode];
  let failed = false;
  const lines: string[] = [];
  for (const mode of modes) {
    const workDir = mkdtempSync(join(tmpdir(), `neardup-fault-${mode}-`));
    const result = await runFaultCrawl({ mode, kills, seed, workDir, tearJournal: tear, log: (l) => process.stdout.write(`[${mode}] ${l}\n`) });
    for (const p of result.problems) process.stdout.write(`[${mode}] PROBLEM: ${p}\n`);
    failed ||= result.problems.length > 0;
    lines.push(`fault-crawl: mode=${mode} kills=${result.kills.filter((k) => k.killed).length} stored=${result.faulted.storedUrls.length} ` +
      `baseline_stored=${result.baseline.storedUrls.length} rejected=${result.faulted.rejected.length} problems=${result.problems.length}`);
    if (keep) process.stdout.write(`[${mode}] kept ${workDir}\n`);
    else rmSync(workDir, { recursive: true, force: true });
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  process.exitCode = failed ? 1 : 0;
}
