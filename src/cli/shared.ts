/**
 * Helpers shared by the CLI commands: flag parsing with clear messages, and the one place that
 * turns errors into a one-line message and an exit code.
 */
import { InvalidArgumentError } from 'commander';
import { NeardupError, describeValue } from '../errors.js';

/** A commander argParser for an integer flag within [min, max]. */
export function intFlag(name: string, min: number, max: number): (raw: string) => number {
  return (raw: string) => {
    const value = Number(raw);
    if (raw.trim() === '' || !Number.isInteger(value) || value < min || value > max) {
      throw new InvalidArgumentError(`Expected \`${name}\` to be an integer ${min}–${max}, got ${describeValue(raw)}`);
    }
    return value;
  };
}

/** A commander argParser for a flag that takes one of a few words. */
export function choiceFlag<T extends string>(name: string, choices: readonly T[]): (raw: string) => T {
  return (raw: string) => {
    if (!(choices as readonly string[]).includes(raw)) {
      throw new InvalidArgumentError(`Expected \`${name}\` to be one of ${choices.join('|')}, got ${describeValue(raw)}`);
    }
    return raw as T;
  };
}

/** Prints an error as one line on stderr and returns the exit code to use. */
export function reportError(error: unknown): number {
  if (error instanceof NeardupError) {
    process.stderr.write(`neardup: ${error.message}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`neardup: unexpected error: ${message.split('\n')[0]}\n`);
  if (process.env.NEARDUP_DEBUG === '1' && error instanceof Error) process.stderr.write(`${error.stack}\n`);
  return 70;
}

/** The one progress line on stderr, drawn in place; `clear` before printing anything else. */
export function statusLine(): { draw: (line: string) => void; clear: () => void } {
  let drawn = false;
  return {
    draw: (line) => {
      process.stderr.write(`\r\x1b[K${line}`);
      drawn = true;
    },
    clear: () => {
      if (drawn) process.stderr.write('\r\x1b[K');
      drawn = false;
    },
  };
}

/**
 * The first Ctrl-C prints `message` (after `before`, e.g. clearing the status line) and aborts the
 * returned signal, so that work in flight finishes; the handler is then removed, so a second
 * Ctrl-C quits at once. Call `dispose` when the work is done.
 */
export function abortOnSigint(message: string, before: () => void): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const onSigint = () => {
    before();
    process.stderr.write(`${message}\n`);
    controller.abort();
    process.removeListener('SIGINT', onSigint);
  };
  process.on('SIGINT', onSigint);
  return { signal: controller.signal, dispose: () => process.removeListener('SIGINT', onSigint) };
}
