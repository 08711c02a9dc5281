/**
 * The examples' command line, `<url...> [--data <dir>] [--concurrency <n>]`, and their output line
 * per page. Only node:util and neardup's types: copy it beside an example into your own project.
 */
import { parseArgs } from 'node:util';
import type { Verdict } from 'neardup';

export interface ExampleArgs {
  readonly data: string;
  readonly concurrency: number;
  readonly seeds: readonly string[];
}

export const EXAMPLE_USAGE = 'usage: <example>.ts <url...> [--data <dir>] [--concurrency <n>]';

export function parseExampleArgs(argv: readonly string[]): ExampleArgs {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: { data: { type: 'string', default: './data' }, concurrency: { type: 'string', default: '4' } },
  });
  const concurrency = Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`Expected --concurrency to be a positive integer, got ${values.concurrency}`);
  if (positionals.length === 0) throw new Error(`Expected at least one seed URL\n${EXAMPLE_USAGE}`);
  return { data: values.data, concurrency, seeds: positionals };
}

/** One line per verdict, e.g. `near    http://localhost:4000/b.html  ≈ http://127.0.0.1:4000/a.html (distance 2)`. */
export function verdictLine(verdict: Verdict): string {
  const head = `${verdict.kind.padEnd(8)}${verdict.url}`;
  if (verdict.duplicate) return `${head}  ≈ ${verdict.match.url} (distance ${verdict.distance})`;
  return verdict.kind === 'skipped' ? `${head}  (${verdict.reason}: ${verdict.detail})` : head;
}

/**
 * Runs an example's main and sets the exit code on failure. An async `main` rather than
 * top-level await: a CommonJS project (what `npm init -y` makes) refuses top-level await.
 */
export function runMain(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
