import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { PgFingerprintIndex } from '../../src/fingerprint-index/postgres/pg-fingerprint-index.js';
import { spawnNeardup } from '../helpers/run-cli.js';
import { PG_PASSWORD, PG_USER, describeWithPostgres, freePort, freshDatabaseName } from '../helpers/postgres-server.js';
import { tempDir } from '../helpers/temp-dir.js';
import { baseFingerprint, buildDataDir, flipBits, testParams, type IndexedPage } from '../report/report-fixtures.js';

const pages: IndexedPage[] = [
  { url: 'http://mirror.example/p', fingerprint: baseFingerprint, textHash: 'x1', title: 'Copy', textLength: 900 },
  { url: 'http://origin.example/p', fingerprint: flipBits(baseFingerprint, [3]), textHash: 'x2', title: 'Original', textLength: 1000 },
  { url: 'http://third.example/p', fingerprint: baseFingerprint, textHash: 'x1', title: 'Copy' },
  { url: 'http://origin.example/', fingerprint: flipBits(baseFingerprint, [1, 9, 17, 25, 33, 41, 49, 57, 2, 10]), textHash: 'x3', links: ['http://origin.example/p'] },
  { url: 'http://blog.example/', fingerprint: flipBits(baseFingerprint, [0, 63, 31, 32, 16, 48, 8, 40, 24, 56, 4, 44]), textHash: 'x4', links: ['http://origin.example/p', 'http://mirror.example/p'] },
  { url: 'http://mirror.example/q', fingerprint: flipBits(baseFingerprint, [5, 6, 7, 20, 21, 22, 36, 37, 38, 52, 53, 54]), textHash: 'x5', publishedAt: '2024-01-01T00:00:00Z' },
  { url: 'http://origin.example/q', fingerprint: flipBits(baseFingerprint, [5, 6, 7, 20, 21, 22, 36, 37, 38, 52, 53]), textHash: 'x6', publishedAt: '2023-01-01T00:00:00Z' },
];
const skipped = [{ url: 'http://origin.example/empty', reason: 'too-short' as const }];

describeWithPostgres('neardup clusters --index postgres://', (server) => {
  it('builds the same report (JSON and CSV) from a PostgreSQL index as from a --data folder with the same decisions', async () => {
    const temp = tempDir('neardup-clusters-pg-');
    onTestFinished(() => temp.remove());
    const dir = join(temp.dir, 'data');
    const decisions = buildDataDir(dir, pages, skipped);
    const url = await server().createDatabase(freshDatabaseName());
    const index = await PgFingerprintIndex.open(url, { params: testParams });
    try {
      for (const { links, ...doc } of pages) {
        expect(await index.checkAndInsert(doc)).toEqual(decisions.shift());
        if (links !== undefined) await index.recordLinks(doc.url, links);
      }
      for (const s of skipped) await index.recordSkip(s.url, s.reason);
    } finally {
      await index.close();
    }
    for (const format of ['json', 'csv']) {
      const fromSqlite = await spawnNeardup(['clusters', '--data', dir, '--format', format]);
      const fromPg = await spawnNeardup(['clusters', '--index', url, '--format', format]);
      expect(fromSqlite.code, fromSqlite.stderr).toBe(0);
      expect(fromPg.code, fromPg.stderr).toBe(0);
      expect(fromPg.stdout).toBe(fromSqlite.stdout);
    }
    expect(JSON.parse((await spawnNeardup(['clusters', '--data', dir])).stdout).clusters).toHaveLength(2);
    // The environment selects it too.
    const fromEnv = await spawnNeardup(['clusters', '--data', join(dir, 'nowhere')], { env: { NEARDUP_INDEX_URL: url } });
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    expect(JSON.parse(fromEnv.stdout).clusters).toHaveLength(2);
  }, 120_000);

  it('bad URL, wrong password, missing database, unreachable server: one line on stderr, non-zero exit', async () => {
    const port = server().port;
    const cases: Array<[string, number, RegExp]> = [
      ['mysql://u@127.0.0.1/db', 2, /^neardup: Expected the index URL to be postgres:\/\/.*scheme `mysql:`\n$/],
      [`postgres://${PG_USER}:not-the-password@127.0.0.1:${port}/postgres`, 1, /^neardup: PostgreSQL at 127\.0\.0\.1:\d+ refused the password of user `neardup`\n$/],
      [`postgres://${PG_USER}:${PG_PASSWORD}@127.0.0.1:${port}/no_such_db`, 1, /^neardup: Database `no_such_db` does not exist on PostgreSQL at 127\.0\.0\.1:\d+; create it first \(createdb no_such_db\)\n$/],
      [`postgres://${PG_USER}:${PG_PASSWORD}@127.0.0.1:${await freePort()}/postgres`, 1, /^neardup: Cannot reach PostgreSQL at 127\.0\.0\.1:\d+ \(connection refused\): is the server running\?\n$/],
      [`postgres://${PG_USER}:${PG_PASSWORD}@127.0.0.1:${port}/postgres`, 1, /^neardup: postgres:\/\/neardup@127\.0\.0\.1:\d+\/postgres holds no neardup index\n$/],
    ];
    for (const [url, code, stderr] of cases) {
      const run = await spawnNeardup(['clusters', '--index', url]);
      expect(run.code, url).toBe(code);
      expect(run.stderr, url).toMatch(stderr);
      expect(run.stderr).not.toContain('not-the-password');
      expect(run.stdout).toBe('');
    }
  }, 120_000);
});
