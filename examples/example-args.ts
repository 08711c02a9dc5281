/**
 * The examples' command line: `[--data <dir>] [--concurrency <n>] [url...]`. With no URL they serve
 * the bundled demo site (test/helpers/demo-site: a news site on 127.0.0.1 and a site copying it on
 * localhost) for the length of the crawl.
 */
import { parseArgs } from 'node:util';
import { startDemoSite } from '../test/helpers/demo-site/demo-site.js';
import type { Verdict } from 'neardup';

export interface ExampleRun {
  readonly data: string;
  readonly concurrency: number;
  readonly seeds: readonly string[];
  /** Stops the demo site, if one was started. */
  readonly done: () => Promise<void>;
}

export async function exampleRun(argv: readonly string[]): Promise<ExampleRun> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: { data: { type: 'string', default: './data' }, concurrency: { type: 'string', default: '4' } },
  });
  const concurrency = Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`Expected --concurrency to be a positive integer, got ${values.concurrency}`);
  if (positionals.length > 0) return { data: values.data, concurrency, seeds: positionals, done: async () => undefined };
  const demo = await startDemoSite();
  console.log(`serving the demo site: ${demo.manifest.mainHome} and its mirror ${demo.manifest.mirrorHome}`);
  return { data: values.data, concurrency, seeds: [demo.manifest.mainHome, demo.manifest.mirrorHome], done: () => demo.site.close() };
}

/** One line per verdict, e.g. `near    http://localhost:4000/b.html  ≈ http://127.0.0.1:4000/a.html (distance 2)`. */
export function verdictLine(verdict: Verdict): string {
  const head = `${verdict.kind.padEnd(8)}${verdict.url}`;
  if (verdict.duplicate) return `${head}  ≈ ${verdict.match.url} (distance ${verdict.distance})`;
  return verdict.kind === 'skipped' ? `${head}  (${verdict.reason}: ${verdict.detail})` : head;
}
