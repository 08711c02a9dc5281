import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Command, CommanderError } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerEval } from '../../src/cli/eval-command.js';
import { reportError } from '../../src/cli/shared.js';
import { writeTinySet } from '../eval/tiny-set.js';

const exec = promisify(execFile);
const bin = new URL('../../bin/neardup.js', import.meta.url).pathname;

async function neardup(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [bin, ...args], { env: { ...process.env, NEARDUP_CONFIG: '' } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/**
 * Runs the command in this process, as src/cli.ts wires it (exit override, one-line errors via
 * reportError), capturing stdout/stderr; the child-process test below checks the real binary.
 */
async function runInProcess(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const program = new Command('neardup').exitOverride().option('--config <file>')
    .configureOutput({ writeOut: (s) => { stdout += s; }, writeErr: (s) => { stderr += s; } });
  registerEval(program);
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((s) => { stdout += String(s); return true; });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((s) => { stderr += String(s); return true; });
  const before = process.exitCode;
  let code: number;
  try {
    await program.parseAsync(args, { from: 'user' });
    code = process.exitCode === undefined ? 0 : Number(process.exitCode);
  } catch (error) {
    code = error instanceof CommanderError ? (error.exitCode === 0 ? 0 : 2) : reportError(error);
  } finally {
    out.mockRestore();
    err.mockRestore();
    process.exitCode = before;
  }
  return { code, stdout, stderr };
}

let dir: string;
let pairs: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'neardup-eval-cli-'));
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
