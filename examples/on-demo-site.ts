/**
 * Runs an example on the bundled demo site (test/helpers/demo-site: a news site on 127.0.0.1 and a
 * site copying it on localhost), from the repository: serves the site, runs the example with the
 * two home pages as seeds (and any further arguments), then stops the site.
 *
 *   npx tsx examples/on-demo-site.ts examples/cheerio-crawler.ts [--data ./data] [--concurrency 4]
 */
import { spawn } from 'node:child_process';
import { startDemoSite } from '../test/helpers/demo-site/demo-site.js';

const [example, ...rest] = process.argv.slice(2);
if (example === undefined) {
  console.error('usage: npx tsx examples/on-demo-site.ts <example.ts> [--data <dir>] [--concurrency <n>]');
  process.exit(2);
}
const { site, manifest } = await startDemoSite();
console.log(`serving the demo site: ${manifest.mainHome} and its mirror ${manifest.mirrorHome}`);
// The example runs from the sources: the `source` export condition maps 'neardup' to src/index.ts.
const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', example, manifest.mainHome, manifest.mirrorHome, ...rest], { stdio: 'inherit' });
const code = await new Promise<number>((done) => child.on('close', (exit) => done(exit ?? 1)));
await site.close();
process.exitCode = code;
