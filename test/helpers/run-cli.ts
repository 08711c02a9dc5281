/**
 * Runs neardup CLI commands in tests: in this process, wired as src/cli.ts wires them (fast; for
 * output and error handling), or as the real binary in a child process (for exit codes, the
 * default ./data and the process wiring).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { reportError } from '../../src/cli/shared.js';

/** What a command run printed, and its exit code. */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Registers one command on the program, like the `register<Name>` functions of src/cli/. */
export type RegisterCommand = (program: Command) => void;

export interface InProcessOptions {
  /** Throw the command's error instead of turning it into a one-line message and exit code. @default false */
  readonly rethrow?: boolean;
}

export const neardupBin = fileURLToPath(new URL('../../scripts/neardup-from-source.js', import.meta.url));

type Write = (chunk: string | Uint8Array, encoding?: unknown, callback?: unknown) => boolean;

/**
 * The command in this process, wired as src/cli.ts wires it (commander errors → exit 2, others →
 * reportError, or thrown with `rethrow`), with stdout and stderr captured. Paths must be absolute
 * (no chdir here). process.exitCode is restored afterwards.
 */
export async function runInProcess(register: RegisterCommand, args: readonly string[], options: InProcessOptions = {}): Promise<CliRun> {
  const program = new Command('neardup').exitOverride().configureOutput({
    writeOut: (s) => process.stdout.write(s),
    writeErr: (s) => process.stderr.write(s),
  }).option('--config <file>');
  register(program);
  for (const cmd of program.commands) cmd.exitOverride();
  let stdout = '';
  let stderr = '';
  const capture = (append: (s: string) => void): Write => (chunk, encoding, callback) => {
    append(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') queueMicrotask(() => (done as (e?: Error | null) => void)(null));
    return true;
  };
  const realOut = process.stdout.write;
  const realErr = process.stderr.write;
  const exitCodeBefore = process.exitCode;
  process.stdout.write = capture((s) => (stdout += s)) as typeof process.stdout.write;
  process.stderr.write = capture((s) => (stderr += s)) as typeof process.stderr.write;
  let code: number;
  try {
    await program.parseAsync([...args], { from: 'user' });
    code = process.exitCode === undefined ? 0 : Number(process.exitCode);
  } catch (error) {
    if (options.rethrow === true) throw error;
    code = error instanceof CommanderError ? (error.exitCode === 0 ? 0 : 2) : reportError(error);
  } finally {
    process.stdout.write = realOut;
    process.stderr.write = realErr;
    process.exitCode = exitCodeBefore;
  }
  return { code, stdout, stderr };
}

/** The real CLI (from the sources: scripts/neardup-from-source.js) in a child process, with no NEARDUP_CONFIG from the environment (`env` added). */
export function spawnNeardup(
  args: readonly string[],
  options: { readonly cwd?: string; readonly env?: Readonly<Record<string, string>> } = {},
): Promise<CliRun> {
  return new Promise((done) => {
    const env = { ...process.env, NEARDUP_CONFIG: '', ...options.env };
    execFile(process.execPath, [neardupBin, ...args], { cwd: options.cwd, maxBuffer: 64 << 20, env }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      done({ code, stdout, stderr });
    });
  });
}
