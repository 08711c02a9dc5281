import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerEval } from '../../src/cli/eval-command.js';
import { runInProcess as runCommand, spawnNeardup } from '../helpers/run-cli.js';
import { writeTinySet } from '../eval/tiny-set.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const neardup = (args: readonly string[]) => spawnNeardup(args);
const runInProcess = (args: readonly string[]) => runCommand(registerEval, args);

let dir: string;
let pairs: string;
beforeAll(async () => {
  dir = makeTempDir('neardup-eval-cli-');
  pairs = await writeTinySet(dir);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('neardup eval', () => {
  it('prints the table for k = 0..16 with the best k marked', async () => {
    const { code, stdout } = await neardup(['eval', '--pairs', pairs]);
    expect(code).toBe(0);
    const rows = stdout.split('\n').filter((l) => /^\s+\d+\s+[\d.—]+\s/.test(l));
    expect(rows).toHaveLength(17);
    expect(rows.filter((r) => r.includes('*best'))).toHaveLength(1);
    expect(rows[16]).toMatch(/^\s+16\s+0\.750\s+0\.600\s+0\.667\s+3\s+1\s+2\s+1$/);
  });

  it('gives the figures as JSON with --json', async () => {
    const { code, stdout } = await runInProcess(['eval', '--pairs', pairs, '--json', '--max-k', '5']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as { rows: Array<{ k: number; f1: number }>; bestK: number; pairs: number };
    expect(report.pairs).toBe(7);
    expect(report.rows.map((r) => r.k)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(report.rows[5]!.f1).toBeCloseTo(2 / 3, 12);
  });

  it.each([
    ['no --pairs', [], 2, /required option '--pairs <tsv>' not specified/],
    ['a missing pairs file', ['--pairs', '/nonexistent/p.tsv'], 1, /^neardup: Cannot read pairs file `\/nonexistent\/p\.tsv`: no such file\n$/],
    ['a bad --max-k', ['--pairs', 'x', '--max-k', '-1'], 2, /Expected `max-k` to be an integer 0–64/],
  ])('fails on %s with a one-line reason', async (_name, args, exitCode, message) => {
    const { code, stderr } = await runInProcess(['eval', ...args]);
    expect(code).toBe(exitCode);
    expect(stderr).toMatch(message);
  });

  it('--help shows every flag with its default', async () => {
    const { stdout: raw } = await runInProcess(['eval', '--help']);
    const stdout = raw.replace(/\s+/g, ' '); // commander wraps at 80 columns
    for (const flag of ['--pairs <tsv>', '--max-k <n>', '--distance <k>', '--json']) expect(stdout).toContain(flag);
    expect(stdout).toContain('(default: 16)');
  });
});
