import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { hammingDistance } from '../../../src/fingerprint/fingerprint-codec.js';
import { PgFingerprintIndex } from '../../../src/fingerprint-index/postgres/pg-fingerprint-index.js';
import type { Decision, StoredDocument } from '../../../src/types.js';
import { describeWithPostgres, freshDatabaseName, type PostgresServer } from '../../helpers/postgres-server.js';
import { paramsFor, tempDir } from '../index-test-helpers.js';

const CHILD = fileURLToPath(new URL('./pg-writer-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const WRITERS = 8;
const CLUSTERS = 240;

interface ChildResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

let temp: ReturnType<typeof tempDir>;
beforeEach(() => {
  temp = tempDir();
});
afterEach(() => temp.remove());

/**
 * Starts the writers, releases them together once all have opened the index; with `outage`, waits
 * until every writer is half way, stops the server, lets the writers go on (into the outage), and
 * starts the server again after a pause.
 */
async function race(url: string, outage: PostgresServer | null): Promise<ChildResult[]> {
  const goFile = join(temp.dir, 'go');
  const pauseFile = join(temp.dir, 'pause');
  const lines = { ready: 0, half: 0 };
  const onLine = async (line: 'ready' | 'half') => {
    lines[line]++;
    if (lines[line] !== WRITERS) return;
    if (line === 'ready') writeFileSync(goFile, 'go');
    else {
      outage!.stop();
      writeFileSync(pauseFile, 'go');
      await new Promise((resolve) => setTimeout(resolve, 1500));
      outage!.restart();
    }
  };
  const runs = Array.from({ length: WRITERS }, (_, worker) =>
    new Promise<ChildResult>((resolve, reject) => {
      const args = ['--import', 'tsx', CHILD, url, String(worker), String(CLUSTERS), goFile, ...(outage === null ? [] : [pauseFile])];
      const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        for (const line of ['ready', 'half'] as const) {
          if (!stdout.includes(`${line}\n`) && (stdout + chunk).includes(`${line}\n`)) void onLine(line).catch(reject);
        }
        stdout += chunk;
      });
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    }),
  );
  return Promise.all(runs);
}

/** One stored document per cluster, none within k of another, and every writer told what the database holds. */
async function expectOnePerCluster(url: string, results: ChildResult[]): Promise<void> {
  for (const r of results) expect(r.code, r.stderr).toBe(0);
  const reported = results.map((r) => JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Array<{ url: string; decision: Decision }>);
  const index = await PgFingerprintIndex.open(url, { params: paramsFor(3), readonly: true });
  try {
    const stored: StoredDocument[] = [];
    for await (const doc of index.stored()) stored.push(doc);
    const perCluster = new Map<string, number>();
    for (const doc of stored) {
      const cluster = doc.url.split('/').at(-1)!;
      perCluster.set(cluster, (perCluster.get(cluster) ?? 0) + 1);
    }
    expect(perCluster.size).toBe(CLUSTERS);
    expect([...perCluster.values()].every((n) => n === 1)).toBe(true);
    for (let i = 0; i < stored.length; i++) {
      for (let j = i + 1; j < stored.length; j++) expect(hammingDistance(stored[i]!.fingerprint, stored[j]!.fingerprint)).toBeGreaterThan(3);
    }
    const stats = await index.stats();
    const sharedUrls = Math.ceil(CLUSTERS / 10);
    expect(stats.stored + stats.exact + stats.near).toBe(WRITERS * CLUSTERS + sharedUrls);
    for (const { url: docUrl, decision } of reported.flat()) {
      const row = await index.getByUrl(docUrl);
      expect(row, docUrl).toMatchObject({ id: (decision as { id: number }).id, ...(decision.kind === 'stored' ? {} : { kind: decision.kind }) });
    }
    const wins = reported.map((decisions) => decisions.filter((d) => d.decision.kind === 'stored').length);
    console.info(`PostgreSQL writers: stored per writer ${wins.join(', ')}`);
  } finally {
    await index.close();
  }
}

describeWithPostgres('PostgreSQL index: concurrent writer processes', (server) => {
  it(`${WRITERS} writers on overlapping inputs store exactly one document per cluster`, async () => {
    const url = await server().createDatabase(freshDatabaseName());
    await (await PgFingerprintIndex.open(url, { params: paramsFor(3) })).close();
    await expectOnePerCluster(url, await race(url, null));
  }, 240_000);

  it('the server stopped and started mid-run: every writer waits, resumes, and the result is the same', async () => {
    const url = await server().createDatabase(freshDatabaseName());
    await (await PgFingerprintIndex.open(url, { params: paramsFor(3) })).close();
    const results = await race(url, server());
    for (const r of results) {
      expect(r.stderr).toMatch(/waiting for the server/);
      expect(r.stderr).toMatch(/is back; resuming/);
      expect(r.stderr.split('\n').filter((l) => l !== '').every((l) => l.startsWith('neardup: '))).toBe(true);
    }
    await expectOnePerCluster(url, results);
  }, 240_000);
});
