/**
 * What the shared PostgreSQL frontier of `neardup crawl --partition i/N` costs, in one run:
 *
 *   npm run bench:partition -- [--pages 2000] [--partitions 4]
 *
 * A throwaway PostgreSQL cluster (test/helpers/postgres-server.ts) and the generated site of
 * test/helpers/demo-site/generated-site.ts (originals on 8 host names, mirrors on 2; no pacing) are
 * crawled three times, each time into a fresh database, by the CLI from the sources:
 * 1. one process, the PostgreSQL index, the frontier journal in --data (the baseline);
 * 2. one process with `--partition 0/1`: the same work through the shared frontier table;
 * 3. `--partitions` processes at once, one partition each (on one machine they share its cores: this
 *    shows the frontier's overhead and the crawls' agreement, not the speed-up of many machines).
 * Each prints stored documents, pages fetched, the crawl's own time (from its JSON summary, start-up
 * left out) and the wall time with start-up. Last line:
 *   partition: pages=<P> lone_s=<..> frontier_1_s=<..> ratio_1=<frontier_1/lone> partitions=<N> wall_N_s=<..> ratio_N=<wall_N/lone wall> stored=<lone>/<1>/<N>
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startGeneratedSite } from '../test/helpers/demo-site/generated-site.js';
import { PostgresServer } from '../test/helpers/postgres-server.js';
import { spawnNeardup } from '../test/helpers/run-cli.js';

const { values } = parseArgs({ options: { pages: { type: 'string', default: '2000' }, partitions: { type: 'string', default: '4' } } });
const PAGES = Number(values.pages);
const PARTITIONS = Number(values.partitions);
if (!Number.isInteger(PAGES) || PAGES < 10 || !Number.isInteger(PARTITIONS) || PARTITIONS < 1 || PARTITIONS > 64) {
  console.error(`bench-partition: expected --pages ≥ 10 and --partitions 1–64, got ${String(values.pages)} and ${String(values.partitions)}`);
  process.exit(2);
}

const MAIN_HOSTS = Array.from({ length: 8 }, (_, i) => `127.0.0.${i + 1}`);
const FLAGS = ['--host-rpm', '1000000', '--max-pages', '1000000', '--json', '--no-progress'];

interface Run {
  readonly stored: number;
  readonly fetched: number;
  /** Longest crawl time of the processes (from their summaries). */
  readonly crawlS: number;
  /** Wall time from the first start to the last end, start-up included. */
  readonly wallS: number;
}

async function crawlWith(server: PostgresServer, seeds: readonly string[], work: string, name: string, partitions: number | null): Promise<Run> {
  const url = await server.createDatabase(`bench_${name}`);
  const started = Date.now();
  const count = partitions ?? 1;
  const runs = await Promise.all(Array.from({ length: count }, (_, i) =>
    spawnNeardup(['crawl', ...seeds, '--data', join(work, `${name}-${i}`), '--index', url, ...(partitions === null ? [] : ['--partition', `${i}/${partitions}`]), ...FLAGS])));
  const wallS = (Date.now() - started) / 1000;
  let stored = 0;
  let fetched = 0;
  let crawlS = 0;
  for (const run of runs) {
    if (run.code !== 0) throw new Error(`crawl ${name} failed (${run.code}): ${run.stderr.trim()}`);
    const summary = JSON.parse(run.stdout) as { stored: number; fetched: number; elapsedMs: number };
    stored += summary.stored;
    fetched += summary.fetched;
    crawlS = Math.max(crawlS, summary.elapsedMs / 1000);
  }
  console.log(`${name}: stored ${stored}, fetched ${fetched}, crawl ${crawlS.toFixed(1)} s, wall ${wallS.toFixed(1)} s (load ${loadavg()[0]!.toFixed(1)})`);
  return { stored, fetched, crawlS, wallS };
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'neardup-bench-partition-'));
  const server = await PostgresServer.start();
  const generated = await startGeneratedSite({ pages: PAGES, seed: 5, mainHosts: MAIN_HOSTS, mirrorHosts: ['localhost', '127.0.0.9'] });
  try {
    const lone = await crawlWith(server, generated.seeds, work, 'lone', null);
    const one = await crawlWith(server, generated.seeds, work, 'frontier_1', 1);
    const many = await crawlWith(server, generated.seeds, work, `frontier_${PARTITIONS}`, PARTITIONS);
    console.log(`partition: pages=${PAGES} lone_s=${lone.crawlS.toFixed(1)} frontier_1_s=${one.crawlS.toFixed(1)} ratio_1=${(one.crawlS / lone.crawlS).toFixed(2)} `
      + `partitions=${PARTITIONS} wall_N_s=${many.wallS.toFixed(1)} ratio_N=${(many.wallS / lone.wallS).toFixed(2)} stored=${lone.stored}/${one.stored}/${many.stored}`);
  } finally {
    await generated.site.close();
    server.remove();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
