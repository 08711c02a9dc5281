/**
 * Issue 28, item 3: a seed that failed once is tried again — on a new run with the same --data (its
 * host was down, so its robots.txt was unreachable), and within a run after a back-off; a
 * --user-agent with CR/LF is refused up front in one line.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { crawl } from '../../src/crawl/crawl.js';
import { ValidationError } from '../../src/errors.js';
import { devTextsById } from '../helpers/dev-texts.js';
import { htmlPage } from '../helpers/fixture-site.js';
import { spawnNeardup } from '../helpers/run-cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const text = devTextsById().find((t) => t.split(/\s+/).length > 150)!;
const body = htmlPage({ title: 'Seed', paragraphs: text.split(/\n+/) });

/** A free port of 127.0.0.1 with nothing listening on it (yet). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** The host coming up: a page for every path, robots.txt allowing all. */
function serve(port: number): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.url === '/robots.txt') {
      response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

const servers: Server[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const config = loadConfig({ env: {}, overrides: { crawl: { maxRequestsPerMinutePerHost: 1_000_000, requestTimeoutSecs: 5 } } });

describe('a seed that failed is tried again', () => {
  it('on a new run with the same --data, once its host is up (robots.txt was unreachable)', async () => {
    const port = await freePort();
    const seed = `http://127.0.0.1:${port}/`;
    const dataDir = makeTempDir('neardup-seed-retry-');
    dirs.push(dataDir);
    const first = await crawl({ seeds: [seed], dataDir, config, seedRetryDelaysMs: [] });
    expect(first.seedOutcomes).toEqual([expect.objectContaining({ status: 'failed', reason: 'unreachable' })]);
    expect(first.stored).toBe(0);
    servers.push(await serve(port));
    const second = await crawl({ seeds: [seed], dataDir, config, seedRetryDelaysMs: [] });
    expect(second.seedOutcomes).toEqual([{ url: seed, status: 'fetched' }]);
    expect(second.stored).toBe(1);
    // And a third run has nothing left to do for it (fetched: not tried again).
    const third = await crawl({ seeds: [seed], dataDir, config, seedRetryDelaysMs: [] });
    expect(third.fetched).toBe(0);
  }, 60_000);

  it('within a run, after a back-off: the host comes up once the seed has failed', async () => {
    const port = await freePort();
    const seed = `http://127.0.0.1:${port}/`;
    const dataDir = makeTempDir('neardup-seed-backoff-');
    dirs.push(dataDir);
    let failures = 0;
    const summary = await crawl({
      seeds: [seed], dataDir, config, seedRetryDelaysMs: [300, 300],
      // The failure is certain (nothing listens yet); the host comes up as soon as it is recorded.
      onPage: (event) => {
        if (event.decision.kind === 'skipped' && failures++ === 0) void serve(port).then((server) => servers.push(server));
      },
    });
    expect(failures).toBe(1);
    expect(summary.seedOutcomes).toEqual([{ url: seed, status: 'fetched' }]);
    expect(summary.stored).toBe(1);
  }, 60_000);
});

describe('--user-agent', () => {
  it.each(['neardup\r\nX-Evil: 1', 'neardup\nbot', 'a\u0000b'])('refuses %j up front in one line', async (userAgent) => {
    const dataDir = makeTempDir('neardup-ua-');
    dirs.push(dataDir);
    const ua = loadConfig({ env: {}, overrides: { crawl: { userAgent } } });
    await expect(crawl({ seeds: ['http://127.0.0.1:9/'], dataDir, config: ua })).rejects.toThrow(ValidationError);
    const run = await spawnNeardup(['crawl', 'http://127.0.0.1:9/', '--data', dataDir, '--user-agent', userAgent.replace('\u0000', '\u0001')]);
    expect(run.code).not.toBe(0);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/user-agent/i);
  }, 60_000);
});
