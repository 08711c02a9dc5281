/**
 * Helpers for the storage-fault tests: small tmpfs file systems (we run as root, so chmod does not
 * stop writes; a read-only remount or a full tmpfs does) and the CLI's failure contract.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { CliRun } from '../helpers/fault-crawl.js';
import { makeTempDir } from '../helpers/temp-dir.js';

export const inCi = process.env.CI === 'true';

/** Mounts a tmpfs with these options (e.g. `size=1m`) on dir; false when not permitted. */
export function mount(dir: string, options: string): boolean {
  return spawnSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { stdio: 'ignore' }).status === 0;
}

export function remount(dir: string, options: string): void {
  const r = spawnSync('mount', ['-o', `remount,${options}`, dir], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mount -o remount,${options} ${dir} failed: ${r.stderr}`);
}

export function unmount(dir: string): void {
  spawnSync('umount', ['-l', dir], { stdio: 'ignore' });
}

/** Whether this process may mount a tmpfs (probed once, cleaned up at once). */
export function canMount(): boolean {
  const probe = makeTempDir('neardup-mount-probe-');
  try {
    if (!mount(probe, 'size=64k')) return false;
    unmount(probe);
    return true;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

/** A clear failure: non-zero exit, last line `neardup: <reason>`, no stack trace, not an "unexpected error". */
export function expectClearFailure(run: CliRun, reason: RegExp): void {
  const lines = run.stderr.trim().split('\n');
  expect(run.killed, `hung: ${run.stderr}`).toBe(false);
  expect(run.code, run.stderr).not.toBe(0);
  expect(run.code, `exit 70 is an unexpected error: ${run.stderr}`).not.toBe(70);
  expect(lines.at(-1), run.stderr).toMatch(/^neardup: /);
  expect(lines.at(-1), run.stderr).toMatch(reason);
  expect(run.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
}

/** The CLI's failure contract: a clear failure, and that one line is all of stderr. */
export function expectOneLineFailure(run: CliRun, reason: RegExp): void {
  expectClearFailure(run, reason);
  expect(run.stderr.trim().split('\n'), `more than one line on stderr:\n${run.stderr}`).toHaveLength(1);
}

export function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}
