import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { IndexError, ParameterMismatchError, ValidationError } from '../../../src/errors.js';
import { FingerprintIndex } from '../../../src/fingerprint-index/fingerprint-index.js';
import { PgFingerprintIndex, type PgIndexOptions } from '../../../src/fingerprint-index/postgres/pg-fingerprint-index.js';
import type { Decision, Fingerprint, IndexCandidate } from '../../../src/types.js';
import { PG_PASSWORD, PG_USER, describeWithPostgres, freePort, freshDatabaseName } from '../../helpers/postgres-server.js';
import { candidate, flipBits, paramsFor, prng, randomFingerprint, randomPositions } from '../index-test-helpers.js';

const K3 = paramsFor(3);
const BASE: Fingerprint = { hi: 0x0123_4567, lo: 0x89ab_cdef };

let opened: Array<PgFingerprintIndex | FingerprintIndex> = [];
afterEach(async () => {
  for (const index of opened) await index.close();
  opened = [];
});

/** Documents of every kind the index decides on: new, exact, near at 0–5 bits, null, repeated URLs. */
function mixedDocuments(seed: number, count: number): IndexCandidate[] {
  const next = prng(seed);
  const docs: IndexCandidate[] = [];
  for (let i = 0; i < count; i++) {
    const roll = next() % 10;
    const earlier = docs.length === 0 ? null : docs[next() % docs.length]!;
    if (earlier === null || earlier.fingerprint === null || roll < 4) docs.push(candidate(`u:${i}`, randomFingerprint(next)));
    else if (roll === 4) docs.push(candidate(`u:${i}`, earlier.fingerprint, earlier.textHash));
    else if (roll === 5) docs.push(candidate(`u:${i}`, null));
    // A URL sent again with other text: its own text hash (equal text hashes always come with equal fingerprints).
    else if (roll === 6) docs.push(candidate(earlier.url, randomFingerprint(next), `text:${earlier.url}:again:${i}`));
    else docs.push(candidate(`u:${i}`, flipBits(earlier.fingerprint, randomPositions(next, next() % 6))));
  }
  return docs;
}

describeWithPostgres('PostgreSQL fingerprint index', (server) => {
  async function openPg(options: Partial<PgIndexOptions> = {}, database?: string): Promise<{ index: PgFingerprintIndex; url: string }> {
    const url = database ?? (await server().createDatabase(freshDatabaseName()));
    const index = await PgFingerprintIndex.open(url, { params: K3, ...options });
    opened.push(index);
    return { index, url };
  }

  it('makes the same decisions and records as the SQLite index on the same inputs (k = 3 and k = 5)', async () => {
    for (const params of [K3, paramsFor(5)]) {
      const { index } = await openPg({ params, batchSize: 7 });
      const sqlite = FingerprintIndex.open(':memory:', { params });
      opened.push(sqlite);
      const docs = mixedDocuments(params.distance * 31, 1500);
      const expected: Decision[] = [];
      const got: Decision[] = [];
      // Single calls and batches of several sizes, the same on both sides.
      for (let at = 0, size = 1; at < docs.length; at += size, size = (size % 40) + 1) {
        const batch = docs.slice(at, at + size);
        if (size === 1) {
          expected.push(sqlite.checkAndInsert(batch[0]!));
          got.push(await index.checkAndInsert(batch[0]!));
        } else {
          expected.push(...sqlite.checkAndInsertMany(batch));
          got.push(...(await index.checkAndInsertMany(batch)));
        }
      }
      // Ids differ in one way only: the SQLite index numbers rows densely; map them through the URLs.
      const pgIdOf = new Map<number, number>();
      for (const doc of sqlite.stored()) pgIdOf.set(doc.id, (await index.getByUrl(doc.url))!.id);
      for (const doc of sqlite.rejected()) pgIdOf.set(doc.id, (await index.getByUrl(doc.url))!.id);
      const mapped = expected.map((d) => {
        if (d.kind === 'skipped') return d;
        if (d.kind === 'stored') return { ...d, id: pgIdOf.get(d.id) };
        return { ...d, id: pgIdOf.get(d.id), matchId: pgIdOf.get(d.matchId) };
      });
      expect(got).toEqual(mapped);
      expect(new Set(got.map((d) => d.kind))).toEqual(new Set(['stored', 'exact', 'near', 'skipped']));
      expect(await index.stats()).toEqual(sqlite.stats());
      const strip = <T extends { id: number }>(d: T) => ({ ...d, id: 0, ...('matchId' in d ? { matchId: 0 } : {}) });
      const pgStored = [];
      for await (const d of index.stored()) pgStored.push(strip(d));
      expect(pgStored).toEqual([...sqlite.stored()].map(strip));
      const pgRejected = [];
      for await (const d of index.rejected()) pgRejected.push(strip(d));
      expect(pgRejected).toEqual([...sqlite.rejected()].map(strip));
      const pgSkipped = [];
      for await (const s of index.skipped()) pgSkipped.push({ url: s.url, reason: s.reason });
      expect(pgSkipped).toEqual([...sqlite.skipped()].map((s) => ({ url: s.url, reason: s.reason })));
      // Lookups agree too (exact before near, nearest, ties to the earliest).
      const next = prng(7);
      for (let q = 0; q < 200; q++) {
        const from = docs[next() % docs.length]!;
        if (from.fingerprint === null) continue;
        const flips = next() % 7;
        const fp = flipBits(from.fingerprint, randomPositions(next, flips));
        // Equal text hashes come with equal fingerprints (both are functions of the same tokens).
        const textHash = flips === 0 ? from.textHash : `query:${q}`;
        const want = sqlite.check(fp, textHash);
        const match = await index.check(fp, textHash);
        expect(match).toEqual(want === null ? null : { ...want, id: pgIdOf.get(want.id) });
      }
    }
  }, 120_000);

  it('picks the nearest stored document, and the earliest among equally near ones', async () => {
    const { index } = await openPg();
    const other = flipBits(BASE, [0, 1, 2, 3]);
    expect(await index.checkAndInsert(candidate('u:base', BASE))).toEqual({ kind: 'stored', id: 1 });
    expect(await index.checkAndInsert(candidate('u:other', other))).toEqual({ kind: 'stored', id: 2 });
    expect(await index.check(flipBits(BASE, [40, 41, 42]), 'x')).toEqual({ id: 1, url: 'u:base', kind: 'near', distance: 3 });
    expect(await index.check(flipBits(BASE, [0, 1, 2]), 'x')).toEqual({ id: 2, url: 'u:other', kind: 'near', distance: 1 });
    expect(await index.check(flipBits(BASE, [0, 1]), 'x')).toEqual({ id: 1, url: 'u:base', kind: 'near', distance: 2 });
    expect(await index.check(BASE, 'text:u:base')).toEqual({ id: 1, url: 'u:base', kind: 'exact', distance: 0 });
    expect(await index.check(null, 'x')).toBeNull();
  });

  it('stores every field and reads it back; records skips and links', async () => {
    const { index } = await openPg();
    const meta = {
      finalUrl: 'https://a.example/final', title: 'Title', language: 'cat', textLength: 1234, fetchedAt: 1_700_000_000_123,
      canonicalUrl: 'https://a.example/canonical', publishedAt: '2024-01-02T03:04:05Z', lastModified: '2024-02-03T00:00:00Z', depth: 2,
    };
    const fp = { hi: 0xffff_ffff, lo: 0x8000_0001 };
    await index.checkAndInsert({ url: 'https://a.example/', fingerprint: fp, textHash: 'h1', ...meta });
    await index.checkAndInsert({ url: 'https://b.example/', fingerprint: flipBits(fp, [2]), textHash: 'h2', depth: null });
    const stored = { id: 1, url: 'https://a.example/', fingerprint: fp, textHash: 'h1', ...meta };
    expect(await index.get(1)).toEqual(stored);
    expect(await index.get(2)).toBeUndefined();
    expect(await index.getByUrl('https://a.example/')).toEqual(stored);
    expect(await index.getByUrl('https://b.example/')).toEqual({
      id: 2, url: 'https://b.example/', kind: 'near', distance: 1, matchId: 1, fingerprint: flipBits(fp, [2]), textHash: 'h2', similarity: null, containment: null,
      finalUrl: null, canonicalUrl: null, publishedAt: null, lastModified: null, depth: null,
    });
    await index.recordSkip('https://a.example/', 'robots');
    await index.recordSkip('u:9', 'http-error', '404');
    await index.recordSkip('u:9', 'robots');
    expect(await index.checkAndInsert(candidate('u:9', BASE))).toEqual({ kind: 'skipped', reason: 'http-error', repeated: true });
    expect(await index.stats()).toEqual({ stored: 1, exact: 0, near: 1, similar: 0, skipped: 1 });
    await index.recordLinks('u:a', ['u:b', 'u:c', 'u:b', 'u:a'], ['u:c']);
    await index.recordLinks('u:b', ['u:c']);
    // A link seen in the main text once stays a citation when the pair is recorded again without it.
    await index.recordLinks('u:a', ['u:c']);
    const rows = (await index.linkRows()).map(([to, from, inMain]) => [to, from, Number(inMain)]);
    expect(rows.sort()).toEqual([['u:b', 'u:a', 0], ['u:c', 'u:a', 1], ['u:c', 'u:b', 0]]);
  });

  it.each([
    ['distance', { distance: 4 }],
    ['shingleSize', { shingleSize: 4 }],
    ['hash', { hash: 'murmur' }],
    ['weighting', { weighting: 'count' }],
    ['normalizerVersion', { normalizerVersion: 2 }],
  ])('refuses to open with another %s', async (name, change) => {
    const { url } = await openPg();
    const attempt = PgFingerprintIndex.open(url, { params: { ...K3, ...change } as typeof K3 });
    await expect(attempt).rejects.toThrow(ParameterMismatchError);
    await expect(PgFingerprintIndex.open(url, { params: { ...K3, ...change } as typeof K3 })).rejects.toThrow(new RegExp(`${name} `));
    expect(await PgFingerprintIndex.readParams(url)).toEqual(K3);
  });

  it('an index made before links.in_main: read-only its links read as template links, opened for writing it gets the column', async () => {
    const { index, url } = await openPg();
    await index.recordLinks('u:a', ['u:b']);
    await index.close();
    opened = opened.filter((o) => o !== index);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('ALTER TABLE neardup_links DROP COLUMN in_main');
    } finally {
      await client.end();
    }
    const reader = await PgFingerprintIndex.open(url, { params: K3, readonly: true });
    opened.push(reader);
    expect((await reader.linkRows()).map(([to, from, inMain]) => [to, from, Number(inMain ?? 0)])).toEqual([['u:b', 'u:a', 0]]);
    const { index: writer } = await openPg({}, url);
    await writer.recordLinks('u:c', ['u:b'], ['u:b']);
    const rows = (await writer.linkRows()).map(([to, from, inMain]) => [to, from, Number(inMain)]);
    expect(rows.sort()).toEqual([['u:b', 'u:a', 0], ['u:b', 'u:c', 1]]);
  });

  it('catches up with rows other writers commit out of id order (a lower id committed after a higher one)', async () => {
    const { index: reader, url } = await openPg();
    const { index: writer } = await openPg({}, url);
    const late = flipBits(BASE, [0, 1, 2, 3, 4, 5, 6, 7]);
    // A raw transaction takes an id first and commits last.
    const raw = new pg.Client({ connectionString: url });
    await raw.connect();
    try {
      await raw.query('BEGIN');
      await raw.query(
        `INSERT INTO neardup_documents (id, kind, url, fingerprint, b0, b1, b2, b3, text_hash)
         VALUES (nextval('neardup_documents_id_seq'), 'stored', 'u:late', $1, 0, 0, 0, 0, 'late')`,
        [BigInt.asIntN(64, (BigInt(late.hi) << 32n) | BigInt(late.lo)).toString()],
      );
      expect(await writer.checkAndInsert(candidate('u:early', BASE))).toMatchObject({ kind: 'stored' });
      expect(await reader.check(BASE, 'x')).toMatchObject({ url: 'u:early' }); // the reader has moved past id 2
      await raw.query('COMMIT');
    } finally {
      await raw.end();
    }
    expect(await reader.check(late, 'late')).toMatchObject({ url: 'u:late', kind: 'exact' });
    expect(await reader.checkAndInsert(candidate('u:copy', flipBits(late, [63])))).toMatchObject({ kind: 'near', matchUrl: 'u:late' });
  });

  it('reopening builds the table from the stored rows and decides as before', async () => {
    const { index, url } = await openPg();
    const next = prng(3);
    const docs = Array.from({ length: 3000 }, (_, i) => candidate(`u:${i}`, randomFingerprint(next)));
    await index.checkAndInsertMany(docs);
    await index.close();
    const { index: again } = await openPg({}, url);
    for (const doc of docs.slice(0, 300)) {
      const copy = candidate(`${doc.url}:copy`, flipBits(doc.fingerprint!, randomPositions(next, 2)));
      expect(await again.checkAndInsert(copy)).toMatchObject({ kind: 'near', matchUrl: doc.url, distance: 2 });
    }
  });

  it('opening fails with one line: bad URL, wrong password, unknown user, missing database, unreachable server', async () => {
    const port = server().port;
    const cases: Array<[string, RegExp, typeof IndexError | typeof ValidationError]> = [
      ['mysql://x@127.0.0.1/db', /Expected the index URL to be postgres:\/\//, ValidationError],
      ['postgres://127.0.0.1', /host and database are required/, ValidationError],
      [`postgres://${PG_USER}:wrong@127.0.0.1:${port}/postgres`, /refused the password of user `neardup`/, IndexError],
      [`postgres://nobody:${PG_PASSWORD}@127.0.0.1:${port}/postgres`, /refused the password of user `nobody`|nobody/, IndexError],
      [`postgres://${PG_USER}:${PG_PASSWORD}@127.0.0.1:${port}/missing_db`, /Database `missing_db` does not exist/, IndexError],
      [`postgres://${PG_USER}:${PG_PASSWORD}@127.0.0.1:${await freePort()}/postgres`, /Cannot reach PostgreSQL at 127\.0\.0\.1:\d+ \(connection refused\)/, IndexError],
    ];
    for (const [url, message, type] of cases) {
      const error = await PgFingerprintIndex.open(url, { params: K3 }).then(() => null, (e: unknown) => e);
      expect(error, url).toBeInstanceOf(type);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain('\n');
      expect((error as Error).message).not.toContain('wrong');
    }
  });
});
