/**
 * Issue 19's link flood, as a figure: one hub page with N in-scope links (default 100,000) on a
 * local server, crawled by the real CLI (`bin/neardup.js crawl --max-pages M`, default 50) in a
 * child process, under `/usr/bin/time` for its peak RSS when that exists. Prints what the data
 * folder holds next to the summary, and how often the hub was fetched.
 *
 *   npx tsx scripts/link-flood.ts [--links 100000] [--max-pages 50] [-- <more crawl flags>]
 *
 * Last line: `link-flood: links=<..> max_pages=<..> seconds=<..> peak_rss_mb=<..|unknown>
 * hub_fetches=<..> journal_requests=<..> summary_stored=<..> db_corpus_lines=<..> summary_pending=<..>
 * journal_pending=<..> links_dropped=<..>`
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { seededRandom } from '../test/helpers/seeded-random.js';

const { values, positionals } = parseArgs({
  options: { links: { type: 'string', default: '100000' }, 'max-pages': { type: 'string', default: '50' } },
  allowPositionals: true,
});
const links = Number(values.links);
const maxPages = Number(values['max-pages']);
const bin = fileURLToPath(new URL('../bin/neardup.js', import.meta.url));

const words = 'river stone window harbor lantern orchard meadow copper violin glacier ladder quartz thunder pepper saddle marble'.split(' ');
function page(seed: number, title: string, hrefs: readonly string[] = []): string {
  const random = seededRandom(seed);
  const text = Array.from({ length: 120 }, () => words[Math.floor(random() * words.length)]).join(' ');
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><main><p>${text}</p></main>`
    + `<nav>${hrefs.map((h) => `<a href="${h}">x</a>`).join('')}</nav></body></html>`;
}

const hub = page(1, 'Hub', Array.from({ length: links }, (_, i) => `/p/${i}`));
let hubFetches = 0;
const server = createServer((request, response) => {
  const path = request.url ?? '/';
  const match = /^\/p\/(\d+)$/.exec(path);
  if (path === '/') hubFetches++;
  const body = path === '/' ? hub : match !== null ? page(1000 + Number(match[1]), `Page ${match[1]}`) : null;
  if (body === null) response.writeHead(404).end();
  else response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const seed = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
const dataDir = mkdtempSync(join(tmpdir(), 'neardup-link-flood-'));
const useTime = existsSync('/usr/bin/time');
const crawlArgs = [bin, 'crawl', seed, '--data', dataDir, '--max-pages', String(maxPages), '--json', '--host-rpm', '1000000', ...positionals];
const [command, args] = useTime ? ['/usr/bin/time', ['-f', 'peak_rss_kb=%M', process.execPath, ...crawlArgs]] : [process.execPath, crawlArgs];
const started = Date.now();
const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NEARDUP_CONFIG: '' } });
let stdout = '';
let stderr = '';
child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
const code = await new Promise<number>((resolve) => child.once('exit', (c) => resolve(c ?? 1)));
const seconds = (Date.now() - started) / 1000;
server.close();
server.closeAllConnections();
if (code !== 0) {
  process.stderr.write(`link-flood: the crawl failed (exit ${code}): ${stderr}\n`);
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(1);
}
const summary = JSON.parse(stdout) as { stored: number; pending: number; linksDropped?: number };
// The frontier journal (crawlee's queue lives in memory): requests added, and those without a `done` line.
const journalLines = readFileSync(join(dataDir, 'crawlee', 'neardup-frontier.jsonl'), 'utf8').split('\n').filter((l) => l !== '')
  .map((l) => JSON.parse(l) as { key?: unknown; done?: unknown });
const addedKeys = new Set(journalLines.flatMap((e) => (typeof e.key === 'string' ? [e.key] : [])));
const doneKeys = new Set(journalLines.flatMap((e) => (typeof e.done === 'string' ? [e.done] : [])));
const pendingRequests = [...addedKeys].filter((k) => !doneKeys.has(k)).length;
const corpusLines = readFileSync(join(dataDir, 'corpus.jsonl'), 'utf8').split('\n').filter((l) => l !== '').length;
const rss = /peak_rss_kb=(\d+)/.exec(stderr);
rmSync(dataDir, { recursive: true, force: true });
console.log(`link-flood: links=${links} max_pages=${maxPages} seconds=${seconds.toFixed(1)} peak_rss_mb=${rss === null ? 'unknown' : (Number(rss[1]) / 1024).toFixed(0)} `
  + `hub_fetches=${hubFetches} journal_requests=${addedKeys.size} summary_stored=${summary.stored} db_corpus_lines=${corpusLines} `
  + `summary_pending=${summary.pending} journal_pending=${pendingRequests} links_dropped=${summary.linksDropped ?? 'n/a'}`);
