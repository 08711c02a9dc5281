/**
 * Helpers shared by the CLI commands: flag parsing with clear messages, and the one place that
 * turns errors into a one-line message and an exit code.
 */
import { InvalidArgumentError, Option } from 'commander';
import type { Config } from '../config.js';
import { NeardupError, describeValue } from '../errors.js';
import { forTerminal, redactCredentials, writeErrorLine } from './terminal-text.js';

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

/**
 * `--verify on|off` (crawl, dedup, eval): the verified second stage after the card's rule; off gives
 * the k-only decisions. Without the flag, config `verify.enabled` decides (on by default).
 */
export function verifyOption(): Option {
  return new Option('--verify <on|off>', 'second stage after distance <= k: candidates sharing a sketch key, accepted as `similar` on Jaccard or containment (default: config verify.enabled, on)')
    .argParser(choiceFlag('verify', ['on', 'off'] as const));
}

/** Prints an error as one line on stderr and returns the exit code to use. */
export function reportError(error: unknown): number {
  if (error instanceof NeardupError) {
    writeErrorLine(error.message);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  writeErrorLine(`unexpected error: ${message.split('\n')[0]}`);
  if (process.env.NEARDUP_DEBUG === '1' && error instanceof Error) process.stderr.write(forTerminal(`${error.stack}\n`, true));
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
    writeErrorLine(message);
    controller.abort();
    process.removeListener('SIGINT', onSigint);
  };
  process.on('SIGINT', onSigint);
  return { signal: controller.signal, dispose: () => process.removeListener('SIGINT', onSigint) };
}

/**
 * The PostgreSQL index a command uses: `--index`, else the config's `index.url` (file or
 * NEARDUP_INDEX_URL); null for the SQLite index under --data. The index checks the URL when it opens
 * (a ValidationError, one line, without the password).
 */
export function indexUrlFrom(flag: string | undefined, config: Pick<Config, 'index'>): string | null {
  const url = flag ?? config.index.url;
  return url === '' ? null : url;
}

/** An index URL as printed in summaries and reports: its password (and any other secret) as `***`. */
export function indexLabel(url: string): string {
  return redactCredentials(url);
}
