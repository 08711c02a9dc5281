/**
 * Issue 28 item 9: no password is printed. A non-postgres `index.url` (SQLAlchemy's
 * `postgresql+psycopg2://`, a JDBC URL) from NEARDUP_INDEX_URL, a config file or --index used to be
 * echoed whole in the error line, and a password with an unencoded `@` was half-redacted
 * (`nd:***@ss@host`). Each case runs the real CLI; neither stream may hold any part of the password.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnNeardup } from '../helpers/run-cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const secretParts = ['TopSecret99', 'Top@ss', 'ss@'];

const urls = [
  'postgresql+psycopg2://nd:TopSecret99@db.example:5432/x',
  'jdbc:postgresql://db.example:5432/x?user=nd&password=TopSecret99',
  'jdbc:postgresql://nd:TopSecret99@db.example/x',
  'postgres://nd:Top@ss@127.0.0.1',
  'mysql://nd:TopSecret99@db.example/x',
];

function expectNoSecret(r: { code: number; stdout: string; stderr: string }): void {
  expect(r.code).not.toBe(0);
  expect(r.stderr).toMatch(/^neardup: /);
  for (const part of secretParts) {
    expect(r.stderr).not.toContain(part);
    expect(r.stdout).not.toContain(part);
  }
}

describe('index URLs with a password, printed nowhere', () => {
  const work = makeTempDir('neardup-printed-credentials-');

  it.each(urls)('NEARDUP_INDEX_URL=%s', async (url) => {
    expectNoSecret(await spawnNeardup(['clusters', '--data', join(work, 'data')], { env: { NEARDUP_INDEX_URL: url } }));
  });

  it.each(urls)('a config file with index.url %s', async (url) => {
    const file = join(work, 'config.json');
    writeFileSync(file, JSON.stringify({ index: { url } }));
    expectNoSecret(await spawnNeardup(['--config', file, 'dedup', file, '--data', join(work, 'data')]));
  });

  it.each(urls)('--index %s', async (url) => {
    const r = await spawnNeardup(['clusters', '--data', join(work, 'data'), '--index', url]);
    expectNoSecret(r);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
