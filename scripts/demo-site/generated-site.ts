/**
 * The generated site (test/helpers/demo-site/generated-site.ts) run directly: serves the site until stdin closes, after printing one JSON line
 * `{"seeds":[...],"pages":N,"mirrors":M,"served":S}` (scripts/bench-crawl.ts runs it in a child
 * process, so that serving does not share the crawler's event loop):
 *
 *   npx tsx scripts/demo-site/generated-site.ts [--pages 2000]
 */
import { startGeneratedSite } from '../../test/helpers/demo-site/generated-site.js';

{
  const at = process.argv.indexOf('--pages');
  const pages = at >= 0 ? Number(process.argv[at + 1]) : 2000;
  const generated = await startGeneratedSite({ pages });
  process.stdout.write(`${JSON.stringify({ seeds: generated.seeds, pages, mirrors: generated.mirrors.size, served: generated.allPages.length })}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => {
    void generated.site.close().then(() => process.exit(0));
  });
}
