/**
 * Start-up time of the compiled CLI against a bare Node start, in one run: `node -e ''`,
 * `neardup --version` and `neardup fingerprint small.txt` (bin/neardup.js → dist/), interleaved
 * round by round so that machine noise hits all three alike; prints the median and minimum wall
 * time of each and the ratios of medians (target: ≤ 3× `node -e ''`).
 *
 *   npm run build && npx tsx scripts/bench-cli-start.ts [--rounds 30]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const TARGET_RATIO = 3;
const repoRoot = fileURLToPath(new URL('../', import.meta.url));
const bin = join(repoRoot, 'bin', 'neardup.js');

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '30' } } });
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`Expected --rounds to be a positive integer, got ${values.rounds}`);
if (!existsSync(join(repoRoot, 'dist', 'cli.js'))) {
  process.stderr.write('bench-cli-start: dist/cli.js is missing; run `npm run build` first\n');
  process.exit(1);
}

const dir = mkdtempSync(join(tmpdir(), 'neardup-bench-start-'));
const small = join(dir, 'small.txt');
writeFileSync(small, 'Near-duplicate pages waste a crawl budget. A simhash of the main text finds them: '
  + 'pages within three bits of a stored page are skipped, and the rest are kept in the corpus.\n');

const cases: ReadonlyArray<{ readonly name: string; readonly args: readonly string[] }> = [
  { name: "node -e ''", args: ['-e', ''] },
  { name: 'neardup --version', args: [bin, '--version'] },
  { name: 'neardup fingerprint small.txt', args: [bin, 'fingerprint', small] },
];

/** Wall time of one run in ms; a failed run stops the benchmark (it would measure an error path). */
function timeRun(args: readonly string[]): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [...args], { encoding: 'utf8', env: { ...process.env, NEARDUP_CONFIG: '' } });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`\`node ${args.join(' ')}\` exited ${result.status}: ${result.stderr}`);
  return ms;
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

try {
  for (const c of cases) timeRun(c.args); // warm the file cache once
  const times = cases.map(() => [] as number[]);
  for (let r = 0; r < rounds; r++) cases.forEach((c, i) => times[i]!.push(timeRun(c.args)));
  const baseline = median(times[0]!);
  const lines = cases.map((c, i) => {
    const m = median(times[i]!);
    const ratio = m / baseline;
    const verdict = i === 0 ? '(baseline)' : `${ratio.toFixed(2)}× ${ratio <= TARGET_RATIO ? '(≤ 3×: met)' : '(> 3×: missed)'}`;
    return `${c.name.padEnd(32)} median ${m.toFixed(1).padStart(7)} ms  min ${Math.min(...times[i]!).toFixed(1).padStart(7)} ms  ${verdict}`;
  });
  process.stdout.write(`bench-cli-start: ${rounds} rounds, Node ${process.versions.node}\n${lines.join('\n')}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
