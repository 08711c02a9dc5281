/**
 * Four `neardup dedup` processes writing into one --data at the same time, on overlapping inputs
 * (see concurrent-writers.test.ts for what is checked).
 *
 * The clusters: distinct articles, each in four versions (two byte copies and two with one word
 * changed), every pair of versions within distance k of each other and every pair of clusters
 * far apart — checked with the library's own fingerprinting, so the only way to store two
 * documents of a cluster is a race between the writers.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeText, seededRandom } from '../helpers/hostile-site.js';
import { inspectDataDir, spawnCli } from '../helpers/fault-crawl.js';
import type { CliRun, DataDirReport } from '../helpers/fault-crawl.js';
import { defaultConfig } from '../../src/config.js';
import { analyzePage } from '../../src/analyze/analyze-page.js';
import { hammingDistance } from '../../src/fingerprint/fingerprint-codec.js';
import type { Fingerprint } from '../../src/types.js';
import { makeTempDir } from '../helpers/temp-dir.js';

export const WRITERS = 4;
export const CLUSTERS = 150;
export const LIMIT_MS = 240_000;

export interface Doc {
  readonly url: string;
  readonly text: string;
  readonly cluster: number;
}

function shuffle<T>(items: T[], rnd: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** Clusters of four versions whose fingerprints are pairwise within k; clusters pairwise beyond 2k + 1. */
export function buildClusters(): Doc[][] {
  const config = defaultConfig();
  const k = config.fingerprint.distance;
  const fp = (text: string): Fingerprint => analyzePage({ url: 'x:', text }, config).analysis!.fingerprint!;
  const clusters: Doc[][] = [];
  const kept: Fingerprint[] = [];
  for (let seed = 0; clusters.length < CLUSTERS && seed < CLUSTERS * 4; seed++) {
    const paragraphs = makeText(90_000 + seed);
    const base = paragraphs.join('\n\n');
    const edit = (p: number, word: string) => paragraphs.map((x, i) => (i === p ? x.replace(/^\S+/, word) : x)).join('\n\n');
    const versions = [base, base, edit(1, 'Zyxwvut'), edit(3, 'Qrstuvw')];
    const prints = versions.map(fp);
    let ok = true;
    for (let a = 0; a < prints.length && ok; a++) for (let b = a + 1; b < prints.length && ok; b++) ok = hammingDistance(prints[a]!, prints[b]!) <= k;
    for (const other of kept) if (ok && prints.some((p) => hammingDistance(p, other) <= 2 * k + 1)) ok = false;
    if (!ok) continue;
    kept.push(...prints);
    const c = clusters.length;
    clusters.push(versions.map((text, v) => ({ url: `https://copy${v}.example/article/${c}`, text, cluster: c })));
  }
  return clusters;
}

export interface ConcurrentDedup {
  readonly clusters: readonly Doc[][];
  readonly runs: readonly CliRun[];
  readonly report: DataDirReport;
  cleanup(): void;
}

/**
 * Writer w reads versions w and w+1 of every cluster, in its own order: every document is in two
 * inputs, and every cluster is raced by all four writers.
 */
export async function runConcurrentDedup(): Promise<ConcurrentDedup> {
  const work = makeTempDir('neardup-writers-');
  const clusters = buildClusters();
  const rnd = seededRandom(2024);
  const inputs: string[] = [];
  for (let w = 0; w < WRITERS; w++) {
    const docs = shuffle(clusters.flatMap((c) => [c[w]!, c[(w + 1) % WRITERS]!]), rnd);
    const file = join(work, `input-${w}.jsonl`);
    writeFileSync(file, `${docs.map((d) => JSON.stringify({ url: d.url, text: d.text })).join('\n')}\n`);
    inputs.push(file);
  }
  const dataDir = join(work, 'data');
  const runs = await Promise.all(inputs.map((input) => spawnCli(
    ['dedup', input, '--data', dataDir, '--workers', '1', '--max-in-flight', '16', '--no-progress'],
    { env: { NEARDUP_CONFIG: '' }, timeoutMs: LIMIT_MS },
  )));
  const report = await inspectDataDir(dataDir);
  return { clusters, runs, report, cleanup: () => rmSync(work, { recursive: true, force: true }) };
}
