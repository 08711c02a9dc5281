/**
 * Small crawls for tests (the focused hostile cases of test/reliability/): distinct generated
 * pages, a fresh data folder per crawl, a crawl run in this process against a local fixture
 * site, and crawlee's request files counted as they are on disk.
 */
import { readFileSync, readdirSync } from 'node:fs';
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

/** crawlee's request files in a data folder: `{ handled, pending }` by their `orderNo`. */
export function requestFiles(dataDir: string): { readonly total: number; readonly pending: number } {
  const dir = join(dataDir, 'crawlee', 'request_queues', 'default');
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json') && !n.startsWith('__'));
  } catch {
    return { total: 0, pending: 0 };
  }
  let pending = 0;
  for (const name of names) {
    const entry = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { orderNo?: unknown };
    if (typeof entry.orderNo === 'number') pending++;
  }
  return { total: names.length, pending };
}
