/**
 * Small crawls for tests (the focused hostile cases of test/reliability/): distinct generated
 * pages, a fresh data folder per crawl, a crawl run in this process against a local fixture
 * site, and the frontier journal's requests counted as they are on disk.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from './seeded-random.js';
import { tempDir } from './temp-dir.js';
import { loadConfig } from '../../src/config.js';
import type { Config, PartialConfig } from '../../src/config.js';
import { crawl } from '../../src/crawl/crawl.js';
import type { CrawlSummary } from '../../src/crawl/crawl.js';
import { readCrawlResults } from './crawl-results.js';
import type { CrawlResults } from './crawl-results.js';

const vocabulary = ('river stone window harbor lantern orchard meadow copper violin glacier ladder quartz '
  + 'thunder pepper saddle marble falcon pillow canyon cotton engine mirror velvet tunnel basket '
  + 'compass anchor blossom cradle dolphin ember feather garnet hazel island jasmine kettle lemon '
  + 'magnet nectar oyster parrot quiver raven silver timber umber valley walnut yonder zephyr').split(' ');

/** `n` words drawn by a seeded PRNG: pages from different seeds are far from each other. */
export function randomWords(seed: number, n: number): string {
  const random = seededRandom(seed);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(vocabulary[Math.floor(random() * vocabulary.length)]!);
  return words.join(' ');
}

/** A page of `words` generated words (in paragraphs of 40) and the given links. */
export function wordsPage(seed: number, options: { readonly title?: string; readonly words?: number; readonly links?: readonly string[]; readonly head?: string } = {}): string {
  const text = randomWords(seed, options.words ?? 200).split(' ');
  const paragraphs: string[] = [];
  for (let i = 0; i < text.length; i += 40) paragraphs.push(`<p>${text.slice(i, i + 40).join(' ')}</p>`);
  const links = (options.links ?? []).map((href) => `<li><a href="${href}">link</a></li>`).join('');
  return `<!doctype html><html lang="en"><head>${options.head ?? '<meta charset="utf-8">'}<title>${options.title ?? `Page ${seed}`}</title></head>`
    + `<body><main><article><h1>${options.title ?? `Page ${seed}`}</h1>${paragraphs.join('\n')}</article></main>`
    + `<nav><ul>${links}</ul></nav></body></html>`;
}

/** A fresh data folder, removed by the returned cleanup. */
export function freshDataDir(prefix: string): { readonly dataDir: string; readonly remove: () => void } {
  const { dir, remove } = tempDir(`neardup-${prefix}-`);
  return { dataDir: dir, remove };
}

/** Test settings: fast pacing, few workers; overlaid by `crawlSettings`. */
export function crawlConfig(crawlSettings: PartialConfig['crawl'] = {}): Config {
  return loadConfig({ env: {}, overrides: { crawl: { concurrency: 2, maxRequestsPerMinutePerHost: 1_000_000, ...crawlSettings } } });
}

export interface SmallCrawl {
  readonly summary: CrawlSummary;
  readonly results: CrawlResults;
  readonly config: Config;
}

/** Crawls `seeds` into `dataDir` in this process (dedup on this thread) and reads back what it stored. */
export async function crawlInto(dataDir: string, seeds: readonly string[], crawlSettings: PartialConfig['crawl'] = {}): Promise<SmallCrawl> {
  const config = crawlConfig(crawlSettings);
  const summary = await crawl({ seeds, dataDir, config, dedupWorker: false });
  return { summary, results: readCrawlResults(dataDir, config), config };
}

/**
 * The requests a data folder's frontier journal (`crawlee/neardup-frontier.jsonl`) holds, read here
 * from its lines, not through the crawl's own reader: `total` requests added, `pending` those
 * without a `done` line. (crawlee's queue itself lives in memory; the journal is what is on disk.)
 */
export function journalRequests(dataDir: string): { readonly total: number; readonly pending: number } {
  let text: string;
  try {
    text = readFileSync(join(dataDir, 'crawlee', 'neardup-frontier.jsonl'), 'utf8');
  } catch {
    return { total: 0, pending: 0 };
  }
  const added = new Set<string>();
  const done = new Set<string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const entry = JSON.parse(line) as { key?: unknown; done?: unknown };
    if (typeof entry.key === 'string') added.add(entry.key);
    if (typeof entry.done === 'string') done.add(entry.done);
  }
  let pending = 0;
  for (const key of added) if (!done.has(key)) pending++;
  return { total: added.size, pending };
}
