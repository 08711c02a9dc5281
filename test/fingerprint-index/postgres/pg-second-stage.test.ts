/**
 * The second stage on the PostgreSQL index: the same decisions and records as the SQLite index with
 * verify on (and with it off: the k rule alone), read back after reopening, and an index of schema 1
 * brought up to date.
 */
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { FingerprintIndex } from '../../../src/fingerprint-index/fingerprint-index.js';
import { PgFingerprintIndex } from '../../../src/fingerprint-index/postgres/pg-fingerprint-index.js';
import type { Decision, IndexCandidate } from '../../../src/types.js';
import { describeWithPostgres, freshDatabaseName } from '../../helpers/postgres-server.js';
import { flipBits, paramsFor, prng, randomFingerprint, randomPositions } from '../index-test-helpers.js';
import { VERIFY, sketchOf } from './similar-docs.js';

const K3 = paramsFor(3);

let opened: Array<PgFingerprintIndex | FingerprintIndex> = [];
afterEach(async () => {
  for (const index of opened) await index.close();
  opened = [];
});

/**
 * Documents of every kind: new, exact, near, similar by Jaccard (a shifted feature range, 4–14 bits away),
 * contained (an excerpt), not confirmed (too little overlap), beyond K, without a sketch, repeated URLs.
 */
function mixedDocuments(seed: number, count: number): IndexCandidate[] {
  const next = prng(seed);
  const docs: IndexCandidate[] = [];
  const ranges = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const roll = next() % 12;
    const earlier = docs.length === 0 ? null : docs[next() % docs.length]!;
    const url = `u:${i}`;
    if (earlier === null || earlier.fingerprint === null || roll < 3) {
      const from = (next() % 1000) * 5000;
      ranges.set(url, from);
      docs.push({ url, fingerprint: randomFingerprint(next), textHash: `t:${seed}:${i}`, sketch: sketchOf(from, from + 1000 + (next() % 2000)) });
      continue;
    }
    const from = ranges.get(earlier.url) ?? 0;
    const far = (bits: number) => flipBits(earlier.fingerprint!, randomPositions(next, bits));
    if (roll === 3) docs.push({ ...earlier, url });
    else if (roll === 4) docs.push({ url, fingerprint: far(next() % 4), textHash: `t:${seed}:${i}`, sketch: sketchOf(from + 7, from + 1500) });
    else if (roll <= 6) docs.push({ url, fingerprint: far(4 + (next() % 11)), textHash: `t:${seed}:${i}`, sketch: sketchOf(from + (next() % 120), from + 1500) });
    else if (roll === 7) docs.push({ url, fingerprint: far(5), textHash: `t:${seed}:${i}`, sketch: sketchOf(from, from + 400) });
    else if (roll === 8) docs.push({ url, fingerprint: far(6), textHash: `t:${seed}:${i}`, sketch: sketchOf(from + 700, from + 2700) });
    else if (roll === 9) docs.push({ url, fingerprint: far(VERIFY.maxDistance + 2), textHash: `t:${seed}:${i}`, sketch: sketchOf(from, from + 1500) });
    else if (roll === 10) docs.push({ url, fingerprint: far(5), textHash: `t:${seed}:${i}` });
    else docs.push({ url: earlier.url, fingerprint: far(8), textHash: `again:${seed}:${i}`, sketch: sketchOf(from + 3, from + 1500) });
  }
  return docs;
}

/**
 * Unrelated documents that meet in the key table: every sketch starts with the same four values (as
 * boilerplate shared by a site's pages, whose features' smallest values collide), then 60 of its own,
 * and every fingerprint lies within 16 bits of one base (within K, mostly beyond k). Every ninth
 * document is followed later by a variant of an earlier one (5 of its own values replaced, 5 bits
 * away: similar by Jaccard); every eleventh is unrelated and beyond K.
 */
function boilerplateDocuments(seed: number, count: number): IndexCandidate[] {
  const next = prng(seed);
  const base = randomFingerprint(next);
  const shared = [1, 2, 3, 4];
  const own = (n: number) => Array.from({ length: n }, () => 1000 + (next() % 0xfffff000));
  const sketch = (values: number[]) => Uint32Array.from(new Set(values)).sort();
  const docs: IndexCandidate[] = [];
  for (let i = 0; i < count; i++) {
    const url = `b:${seed}:${i}`;
    const textHash = `bt:${seed}:${i}`;
    const earlier = docs.length === 0 ? undefined : docs[next() % docs.length]!;
    if (i % 9 === 8 && earlier?.sketch !== undefined && earlier.sketch !== null) {
      const values = [...earlier.sketch];
      for (let r = 0; r < 5; r++) values[8 + (next() % 56)] = own(1)[0]!;
      docs.push({ url, fingerprint: flipBits(earlier.fingerprint!, randomPositions(next, 5)), textHash, sketch: sketch(values) });
    } else if (i % 11 === 10) {
      docs.push({ url, fingerprint: randomFingerprint(next), textHash, sketch: sketch([...shared, ...own(60)]) });
    } else {
      docs.push({ url, fingerprint: flipBits(base, randomPositions(next, 8)), textHash, sketch: sketch([...shared, ...own(60)]) });
    }
  }
  return docs;
}

describeWithPostgres('PostgreSQL index: the second stage', (server) => {
  async function openPg(verify: typeof VERIFY | null, url?: string): Promise<{ index: PgFingerprintIndex; url: string }> {
    const database = url ?? (await server().createDatabase(freshDatabaseName()));
    const index = await PgFingerprintIndex.open(database, { params: K3, batchSize: 6, verify });
    opened.push(index);
    return { index, url: database };
  }

  /** Runs `docs` through both indexes, single calls and batches alike; returns PG's decisions and SQLite's with ids mapped. */
  async function both(index: PgFingerprintIndex, sqlite: FingerprintIndex, docs: IndexCandidate[]): Promise<{ got: Decision[]; expected: Decision[] }> {
    const expected: Decision[] = [];
    const got: Decision[] = [];
    for (let at = 0, size = 1; at < docs.length; at += size, size = (size % 17) + 1) {
      const batch = docs.slice(at, at + size);
      expected.push(...(size === 1 ? [sqlite.checkAndInsert(batch[0]!)] : sqlite.checkAndInsertMany(batch)));
      got.push(...(size === 1 ? [await index.checkAndInsert(batch[0]!)] : await index.checkAndInsertMany(batch)));
    }
    const pgIdOf = new Map<number, number>();
    for (const doc of [...sqlite.stored(), ...sqlite.rejected()]) pgIdOf.set(doc.id, (await index.getByUrl(doc.url))!.id);
    const mapped = expected.map((d) => (d.kind === 'skipped' ? d : d.kind === 'stored' ? { ...d, id: pgIdOf.get(d.id)! } : { ...d, id: pgIdOf.get(d.id)!, matchId: pgIdOf.get(d.matchId)! }));
    return { got, expected: mapped };
  }

  it('makes the same decisions and records as the SQLite index with the second stage on, and reads them back after reopening', async () => {
    const { index, url } = await openPg(VERIFY);
    const sqlite = FingerprintIndex.open(':memory:', { params: K3, verify: VERIFY });
    opened.push(sqlite);
    const docs = mixedDocuments(11, 700);
    const { got, expected } = await both(index, sqlite, docs);
    expect(got).toEqual(expected);
    expect(new Set(got.map((d) => d.kind))).toEqual(new Set(['stored', 'exact', 'near', 'similar']));
    expect(got.some((d) => d.kind === 'similar' && d.containment > d.similarity && d.similarity < VERIFY.jaccard)).toBe(true); // an excerpt
    expect(await index.stats()).toEqual(sqlite.stats());
    const strip = <T extends { id: number }>(d: T) => ({ ...d, id: 0, ...('matchId' in d ? { matchId: 0 } : {}) });
    const pgRejected = [];
    for await (const d of index.rejected()) pgRejected.push(strip(d));
    expect(pgRejected).toEqual([...sqlite.rejected()].map(strip));
    // A second process (reopened index: the key table loaded from the stored sketches) decides as SQLite does.
    const more = mixedDocuments(12, 200).map((d) => ({ ...d, url: `more:${d.url}` }));
    const { index: again } = await openPg(VERIFY, url);
    const next = await both(again, sqlite, more);
    expect(next.got).toEqual(next.expected);
    expect(next.got.filter((d) => d.kind === 'similar').length).toBeGreaterThan(0);
  }, 120_000);

  it('matches the cluster as SQLite does: a variant of a variant is a copy of the base, in one batch or across processes (issue 25)', async () => {
    const base = randomFingerprint(prng(5));
    const v = flipBits(base, [0, 5, 9, 14, 20, 27, 33, 40, 47, 52, 58, 63]);
    const w = flipBits(v, [1, 2, 3, 4]);
    const x = flipBits(w, [40, 41, 42, 43]);
    const chain = (prefix: string): IndexCandidate[] => [
      { url: `${prefix}:base`, fingerprint: base, textHash: `${prefix}0`, sketch: sketchOf(0, 2000) },
      { url: `${prefix}:v`, fingerprint: v, textHash: `${prefix}1`, sketch: sketchOf(250, 2250) },
      { url: `${prefix}:w`, fingerprint: w, textHash: `${prefix}2`, sketch: sketchOf(500, 2500) },
    ];
    for (const oneBatch of [true, false]) {
      const { index, url } = await openPg(VERIFY);
      const sqlite = FingerprintIndex.open(':memory:', { params: K3, verify: VERIFY });
      opened.push(sqlite);
      const docs = chain(oneBatch ? 'b' : 's');
      const got = oneBatch ? await index.checkAndInsertMany(docs) : [await index.checkAndInsert(docs[0]!), await index.checkAndInsert(docs[1]!), await index.checkAndInsert(docs[2]!)];
      expect(got).toEqual(sqlite.checkAndInsertMany(docs));
      const baseId = (got[0] as { id: number }).id;
      expect(got[2]).toMatchObject({ kind: 'similar', matchId: baseId, matchUrl: docs[0]!.url });
      // Another process: the members' keys loaded from the database.
      const { index: again } = await openPg(VERIFY, url);
      const next = { url: `${docs[0]!.url}:x`, fingerprint: x, textHash: 'x', sketch: sketchOf(750, 2750) };
      const decision = await again.checkAndInsert(next);
      expect(decision).toEqual(sqlite.checkAndInsert(next));
      expect(decision).toMatchObject({ kind: 'similar', matchId: baseId });
    }
  }, 60_000);

  it('one call with more documents than a transaction may lock is split, and decided as SQLite decides it', async () => {
    const url = await server().createDatabase(freshDatabaseName());
    const index = await PgFingerprintIndex.open(url, { params: K3, batchSize: 10_000, verify: VERIFY });
    opened.push(index);
    const sqlite = FingerprintIndex.open(':memory:', { params: K3, verify: VERIFY });
    opened.push(sqlite);
    const docs = mixedDocuments(13, 400); // ~13 lock keys a document: ~5,000 in all, 500 a transaction
    const got = await index.checkAndInsertMany(docs);
    const expected = sqlite.checkAndInsertMany(docs);
    expect(got.map((d) => d.kind)).toEqual(expected.map((d) => d.kind));
    expect(got.filter((d) => d.kind === 'similar').length).toBeGreaterThan(10);
    expect(await index.stats()).toEqual(sqlite.stats());
  }, 60_000);

  it('drops in memory, unread, the candidates its bound shows cannot be confirmed (loaded, caught up and of its own), deciding as SQLite does', async () => {
    const { index: a, url } = await openPg(VERIFY);
    const sqlite = FingerprintIndex.open(':memory:', { params: K3, verify: VERIFY });
    opened.push(sqlite);
    const docs = boilerplateDocuments(21, 240);
    // A writes the first third; B opens after (its table loaded from the stored sketches' heads), then
    // the two take turns by batch, each catching up with the other's rows.
    const first = await both(a, sqlite, docs.slice(0, 80));
    expect(first.got).toEqual(first.expected);
    const decided = [...first.got];
    const { index: b } = await openPg(VERIFY, url);
    const rest = docs.slice(80);
    for (let at = 0, turn = 0; at < rest.length; at += 16, turn++) {
      const next = await both(turn % 2 === 0 ? b : a, sqlite, rest.slice(at, at + 16));
      expect(next.got).toEqual(next.expected);
      decided.push(...next.got);
    }
    const similar = decided.filter((d) => d.kind === 'similar').length;
    expect(similar).toBeGreaterThan(15);
    const counts = [a.secondStageCounts!, b.secondStageCounts!];
    const read = counts[0]!.read + counts[1]!.read;
    const dropped = counts[0]!.dropped + counts[1]!.dropped;
    // Without the bound every dropped candidate (within K, sharing keys: ~100 a lookup here) would have
    // been read; with it, about one row per similar document is (its original, or a variant of it).
    expect(Math.min(counts[0]!.dropped, counts[1]!.dropped)).toBeGreaterThan(5000);
    expect(read).toBeLessThanOrEqual(2 * similar);
    expect(dropped).toBeGreaterThan(100 * read);
  }, 120_000);

  it('with verify off decides by the k rule alone, as SQLite does', async () => {
    const { index } = await openPg(null);
    const sqlite = FingerprintIndex.open(':memory:', { params: K3, verify: null });
    opened.push(sqlite);
    const { got, expected } = await both(index, sqlite, mixedDocuments(11, 400));
    expect(got).toEqual(expected);
    expect(got.some((d) => d.kind === 'similar')).toBe(false);
    expect(new Set(got.map((d) => d.kind))).toEqual(new Set(['stored', 'exact', 'near']));
  }, 120_000);

  it('a writer with the second stage sees sketches other processes stored after it opened', async () => {
    const { index: a, url } = await openPg(VERIFY);
    const { index: b } = await openPg(VERIFY, url);
    const base = { hi: 0x12345678, lo: 0x9abcdef0 };
    expect(await a.checkAndInsert({ url: 'u:1', fingerprint: base, textHash: 'h1', sketch: sketchOf(0, 2000) })).toMatchObject({ kind: 'stored' });
    const far = flipBits(base, [0, 5, 9, 14, 20, 27, 33, 40, 47, 52, 58, 63]);
    expect(await b.checkAndInsert({ url: 'u:2', fingerprint: far, textHash: 'h2', sketch: sketchOf(40, 2040) }))
      .toMatchObject({ kind: 'similar', matchUrl: 'u:1', distance: 12 });
    expect(await b.getByUrl('u:2')).toMatchObject({ kind: 'similar', distance: 12 });
    expect(await b.checkAndInsert({ url: 'u:2', fingerprint: far, textHash: 'h2', sketch: sketchOf(40, 2040) })).toMatchObject({ kind: 'similar', repeated: true });
    expect(await b.recordSkip('u:2', 'too-short')).toMatchObject({ kind: 'similar', matchUrl: 'u:1', repeated: true });
  }, 60_000);

  it('an index made before the second stage (schema 1) is read as before and brought up to date by a writer', async () => {
    const url = await server().createDatabase(freshDatabaseName());
    const { index: made } = await openPg(null, url);
    await made.checkAndInsert({ url: 'u:1', fingerprint: { hi: 1, lo: 2 }, textHash: 'h1' });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('ALTER TABLE neardup_documents DROP CONSTRAINT neardup_documents_kind_check');
      await client.query("ALTER TABLE neardup_documents DROP COLUMN similarity, DROP COLUMN containment, ADD CONSTRAINT neardup_documents_kind_check CHECK (kind IN ('stored', 'exact', 'near'))");
      await client.query("DROP TABLE neardup_sketches; UPDATE neardup_meta SET value = '1' WHERE key = 'schema_version'");
    } finally {
      await client.end();
    }
    const reader = await PgFingerprintIndex.open(url, { params: K3, readonly: true });
    opened.push(reader);
    expect(await reader.getByUrl('u:1')).toMatchObject({ url: 'u:1', textHash: 'h1' });
    const { index } = await openPg(VERIFY, url);
    await index.checkAndInsert({ url: 'u:2', fingerprint: { hi: 0x0f0f0f0f, lo: 0xf0f0f0f0 }, textHash: 'h2', sketch: sketchOf(0, 2000) });
    const far = flipBits({ hi: 0x0f0f0f0f, lo: 0xf0f0f0f0 }, [1, 7, 13, 19, 25, 31, 37, 43]);
    expect(await index.checkAndInsert({ url: 'u:3', fingerprint: far, textHash: 'h3', sketch: sketchOf(30, 2030) })).toMatchObject({ kind: 'similar', matchUrl: 'u:2' });
  }, 60_000);
});
