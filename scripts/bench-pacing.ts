/**
 * Does the crawl reach its per-host rate limit? A local two-host site (127.0.0.1 and localhost,
 * 500 article pages each, every answer delayed 20 ms) whose pages also link to 500 external
 * hosts that cannot be reached (`.invalid` names: DNS fails), crawled with `--scope any` at the
 * default `--host-rpm 600` (10 requests/s per host). The site runs in a child process and logs
 * the time of every request; from those times:
 *
 * - per_host_rps: each host's requests per second over the span in which it had pages left
 *   (first to last request); the lower of the two hosts is printed;
 * - longest_idle_s: the longest gap between two consecutive requests to either host.
 *
 *   npx tsx scripts/bench-pacing.ts [--pages 1000] [--host-rpm 600] [--latency-ms 20] [--external 500]
 *
 * Last line: `pacing: per_host_rps=<..> limit_rps=<..> ratio=<..> longest_idle_s=<..>`
 * (targets: ratio ≥ 0.9, longest idle ≤ 2 s).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { crawl } from '../src/crawl/crawl.js';
import { startFixtureSite } from '../test/helpers/fixture-site.js';
import type { FixtureResponse } from '../test/helpers/fixture-site.js';
import { seededRandom } from '../test/helpers/seeded-random.js';

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const value = Number(process.argv[i + 1]);
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} expects a whole number, got \`${process.argv[i + 1]}\``);
  return value;
}

const pages = flag('pages', 1000);
const hostRpm = flag('host-rpm', 600);
const latencyMs = flag('latency-ms', 20);
const external = flag('external', 500);
const hosts = ['127.0.0.1', 'localhost'] as const;

/** One article: 200 random words in four paragraphs, links to the next three pages and some external hosts. */
function articlePage(random: () => number, index: number, perHost: number, externalLinks: readonly string[]): string {
  const words = Array.from({ length: 200 }, () => `w${Math.floor(random() * 5000).toString(36)}`);
  const paragraphs = [0, 1, 2, 3].map((p) => `<p>${words.slice(p * 50, p * 50 + 50).join(' ')}.</p>`).join('\n');
  const next = [1, 2, 3].map((d) => `<a href="/p${(index + d) % perHost}">next ${d}</a>`).join(' ');
  const out = externalLinks.map((url) => `<a href="${url}">elsewhere</a>`).join(' ');
  return `<!doctype html><html><head><title>Page ${index}</title></head><body><article><h1>Page ${index}</h1>${paragraphs}</article><nav>${next} ${out}</nav></body></html>`;
}

/** Child process: serves the site, prints its port, answers `/__hits` with the request log. */
async function serve(): Promise<void> {
  const random = seededRandom(7);
  const perHost = Math.floor(pages / hosts.length);
  const externalUrls = Array.from({ length: external }, (_, i) => `http://ext-${i}.invalid/page`);
  const routes: Record<string, Record<string, FixtureResponse>> = {};
  for (const [h, host] of hosts.entries()) {
    const map: Record<string, FixtureResponse> = {};
    for (let i = 0; i < perHost; i++) {
      // Each host's pages carry their share of the external links, a few per page.
      const share = externalUrls.filter((_, e) => e % hosts.length === h && Math.floor(e / hosts.length) % perHost === i);
      map[`/p${i}`] = { body: articlePage(random, i, perHost, share), delayMs: latencyMs };
    }
    const list = Array.from({ length: perHost }, (_, i) => `<li><a href="/p${i}">page ${i}</a></li>`).join('');
    map['/'] = { body: `<!doctype html><html><head><title>Home</title></head><body><ul>${list}</ul></body></html>`, delayMs: latencyMs };
    map['/robots.txt'] = { body: 'User-agent: *\nAllow: /\n', headers: { 'content-type': 'text/plain' }, delayMs: latencyMs };
    routes[host] = map;
  }
  const site = await startFixtureSite({
    ...routes,
    '*': { '/__hits': () => ({ body: JSON.stringify(site.hits), headers: { 'content-type': 'application/json' } }) },
  });
  process.stdout.write(`${site.port}\n`);
}

interface HostFigures {
  readonly host: string;
  readonly requests: number;
  readonly rps: number;
}

function hostFigures(hits: readonly { host: string; path: string; at: number }[]): HostFigures[] {
  return hosts.map((host) => {
    const times = hits.filter((hit) => hit.host === host && hit.path !== '/robots.txt').map((hit) => hit.at).sort((a, b) => a - b);
    const span = times.length > 1 ? (times.at(-1)! - times[0]!) / 1000 : 0;
    return { host, requests: times.length, rps: span > 0 ? (times.length - 1) / span : 0 };
  });
}

function longestIdleSeconds(hits: readonly { host: string; path: string; at: number }[]): number {
  const times = hits.filter((hit) => hit.path !== '/__hits').map((hit) => hit.at).sort((a, b) => a - b);
  let longest = 0;
  for (let i = 1; i < times.length; i++) longest = Math.max(longest, times[i]! - times[i - 1]!);
  return longest / 1000;
}

async function main(): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve', ...process.argv.slice(2)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const port = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`site exited with ${code}`)));
    });
    const dataDir = mkdtempSync(join(tmpdir(), 'neardup-bench-pacing-'));
    const config = loadConfig({ overrides: { crawl: { scope: 'any', maxPages: pages * 2, maxRequestsPerMinutePerHost: hostRpm, concurrency: flag('concurrency', 8) } } });
    const started = Date.now();
    const summary = await crawl({ seeds: hosts.map((host) => `http://${host}:${port}/`), dataDir, config });
    const seconds = (Date.now() - started) / 1000;
    const hits = (await (await fetch(`http://127.0.0.1:${port}/__hits`)).json()) as { host: string; path: string; at: number }[];
    rmSync(dataDir, { recursive: true, force: true });
    const figures = hostFigures(hits);
    for (const f of figures) console.log(`host ${f.host}: requests=${f.requests} rps=${f.rps.toFixed(2)}`);
    console.log(`crawl: fetched=${summary.fetched} stored=${summary.stored} skipped=${summary.skipped} seconds=${seconds.toFixed(1)}`);
    const limit = hostRpm / 60;
    const perHost = Math.min(...figures.map((f) => f.rps));
    console.log(`pacing: per_host_rps=${perHost.toFixed(2)} limit_rps=${limit} ratio=${(perHost / limit).toFixed(3)} longest_idle_s=${longestIdleSeconds(hits).toFixed(2)}`);
  } finally {
    child.kill();
  }
}

if (process.argv.includes('--serve')) await serve();
else await main();
