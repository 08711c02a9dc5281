/**
 * neardup in a crawlee PlaywrightCrawler: the same plug-in calls as in cheerio-crawler.ts, on pages
 * rendered by a browser (the HTML judged is the page as rendered, `page.content()`). Runs Debian's
 * chromium through playwright-core: no browser download (apt-get install -y chromium).
 *
 *   npx tsx examples/playwright-crawler.ts https://example.com/ --data ./data
 *   npx tsx examples/on-demo-site.ts examples/playwright-crawler.ts  # on the bundled demo site and its mirror
 *
 * Like cheerio-crawler.ts, it runs in ES module and CommonJS projects alike (no top-level await).
 */
import { existsSync } from 'node:fs';
import { Configuration, LogLevel, PlaywrightCrawler } from '@crawlee/playwright';
import { chromium } from 'playwright-core';
import { Deduplicator } from 'neardup';
import { parseExampleArgs, runMain, verdictLine } from './example-args.js';

async function main(): Promise<void> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) {
    throw new Error(`${executablePath} not found: install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH`);
  }
  const args = parseExampleArgs(process.argv.slice(2));
  const dedup = await Deduplicator.open({ data: args.data });
  try {
    const crawler = new PlaywrightCrawler({
      maxConcurrency: args.concurrency,
      launchContext: {
        launcher: chromium,
        launchOptions: { executablePath, headless: true, args: ['--no-sandbox', '--disable-background-networking'] },
      },
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
