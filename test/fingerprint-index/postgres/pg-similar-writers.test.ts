/**
 * The second stage's guarantee across processes: 8 writers with the second stage on race on copies of
 * the same clusters that only the second stage can match (beyond k, within K, alike by sketch); no two
 * stored documents are ever matched by it, so exactly one copy of each cluster is stored.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { hammingDistance } from '../../../src/fingerprint/fingerprint-codec.js';
import { blockValue } from '../../../src/fingerprint-index/block-layout.js';
import { PgFingerprintIndex } from '../../../src/fingerprint-index/postgres/pg-fingerprint-index.js';
import type { Decision, StoredDocument } from '../../../src/types.js';
import { describeWithPostgres, freshDatabaseName } from '../../helpers/postgres-server.js';
import { paramsFor, tempDir } from '../index-test-helpers.js';
import { VERIFY, secondStageMatches, similarCopy } from './similar-docs.js';

const CHILD = fileURLToPath(new URL('./pg-similar-writer-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const WRITERS = 8;
const CLUSTERS = 120;

let temp: ReturnType<typeof tempDir>;
beforeEach(() => {
  temp = tempDir();
});
afterEach(() => temp.remove());

interface ChildResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Starts the writers and releases them together once all have opened the index. */
async function race(url: string): Promise<ChildResult[]> {
  const goFile = join(temp.dir, 'go');
  let ready = 0;
  return Promise.all(Array.from({ length: WRITERS }, (_, worker) => new Promise<ChildResult>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, url, String(worker), String(CLUSTERS), goFile], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (!stdout.includes('ready\n') && (stdout + chunk).includes('ready\n') && ++ready === WRITERS) writeFileSync(goFile, 'go');
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  })));
}

describeWithPostgres('PostgreSQL index: the second stage with concurrent writer processes', (server) => {
  it(`${WRITERS} writers never store two documents the second stage matches`, async () => {
    // The fixture is what it claims: every two copies of a cluster are matched by the second stage only.
    for (const c of [0, 1, CLUSTERS - 1]) {
      for (let a = 0; a < WRITERS; a++) {
        for (let b = a + 1; b < WRITERS; b++) {
          const [x, y] = [similarCopy(a, c), similarCopy(b, c)];
          expect(hammingDistance(x.fingerprint, y.fingerprint)).toBeGreaterThan(3);
          for (const start of [0, 16, 32, 48]) expect(blockValue(x.fingerprint.hi, x.fingerprint.lo, start, 16)).not.toBe(blockValue(y.fingerprint.hi, y.fingerprint.lo, start, 16));
          expect(secondStageMatches(x, y) && secondStageMatches(y, x)).toBe(true);
        }
      }
    }
    const url = await server().createDatabase(freshDatabaseName());
    await (await PgFingerprintIndex.open(url, { params: paramsFor(3), verify: VERIFY })).close();
    const results = await race(url);
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const reported = results.flatMap((r) => JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Array<{ url: string; decision: Decision }>);
    const index = await PgFingerprintIndex.open(url, { params: paramsFor(3), readonly: true });
    try {
      const stored: StoredDocument[] = [];
      for await (const doc of index.stored()) stored.push(doc);
      const copyOf = (u: string) => similarCopy(Number(/w(\d+)\./.exec(u)![1]), Number(u.split('/').at(-1)));
      for (let i = 0; i < stored.length; i++) {
        for (let j = i + 1; j < stored.length; j++) {
          const [x, y] = [copyOf(stored[i]!.url), copyOf(stored[j]!.url)];
          expect(secondStageMatches(x, y) || secondStageMatches(y, x), `${x.url} and ${y.url} both stored`).toBe(false);
        }
      }
      expect(new Set(stored.map((d) => d.url.split('/').at(-1))).size).toBe(CLUSTERS);
      expect(stored).toHaveLength(CLUSTERS);
      const stats = await index.stats();
      expect(stats).toMatchObject({ stored: CLUSTERS, similar: (WRITERS - 1) * CLUSTERS, near: 0, exact: 0 });
      // Every writer was told what the database holds.
      for (const { url: docUrl, decision } of reported) {
        expect(await index.getByUrl(docUrl), docUrl).toMatchObject({ id: (decision as { id: number }).id });
      }
      const wins = results.map((r) => (JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Array<{ decision: Decision }>).filter((d) => d.decision.kind === 'stored').length);
      console.info(`PostgreSQL second-stage writers: stored per writer ${wins.join(', ')}`);
    } finally {
      await index.close();
    }
  }, 240_000);
});
