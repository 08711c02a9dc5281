/**
 * neardup in a crawlee CheerioCrawler: every page is judged (stored, or an exact or near duplicate
 * of a stored page) as it is crawled, and links are followed only from pages that are not
 * duplicates, so a mirror's pages are never crawled past its first copy.
 *
 *   npx tsx examples/cheerio-crawler.ts https://example.com/ --data ./data --concurrency 8
 *   npx tsx examples/on-demo-site.ts examples/cheerio-crawler.ts    # on the bundled demo site and its mirror
 *
 * The same file runs in an ES module project ("type": "module") and in a CommonJS one (what
 * `npm init -y` makes): no top-level await, an async main instead; with TypeScript's
 * `"module": "nodenext"` the import of neardup (an ES module) compiles to require(), which Node
 * 20.19+ and 22.12+ load. Copy it with example-args.ts.
 *
 * The deduplicated corpus is <data>/corpus.jsonl; `neardup clusters --data <data>` reports which
 * URLs are the same page.
 */
import { CheerioCrawler, Configuration, LogLevel } from '@crawlee/cheerio';
import { Deduplicator } from 'neardup';
import { parseExampleArgs, runMain, verdictLine } from './example-args.js';

async function main(): Promise<void> {
  const args = parseExampleArgs(process.argv.slice(2));
  const dedup = await Deduplicator.open({ data: args.data });
  try {
    const crawler = new CheerioCrawler({
      maxConcurrency: args.concurrency,
      async requestHandler(context) {
        const verdict = await dedup.judge(context);
        console.log(verdictLine(verdict));
        await dedup.enqueueLinks(context); // skipped for duplicates
      },
    }, new Configuration({ persistStorage: false, logLevel: LogLevel.WARNING }));
    await crawler.run([...args.seeds]);
    console.log(`summary ${JSON.stringify(dedup.stats)}`);
  } finally {
    await dedup.close();
  }
}

runMain(main);
