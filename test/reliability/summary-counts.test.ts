/**
 * Issue 19, case 3 (the counts): a summary says what the data folder holds. The index answers a
 * URL it has seen with its earlier decision (a crawl retries a page, or re-processes it after a
 * crash); that answer is not a new document, so it is not counted again — a retried hub made a
 * crawl report stored 51 with 50 in the database.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Pipeline } from '../../src/pipeline.js';
import { readCrawlResults } from '../helpers/crawl-results.js';
import { crawlConfig, freshDataDir, wordsPage } from '../helpers/small-crawl.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

describe('pipeline counters', () => {
  it('count each URL once, however often it is committed', async () => {
    const { dataDir, remove } = freshDataDir('counts');
    cleanups.push(remove);
    const config = crawlConfig();
    const pipeline = await Pipeline.open({ dataDir, config });
    try {
      const original = wordsPage(700);
      for (let round = 0; round < 3; round++) {
        await pipeline.process({ url: 'http://a.test/stored', html: original });
        await pipeline.process({ url: 'http://a.test/copy', html: original });
        await pipeline.process({ url: 'http://a.test/short', html: '<title>x</title><p>two words</p>' });
      }
      await pipeline.recordSkip('http://a.test/gone', 'http-error', 'HTTP 404');
      await pipeline.recordSkip('http://a.test/gone', 'http-error', 'HTTP 404');
      // `processed` counts every page handed over; the others count what was added.
      expect(pipeline.counters).toMatchObject({ stored: 1, exact: 1, near: 0, skipped: 2, processed: 11 });
      expect(pipeline.counters.skippedBy).toEqual({ 'too-short': 1, 'http-error': 1 });
    } finally {
      await pipeline.close();
    }
    const results = readCrawlResults(dataDir, config);
    expect(results.stored.size).toBe(1);
    expect(results.rejected.size).toBe(1);
    expect(results.skipped.size).toBe(2);
    expect(results.corpus).toHaveLength(1);
  });
});
