/**
 * Two crawler processes sharing one PostgreSQL index (each with its own --data) on a site served under
 * two host names (every page mirrored): a page is stored once whichever crawler meets it first, the
 * mirrors are rejected for both, and the two corpora together hold each stored document once.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hammingDistance } from '../../src/fingerprint/fingerprint-codec.js';
import { PgFingerprintIndex } from '../../src/fingerprint-index/postgres/pg-fingerprint-index.js';
import type { StoredDocument } from '../../src/types.js';
import { devTextsById } from '../helpers/dev-texts.js';
import { htmlPage, startFixtureSite, type FixtureRoute, type FixtureRoutes, type FixtureSite } from '../helpers/fixture-site.js';
import { describeWithPostgres, freshDatabaseName } from '../helpers/postgres-server.js';
import { spawnNeardup } from '../helpers/run-cli.js';
import { tempDir } from '../fingerprint-index/index-test-helpers.js';

const ARTICLES = 12;
let site: FixtureSite;
beforeAll(async () => {
  const texts = devTextsById().filter((t) => t.split(/\s+/).length > 150).slice(0, ARTICLES);
  // Each article links to its copy on the other host name, so both copies are fetched.
  const routesOf = (other: string): FixtureRoutes => {
    const routes: Record<string, FixtureRoute> = {
      '/': { body: htmlPage({ title: 'Index', paragraphs: ['All the articles of this site, one link each.'], links: texts.map((_, i) => `/a${i}`) }) },
    };
    texts.forEach((text, i) => {
      routes[`/a${i}`] = () => ({ body: htmlPage({ title: `Article ${i}`, paragraphs: text.split(/\n+/), links: ['/', site.url(other, `/a${i}`)] }) });
    });
    return routes;
  };
  site = await startFixtureSite({ '127.0.0.1': routesOf('localhost'), localhost: routesOf('127.0.0.1') });
});
afterAll(async () => {
  await site?.close();
});

describeWithPostgres('neardup crawl --index postgres:// in two processes', (server) => {
  it('stores each page once between them, rejects the mirrors, and the corpora hold each stored document once', async () => {
    const temp = tempDir('neardup-crawl-pg-');
    try {
      const url = await server().createDatabase(freshDatabaseName());
      const seeds = [site.url('127.0.0.1', '/'), site.url('localhost', '/')];
      const dataDirs = [join(temp.dir, 'a'), join(temp.dir, 'b')];
      const runs = await Promise.all(
        dataDirs.map((dir, i) =>
          spawnNeardup(['crawl', ...(i === 0 ? seeds : [...seeds].reverse()), '--data', dir, '--index', url, '--no-robots', '--host-rpm', '1000000', '--json']),
        ),
      );
      for (const run of runs) expect(run.code, run.stderr).toBe(0);
      const index = await PgFingerprintIndex.open(url, { params: await PgFingerprintIndex.readParams(url), readonly: true });
      const stored: StoredDocument[] = [];
      try {
        for await (const doc of index.stored()) stored.push(doc);
        const stats = await index.stats();
        // Each page under two host names: one stored, the other rejected as a duplicate.
        expect(stored).toHaveLength(ARTICLES + 1);
        expect(stats.exact + stats.near).toBe(ARTICLES + 1);
      } finally {
        await index.close();
      }
      for (let i = 0; i < stored.length; i++) {
        for (let j = i + 1; j < stored.length; j++) expect(hammingDistance(stored[i]!.fingerprint, stored[j]!.fingerprint)).toBeGreaterThan(3);
      }
      const lines = dataDirs.flatMap((dir) =>
        readFileSync(join(dir, 'corpus.jsonl'), 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { id: number }),
      );
      expect(lines.map((l) => l.id).sort((a, b) => a - b)).toEqual(stored.map((d) => d.id).sort((a, b) => a - b));
    } finally {
      temp.remove();
    }
  }, 300_000);
});
