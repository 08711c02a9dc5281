/**
 * neardup in a crawlee CheerioCrawler: every page is judged (stored, or an exact or near duplicate
 * of a stored page) as it is crawled, and links are followed only from pages that are not
 * duplicates, so a mirror's pages are never crawled past its first copy.
 *
 *   npx tsx examples/cheerio-crawler.ts                      # crawls the bundled demo site and its mirror
 *   npx tsx examples/cheerio-crawler.ts https://example.com/ --data ./data --concurrency 8
 *
 * The deduplicated corpus is <data>/corpus.jsonl; `neardup clusters --data <data>` reports which
 * URLs are the same page.
 */
import { CheerioCrawler, Configuration, LogLevel } from '@crawlee/cheerio';
import { Deduplicator } from 'neardup';
import { exampleRun, verdictLine } from './example-args.js';

const run = await exampleRun(process.argv.slice(2));
const dedup = await Deduplicator.open({ data: run.data });
try {
  const crawler = new CheerioCrawler({
    maxConcurrency: run.concurrency,
    async requestHandler(context) {
      const verdict = await dedup.judge(context);
      console.log(verdictLine(verdict));
      await dedup.enqueueLinks(context); // skipped for duplicates
    },
  }, new Configuration({ persistStorage: false, logLevel: LogLevel.WARNING }));
  await crawler.run([...run.seeds]);
  console.log(`summary ${JSON.stringify(dedup.stats)}`);
} finally {
  await dedup.close();
  await run.done();
}
