/**
 * Start-up time of the compiled CLI against a bare Node start, in one run: `node -e ''`,
 * `neardup --version` and `neardup fingerprint small.txt` (bin/neardup.js → dist/), interleaved
 * round by round so that machine noise hits all three alike; prints the median and minimum wall
 * time of each and the ratios of medians (target: ≤ 3× `node -e ''`). On Linux it also prints the
 * CPU time the runs used (user + system, from /proc/self/stat's children's times), whose ratio a
 * busy machine distorts less than wall time's.
 *
 *   npm run build && npx tsx scripts/bench-cli-start.ts [--rounds 30]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** CPU time (ms) of the waited-for children so far: cutime + cstime of /proc/self/stat, or null off Linux. */
function childrenCpuMs(): number | null {
  let stat: string;
  try {
    stat = readFileSync('/proc/self/stat', 'utf8');
  } catch {
    return null;
  }
  // Fields after the command name's closing parenthesis start at field 3 (state); cutime is field 16.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticksPerSecond = 100; // USER_HZ, 100 on Linux
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / ticksPerSecond;
}

interface RunTime {
  readonly wallMs: number;
  readonly cpuMs: number | null;
}

/** Wall and CPU time of one run; a failed run stops the benchmark (it would measure an error path). */
function timeRun(args: readonly string[]): RunTime {
  const cpuBefore = childrenCpuMs();
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [...args], { encoding: 'utf8', env: { ...process.env, NEARDUP_CONFIG: '' } });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  const cpuAfter = childrenCpuMs();
  if (result.status !== 0) throw new Error(`\`node ${args.join(' ')}\` exited ${result.status}: ${result.stderr}`);
  return { wallMs, cpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore };
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

try {
  for (const c of cases) timeRun(c.args); // warm the file cache once
  const times = cases.map(() => [] as RunTime[]);
  for (let r = 0; r < rounds; r++) cases.forEach((c, i) => times[i]!.push(timeRun(c.args)));
  const wall = times.map((runs) => runs.map((t) => t.wallMs));
  // Mean CPU per run (ticks are 10 ms, too coarse for a median of single runs).
  const cpu = times.map((runs) => (runs.some((t) => t.cpuMs === null) ? null : runs.reduce((sum, t) => sum + t.cpuMs!, 0) / runs.length));
  const baseline = median(wall[0]!);
  const verdict = (ratio: number) => `${ratio.toFixed(2)}× ${ratio <= TARGET_RATIO ? '(≤ 3×: met)' : '(> 3×: missed)'}`;
  const lines = cases.map((c, i) => {
    const m = median(wall[i]!);
    const cpuText = cpu[i] === null || cpu[0] === null ? '' : `  cpu ${cpu[i]!.toFixed(0).padStart(4)} ms${i === 0 ? '' : ` (${(cpu[i]! / cpu[0]!).toFixed(2)}×)`}`;
    return `${c.name.padEnd(32)} median ${m.toFixed(1).padStart(7)} ms  min ${Math.min(...wall[i]!).toFixed(1).padStart(7)} ms  `
      + `${i === 0 ? '(baseline)' : verdict(m / baseline)}${cpuText}`;
  });
  process.stdout.write(`bench-cli-start: ${rounds} rounds, Node ${process.versions.node}\n${lines.join('\n')}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
