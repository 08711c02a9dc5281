/**
 * The primary swap (src/pipeline.ts with src/fingerprint-index/primary-swap.ts): a duplicate judged
 * later that is the better primary takes the stored document's place in the index and the corpus,
 * in either order of arrival; equal evidence keeps the stored copy; a kill -9 right after the swap
 * committed leaves a data folder that the next open repairs.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { Pipeline } from '../../src/pipeline.js';
import { FingerprintIndex } from '../../src/fingerprint-index/fingerprint-index.js';
import { CorpusWriter } from '../../src/store/corpus-writer.js';
import { corpusFileName, databaseFileName } from '../../src/store/data-folder.js';
import { FAULT_FREEZE_MESSAGE } from '../../src/store/fault-freeze.js';
import type { PageInput } from '../../src/types.js';
import { dailySamplePage, loadDemoArticles } from '../helpers/demo-site/demo-site.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { describeWithPostgres, freshDatabaseName } from '../helpers/postgres-server.js';
import { PgFingerprintIndex } from '../../src/fingerprint-index/postgres/pg-fingerprint-index.js';

const config = loadConfig({ env: {} });
const articles = loadDemoArticles();
const html = (i: number) => dailySamplePage({ title: articles[i]!.title, paragraphs: articles[i]!.paragraphs, related: [] });

/** Article i on a host, with a Last-Modified date. */
function page(host: string, i: number, lastModified: string | null): PageInput {
  return { url: `http://${host}/a${i}`, html: html(i), lastModified, fetchedAt: 1000, depth: 1 };
}
const ORIGINAL = '2024-01-02T00:00:00.000Z';
const MIRROR = '2024-06-01T00:00:00.000Z';

let dir: string;
beforeEach(() => {
  dir = makeTempDir('neardup-swap-');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function corpusText(): string {
  return readFileSync(join(dir, corpusFileName), 'utf8');
}

function liveUrls(): string[] {
  return CorpusWriter.readLive(corpusText()).map((r) => r.url).sort();
}

function kinds(): Record<string, string> {
  const index = FingerprintIndex.open(join(dir, databaseFileName), { params: FingerprintIndex.readParams(join(dir, databaseFileName)), readonly: true });
  try {
    const out: Record<string, string> = {};
    for (const doc of index.stored()) out[doc.url] = 'stored';
    for (const doc of index.rejected()) out[doc.url] = `${doc.kind}→${doc.matchId}`;
    return out;
  } finally {
    index.close();
  }
}

describe('the primary swap', () => {
  it('a copy met first is replaced by the original met later: index, corpus and counters', async () => {
    const pipeline = await Pipeline.open({ dataDir: dir, config, primarySwap: true });
    const first = await pipeline.process(page('mirror.test', 0, MIRROR));
    const second = await pipeline.process(page('origin.test', 0, ORIGINAL));
    expect(first.kind).toBe('stored');
    expect(second).toMatchObject({ kind: 'stored', replaced: { url: 'http://mirror.test/a0' } });
    // Before close: the displaced line is withdrawn by a tombstone.
    expect(liveUrls()).toEqual(['http://origin.test/a0']);
    expect(corpusText()).toContain('"supersededBy"');
    expect(pipeline.counters).toMatchObject({ stored: 2, replaced: 1 });
    await pipeline.close();
    // After close: compacted, one line, no tombstone.
    const lines = corpusText().split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ url: 'http://origin.test/a0' });
    const secondId = (second as { id: number }).id;
    expect(kinds()).toEqual({ 'http://origin.test/a0': 'stored', 'http://mirror.test/a0': `exact→${secondId}` });
  });

  it('the original met first stays; a later copy of it is its duplicate (no swap either way)', async () => {
    const pipeline = await Pipeline.open({ dataDir: dir, config, primarySwap: true });
    await pipeline.process(page('origin.test', 1, ORIGINAL));
    const copy = await pipeline.process(page('mirror.test', 1, MIRROR));
    expect(copy.kind).toBe('exact');
    await pipeline.close();
    expect(liveUrls()).toEqual(['http://origin.test/a1']);
  });

  it('equal evidence keeps the stored copy (no flip-flop on timing)', async () => {
    const pipeline = await Pipeline.open({ dataDir: dir, config, primarySwap: true });
    await pipeline.process(page('b.test', 2, null));
    expect((await pipeline.process(page('a.test', 2, null))).kind).toBe('exact');
    await pipeline.close();
    expect(liveUrls()).toEqual(['http://b.test/a2']);
  });

  it('off by default (batch dedup): the first copy stays stored', async () => {
    const pipeline = await Pipeline.open({ dataDir: dir, config });
    await pipeline.process(page('mirror.test', 3, MIRROR));
    expect((await pipeline.process(page('origin.test', 3, ORIGINAL))).kind).toBe('exact');
    await pipeline.close();
    expect(liveUrls()).toEqual(['http://mirror.test/a3']);
  });

  it('a third copy judged after a swap joins the new primary\'s cluster; a later swap chain resolves', async () => {
    const pipeline = await Pipeline.open({ dataDir: dir, config, primarySwap: true });
    await pipeline.process(page('c.test', 4, '2024-09-01T00:00:00.000Z'));
    const b = await pipeline.process(page('b.test', 4, MIRROR));
    const a = await pipeline.process(page('a.test', 4, ORIGINAL));
    expect(b.kind).toBe('stored');
    expect(a.kind).toBe('stored');
    const d = await pipeline.process(page('d.test', 4, '2025-01-01T00:00:00.000Z'));
    expect(d).toMatchObject({ kind: 'exact', matchUrl: 'http://a.test/a4' });
    await pipeline.close();
    expect(liveUrls()).toEqual(['http://a.test/a4']);
  });
});

/** Runs swap-kill-run.ts frozen at its first swap, then kills it with SIGKILL. */
function runFrozenAndKill(pages: readonly PageInput[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'swap-kill-run.ts'), dir, JSON.stringify(pages)], {
      env: { ...process.env, NEARDUP_FAULT_FREEZE: '1:swap' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      if (stderr.includes(FAULT_FREEZE_MESSAGE)) child.kill('SIGKILL');
    });
    child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`not killed (code ${code}): ${stderr}`))));
  });
}

describe('the primary swap under kill -9', () => {
  it('killed after the swap committed and before its corpus lines: the next open withdraws the displaced line, the re-processed page gets its own', async () => {
    await runFrozenAndKill([page('mirror.test', 5, MIRROR), page('origin.test', 5, ORIGINAL)]);
    // The kill was certain: the index swapped, the corpus still holds only the mirror's line.
    expect(kinds()['http://origin.test/a5']).toBe('stored');
    expect(liveUrls()).toEqual(['http://mirror.test/a5']);
    const pipeline = await Pipeline.open({ dataDir: dir, config, primarySwap: true });
    // Opening withdrew the displaced document's line.
    expect(liveUrls()).toEqual([]);
    // The crawl processes the page again (its request was never marked done): its line is written.
    expect((await pipeline.process(page('origin.test', 5, ORIGINAL))).kind).toBe('stored');
    await pipeline.close();
    expect(corpusText().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l).url)).toEqual(['http://origin.test/a5']);
  }, 60_000);
});

describeWithPostgres('the primary swap on PostgreSQL', (server) => {
  it('two processes\' pipelines (two writers, two corpora): the later original takes the place of the other writer\'s copy; each corpus is consistent after close', async () => {
    const url = await server().createDatabase(freshDatabaseName());
    const dirA = join(dir, 'a');
    const dirB = join(dir, 'b');
    const a = await Pipeline.open({ dataDir: dirA, config, indexUrl: url, primarySwap: true });
    const b = await Pipeline.open({ dataDir: dirB, config, indexUrl: url, primarySwap: true });
    try {
      expect((await a.process(page('mirror.test', 6, MIRROR))).kind).toBe('stored');
      const swapped = await b.process(page('origin.test', 6, ORIGINAL));
      expect(swapped).toMatchObject({ kind: 'stored', replaced: { url: 'http://mirror.test/a6' } });
      // Equal evidence: no swap.
      expect((await b.process(page('other.test', 6, ORIGINAL))).kind).toBe('exact');
    } finally {
      await a.close();
      await b.close();
    }
    const live = (d: string) => CorpusWriter.readLive(readFileSync(join(d, corpusFileName), 'utf8')).map((r) => r.url);
    expect(live(dirA)).toEqual([]);
    expect(live(dirB)).toEqual(['http://origin.test/a6']);
    const index = await PgFingerprintIndex.open(url, { params: await PgFingerprintIndex.readParams(url), readonly: true });
    try {
      expect(await index.getByUrl('http://origin.test/a6')).toMatchObject({ url: 'http://origin.test/a6' });
      expect(await index.getByUrl('http://mirror.test/a6')).toMatchObject({ kind: 'exact', matchId: (await index.getByUrl('http://origin.test/a6'))!.id });
      expect((await index.stats()).stored).toBe(1);
    } finally {
      await index.close();
    }
  }, 120_000);
});
