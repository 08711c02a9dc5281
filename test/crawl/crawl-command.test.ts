/** `neardup crawl` end to end: the real CLI in a child process against a local site. */
import { execFile } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dailySamplePage, loadDemoArticles } from '../helpers/demo-site/demo-site.js';
import { startFixtureSite } from '../helpers/fixture-site.js';
import type { FixtureSite } from '../helpers/fixture-site.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const cli = fileURLToPath(new URL('../../scripts/neardup-from-source.js', import.meta.url));
const run = promisify(execFile);

async function neardup(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], { timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

let site: FixtureSite;
const dirs: string[] = [];
const freshDir = () => {
  const dir = makeTempDir('neardup-crawl-cli-');
  dirs.push(dir);
  return dir;
};

beforeAll(async () => {
  const [a, b] = loadDemoArticles();
  site = await startFixtureSite({
    '127.0.0.1': {
      '/': { body: '<a href="/a">a</a> <a href="/b">b</a> <a href="/copy">copy</a>' },
      '/a': { body: dailySamplePage({ title: a!.title, paragraphs: a!.paragraphs }) },
      '/b': { body: dailySamplePage({ title: b!.title, paragraphs: b!.paragraphs }) },
      '/copy': { body: dailySamplePage({ title: 'copy', paragraphs: a!.paragraphs }) },
      '/about.html': { body: 'about' },
      '/privacy.html': { body: 'privacy' },
    },
  });
});
afterAll(async () => {
  await site?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A port on 127.0.0.1 nothing listens on (a server bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('neardup crawl: seeds that cannot be fetched', () => {
  it('reports a refused seed with its cause on stderr, records it unreachable (not robots) and exits 3', async () => {
    const dataDir = freshDir();
    const seed = `http://127.0.0.1:${await closedPort()}/`;
    const { code, stdout, stderr } = await neardup(['crawl', seed, '--data', dataDir, '--json', '--timeout', '5']);
    expect(code).toBe(3);
    expect(stderr).toContain(`neardup: ${seed}: connection refused`);
    expect(stderr).toContain('no seed could be fetched');
    const summary = JSON.parse(stdout) as { skippedBy: Record<string, number>; seedOutcomes: unknown[] };
    expect(summary.skippedBy).toEqual({ unreachable: 1 });
    expect(summary.seedOutcomes).toEqual([expect.objectContaining({ url: seed, status: 'failed', reason: 'unreachable' })]);
  });

  it('reports a seed answering 404 (HTTP 404) and exits 3; with one good seed beside it, exits 0 and still reports it', async () => {
    const missing = site.url('127.0.0.1', '/missing');
    const alone = await neardup(['crawl', missing, '--data', freshDir(), '--no-robots', '--host-rpm', '1000000']);
    expect(alone.code).toBe(3);
    expect(alone.stderr).toContain(`neardup: ${missing}: HTTP 404`);
    const mixed = await neardup(['crawl', missing, site.url('127.0.0.1', '/a'), '--data', freshDir(), '--no-robots', '--host-rpm', '1000000', '--max-depth', '0']);
    expect(mixed.code).toBe(0);
    expect(mixed.stderr).toContain(`neardup: ${missing}: HTTP 404`);
    expect(mixed.stderr).not.toContain('no seed could be fetched');
  });
});

describe('neardup crawl', () => {
  it('crawls into --data and prints the summary as JSON with --json', async () => {
    const dataDir = freshDir();
    const { code, stdout, stderr } = await neardup(['crawl', site.url('127.0.0.1', '/'), '--data', dataDir, '--json', '--no-robots', '--host-rpm', '1000000']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const summary = JSON.parse(stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({ stored: 2, exact: 1, near: 0, stopReason: 'finished', pending: 0, dataDir });
    expect(existsSync(join(dataDir, 'neardup.db'))).toBe(true);
    expect(existsSync(join(dataDir, 'corpus.jsonl'))).toBe(true);
    expect(existsSync(join(dataDir, 'crawlee', 'neardup-frontier.jsonl'))).toBe(true);
    expect(site.hits.some((hit) => hit.path === '/robots.txt')).toBe(false);
  });

  it('prints a readable summary by default', async () => {
    const dataDir = freshDir();
    const { code, stdout } = await neardup(['crawl', site.url('127.0.0.1', '/'), '--data', dataDir, '--max-pages', '2']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^crawl: 2 pages in [\d.]+ s \([\d.]+ pages\/s\), stopped at the page budget \(--max-pages\), not at the end of the site: \d+ URLs? left in the queue/);
    expect(stdout).toContain(`outputs: ${join(dataDir, 'neardup.db')}`);
  });

  it.each([
    [['crawl', 'http://127.0.0.1/', '--max-pages', '0'], /Expected `max-pages` to be an integer 1–100000000, got `0` \(string\)/],
    [['crawl', 'http://127.0.0.1/', '--scope', 'site'], /Expected `scope` to be one of host\|domain\|any, got `site` \(string\)/],
    [['crawl', 'not-a-url'], /^neardup: Expected a seed to be an http\(s\) URL, got `not-a-url` \(string\)\n$/],
    [['crawl'], /missing required argument/],
  ])('refuses %j with a one-line reason and exit code 2', async (args, message) => {
    const dataDir = freshDir();
    const { code, stderr } = await neardup([...args, '--data', join(dataDir, 'never')]);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(dataDir, 'never'))).toBe(false);
  });

  it('lists every flag with its default in --help', async () => {
    const { code, stdout } = await neardup(['crawl', '--help']);
    expect(code).toBe(0);
    for (const flag of ['--data', '--max-pages', '--max-depth', '--concurrency', '--scope', '--distance', '--follow-duplicates', '--no-robots', '--host-rpm', '--max-page-bytes', '--timeout', '--user-agent', '--json', '--no-progress']) {
      expect(stdout).toContain(flag);
    }
    expect(stdout).toMatch(/--data <dir>[\s\S]*default:\s+"\.\/data"/);
    expect(stdout).toMatch(/--scope <mode>[\s\S]*default: host/);
    expect(stdout).toMatch(/--distance <k>[\s\S]*default:\s+3/);
  });
});
