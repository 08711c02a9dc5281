import { citationCounts } from '../../src/report/citation-counts.js';
import Database from 'better-sqlite3';
import { openSync, readFileSync, writeFileSync, writeSync, closeSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IndexError, ParameterMismatchError, ValidationError } from '../../src/errors.js';
import { hammingDistance } from '../../src/fingerprint/fingerprint-codec.js';
import { blockLayout } from '../../src/fingerprint-index/block-layout.js';
import { FingerprintIndex, type IndexOptions } from '../../src/fingerprint-index/fingerprint-index.js';
import type { Decision, Fingerprint, IndexCandidate } from '../../src/types.js';
import {
  bruteNearest, candidate, flipBits, paramsFor, prng, randomFingerprint, randomPositions, tempDir,
} from './index-test-helpers.js';

const K3 = paramsFor(3);
const BASE: Fingerprint = { hi: 0x0123_4567, lo: 0x89ab_cdef };

let temp: ReturnType<typeof tempDir>;
let opened: FingerprintIndex[] = [];
beforeEach(() => {
  temp = tempDir();
  opened = [];
});
afterEach(() => {
  for (const index of opened) index.close();
  temp.remove();
});

function open(name = 'index.db', params = K3, options: Omit<IndexOptions, 'params'> = {}): FingerprintIndex {
  const index = FingerprintIndex.open(name === ':memory:' ? name : join(temp.dir, name), { params, ...options });
  opened.push(index);
  return index;
}

describe('check-and-insert decisions (k = 3)', () => {
  it('stores a new document and rejects an exact duplicate (same text hash)', () => {
    const index = open();
    expect(index.checkAndInsert(candidate('https://a.example/1', BASE, 'same'))).toEqual({ kind: 'stored', id: 1 });
    expect(index.checkAndInsert(candidate('https://b.example/1', BASE, 'same'))).toEqual({
      kind: 'exact', id: 2, matchId: 1, matchUrl: 'https://a.example/1', distance: 0,
    });
    expect(index.stats()).toEqual({ stored: 1, exact: 1, near: 0, similar: 0, skipped: 0 });
  });

  // Flip positions are bit numbers from the top (0 = bit 63). The four 16-bit blocks start at 0, 16, 32, 48.
  const cases: Array<[string, number[], 'near' | 'stored']> = [
    ['distance 0, other text', [], 'near'],
    ...[0, 16, 32, 48].flatMap((start, block): Array<[string, number[], 'near' | 'stored']> => [
      [`distance 1 in block ${block}`, [start + 5], 'near'],
      [`distance 2 in block ${block}`, [start, start + 15], 'near'],
      [`distance 3 in block ${block}`, [start, start + 7, start + 15], 'near'],
      [`distance 4 in block ${block}`, [start, start + 1, start + 2, start + 3], 'stored'],
    ]),
    ['distance 2 across blocks 0 and 3', [15, 48], 'near'],
    ['distance 3 across blocks 0, 1, 2', [15, 16, 47], 'near'],
    ['distance 3 across blocks 1, 2, 3', [16, 32, 63], 'near'],
    ['distance 3 on block edges', [31, 32, 63], 'near'],
    ['distance 4, one flip in every block', [0, 16, 32, 48], 'stored'],
    ['distance 4, last bit of every block', [15, 31, 47, 63], 'stored'],
    ['distance 5', [1, 2, 17, 33, 49], 'stored'],
  ];

  it.each(cases)('%s → %s', (_name, flips, expected) => {
    const index = open(':memory:');
    index.checkAndInsert(candidate('https://a.example/', BASE));
    const fp = flipBits(BASE, flips);
    expect(hammingDistance(fp, BASE)).toBe(flips.length);
    const decision = index.checkAndInsert(candidate('https://b.example/', fp));
    if (expected === 'stored') {
      expect(decision).toEqual({ kind: 'stored', id: 2 });
      expect(index.check(fp, 'text:https://b.example/')).toEqual({ id: 2, url: 'https://b.example/', kind: 'exact', distance: 0 });
    } else {
      expect(decision).toEqual({ kind: 'near', id: 2, matchId: 1, matchUrl: 'https://a.example/', distance: flips.length });
    }
  });

  it('picks the nearest stored document, and the earliest among equally near ones', () => {
    const index = open(':memory:');
    const other = flipBits(BASE, [0, 1, 2, 3]);
    expect(index.checkAndInsert(candidate('u:base', BASE)).kind).toBe('stored'); // id 1
    expect(index.checkAndInsert(candidate('u:other', other)).kind).toBe('stored'); // id 2, 4 from BASE
    expect(index.check(flipBits(BASE, [40, 41, 42]), 'x')).toEqual({ id: 1, url: 'u:base', kind: 'near', distance: 3 });
    expect(index.check(flipBits(BASE, [0, 1, 2]), 'x')).toEqual({ id: 2, url: 'u:other', kind: 'near', distance: 1 });
    // Two from each: the earlier stored document wins.
    expect(index.check(flipBits(BASE, [0, 1]), 'x')).toEqual({ id: 1, url: 'u:base', kind: 'near', distance: 2 });
    expect(index.checkAndInsert(candidate('u:mid', flipBits(BASE, [2, 3])))).toMatchObject({ kind: 'near', matchId: 1, distance: 2 });
  });

  it('reports exact (on the text hash alone) before near, and near at distance 0 when only the fingerprint is equal', () => {
    const index = open(':memory:');
    index.checkAndInsert(candidate('u:1', BASE, 'hash-1'));
    expect(index.check(BASE, 'hash-1')).toEqual({ id: 1, url: 'u:1', kind: 'exact', distance: 0 });
    expect(index.check(BASE, 'hash-2')).toEqual({ id: 1, url: 'u:1', kind: 'near', distance: 0 });
    // The text hash is looked up on its own: an equal text is exact whatever the fingerprint.
    expect(index.check(flipBits(BASE, [9, 10, 11, 12]), 'hash-1')).toEqual({ id: 1, url: 'u:1', kind: 'exact', distance: 4 });
    expect(index.check(flipBits(BASE, [9, 10, 11, 12]), 'hash-2')).toBeNull();
    expect(index.check(null, 'hash-1')).toBeNull();
  });

  it('finds every match among many stored fingerprints, as a brute-force scan does', () => {
    const index = open(':memory:');
    const next = prng(42);
    const stored: Fingerprint[] = [];
    const docs: IndexCandidate[] = [];
    for (let i = 0; i < 3000; i++) docs.push(candidate(`u:${i}`, randomFingerprint(next)));
    const decisions = index.checkAndInsertMany(docs);
    docs.forEach((d, i) => {
      if (decisions[i]!.kind === 'stored') stored.push(d.fingerprint!);
    });
    let matched = 0;
    for (let q = 0; q < 600; q++) {
      const fp = flipBits(stored[next() % stored.length]!, randomPositions(next, next() % 6));
      const nearest = bruteNearest(fp, stored);
      const match = index.check(fp, `q:${q}`);
      if (nearest <= 3) {
        matched++;
        expect(match?.distance).toBe(nearest);
      } else expect(match).toBeNull();
    }
    expect(matched).toBeGreaterThan(300);
  });
});

describe('k = 5 (six blocks)', () => {
  it('has six block columns and rejects distances 0–5, stores 6', () => {
    const index = open('k5.db', paramsFor(5));
    expect(index.layout.count).toBe(6);
    expect(index.layout.widths).toEqual(blockLayout(5).widths);
    const db = new Database(join(temp.dir, 'k5.db'), { readonly: true });
    const columns = (db.prepare('PRAGMA table_info(documents)').all() as { name: string }[]).map((c) => c.name);
    db.close();
    expect(columns.filter((c) => /^b\d+$/.test(c))).toEqual(['b0', 'b1', 'b2', 'b3', 'b4', 'b5']);

    const next = prng(5);
    for (let d = 0; d <= 7; d++) {
      const base = randomFingerprint(next);
      const url = `u:${d}`;
      expect(index.checkAndInsert(candidate(`${url}:base`, base)).kind).toBe('stored');
      const decision = index.checkAndInsert(candidate(`${url}:copy`, flipBits(base, randomPositions(next, d))));
      expect(decision.kind, `distance ${d}`).toBe(d <= 5 ? 'near' : 'stored');
      if (decision.kind === 'near') expect(decision.distance).toBe(d);
    }
  });

  it('still finds every match among many fingerprints', () => {
    const index = open(':memory:', paramsFor(5));
    const next = prng(55);
    const docs = Array.from({ length: 2000 }, (_, i) => candidate(`u:${i}`, randomFingerprint(next)));
    const decisions = index.checkAndInsertMany(docs);
    const stored = docs.filter((_, i) => decisions[i]!.kind === 'stored').map((d) => d.fingerprint!);
    let matched = 0;
    for (let q = 0; q < 500; q++) {
      const fp = flipBits(stored[next() % stored.length]!, randomPositions(next, next() % 8));
      const nearest = bruteNearest(fp, stored);
      const match = index.check(fp, 'q');
      if (nearest <= 5) {
        matched++;
        expect(match?.distance).toBe(nearest);
      } else expect(match).toBeNull();
    }
    expect(matched).toBeGreaterThan(300);
  });
});

describe('bulk and idempotence', () => {
  it('checkAndInsertMany decides in order: later documents see earlier ones, a repeated URL gets its first decision', () => {
    const index = open();
    const decisions = index.checkAndInsertMany([
      candidate('u:1', BASE),
      candidate('u:2', flipBits(BASE, [3])),
      candidate('u:1', flipBits(BASE, [60, 61, 62, 63, 1])),
      candidate('u:3', null),
      candidate('u:3', BASE),
    ]);
    expect(decisions).toEqual([
      { kind: 'stored', id: 1 },
      { kind: 'near', id: 2, matchId: 1, matchUrl: 'u:1', distance: 1 },
      { kind: 'stored', id: 1, repeated: true },
      { kind: 'skipped', reason: 'no-text' },
      { kind: 'skipped', reason: 'no-text', repeated: true },
    ]);
    expect(index.stats()).toEqual({ stored: 1, exact: 0, near: 1, similar: 0, skipped: 1 });
  });

  it('a URL already recorded returns its earlier decision and writes nothing', () => {
    const index = open();
    index.checkAndInsert(candidate('u:1', BASE));
    const first = index.checkAndInsert(candidate('u:2', BASE, 'text:u:1'));
    const before = index.stats();
    // The earlier decision, marked `repeated` (nothing new was written).
    expect(index.checkAndInsert(candidate('u:2', flipBits(BASE, [0, 1, 2, 3, 4, 5])))).toEqual({ ...first, repeated: true });
    expect(index.checkAndInsert(candidate('u:1', null))).toEqual({ kind: 'stored', id: 1, repeated: true });
    expect(index.recordSkip('u:1', 'robots')).toEqual({ kind: 'stored', id: 1, repeated: true });
    expect(index.recordSkip('u:2', 'robots')).toEqual({ ...first, repeated: true });
    expect(index.recordSkip('u:9', 'http-error', '404')).toEqual({ kind: 'skipped', reason: 'http-error' });
    expect(index.recordSkip('u:9', 'robots')).toEqual({ kind: 'skipped', reason: 'http-error', repeated: true });
    expect(index.checkAndInsert(candidate('u:9', BASE))).toEqual({ kind: 'skipped', reason: 'http-error', repeated: true });
    expect(index.stats()).toEqual({ ...before, skipped: 1 });
    expect([...index.skipped()].map(({ url, reason, detail }) => ({ url, reason, detail }))).toEqual([
      { url: 'u:9', reason: 'http-error', detail: '404' },
    ]);
  });

  it('stores every field and reads it back (get, getByUrl, stored(), rejected())', () => {
    const index = open();
    const meta = {
      finalUrl: 'https://a.example/final', title: 'Title', language: 'cat', textLength: 1234, fetchedAt: 1_700_000_000_123,
      canonicalUrl: 'https://a.example/canonical', publishedAt: '2024-01-02T03:04:05Z', lastModified: '2024-02-03T00:00:00Z', depth: 2,
    };
    const fp = { hi: 0xffff_ffff, lo: 0x8000_0001 };
    index.checkAndInsert({ url: 'https://a.example/', fingerprint: fp, textHash: 'h1', ...meta });
    index.checkAndInsert({ url: 'https://b.example/', fingerprint: flipBits(fp, [2]), textHash: 'h2', depth: null });
    const stored = { id: 1, url: 'https://a.example/', fingerprint: fp, textHash: 'h1', ...meta };
    expect(index.get(1)).toEqual(stored);
    expect(index.get(2)).toBeUndefined();
    expect(index.get(99)).toBeUndefined();
    expect(index.getByUrl('https://a.example/')).toEqual(stored);
    const rejected = {
      id: 2, url: 'https://b.example/', kind: 'near', distance: 1, matchId: 1, fingerprint: flipBits(fp, [2]), textHash: 'h2',
      finalUrl: null, canonicalUrl: null, publishedAt: null, lastModified: null, depth: null, similarity: null, containment: null,
    };
    expect(index.getByUrl('https://b.example/')).toEqual(rejected);
    expect(index.getByUrl('https://nowhere.example/')).toBeUndefined();
    expect([...index.stored()]).toEqual([stored]);
    expect([...index.rejected()]).toEqual([rejected]);
  });

  it('iterates more than one page and allows queries while iterating', () => {
    const index = open();
    const next = prng(8);
    index.checkAndInsertMany(Array.from({ length: 2500 }, (_, i) => candidate(`u:${i}`, randomFingerprint(next))));
    let count = 0;
    for (const doc of index.stored()) {
      expect(index.getByUrl(doc.url)?.id).toBe(doc.id);
      count++;
    }
    expect(count).toBe(index.stats().stored);
    expect(count).toBeGreaterThan(2490);
  });

  it('still finds every earlier URL after its URL filter outgrows its first size (65,536 keys)', () => {
    const index = open('grow.db');
    const next = prng(99);
    const first = new Map<string, Decision>();
    for (let start = 0; start < 70_000; start += 10_000) {
      const docs = Array.from({ length: 10_000 }, (_, i) => candidate(`https://grow.example/${start + i}`, randomFingerprint(next)));
      index.checkAndInsertMany(docs).forEach((d, i) => {
        if ((start + i) % 997 === 0) first.set(docs[i]!.url, d);
      });
    }
    const before = index.stats();
    // The next write regrows the filter from SQLite; every URL must still be recognised.
    for (const [url, decision] of first) expect(index.checkAndInsert(candidate(url, BASE))).toEqual({ ...decision, repeated: true });
    expect(index.stats()).toEqual(before);
  });

  it('counts citations: distinct other pages linking from another host or from their main text, not template links', () => {
    const index = open();
    // a.test/1: /2 in its menu (template), /3 in its text; itself ignored.
    index.recordLinks('http://a.test/1', ['http://a.test/2', 'http://a.test/3', 'http://a.test/2', 'http://a.test/1'], ['http://a.test/3']);
    index.recordLinks('http://b.test/', ['http://a.test/2', 'http://a.test/3']);
    index.recordLinks('http://a.test/4', ['http://a.test/3']);
    expect(citationCounts(index.linkRows())).toEqual(new Map([['http://a.test/2', 1], ['http://a.test/3', 2]]));
    // Seen in the main text later (a re-crawl): it stays a citation, whatever comes after.
    index.recordLinks('http://a.test/1', ['http://a.test/2'], ['http://a.test/2']);
    index.recordLinks('http://a.test/1', ['http://a.test/2']);
    expect(citationCounts(index.linkRows()).get('http://a.test/2')).toBe(2);
  });
});

describe('the database file', () => {
  it('reopening keeps documents, decisions, skips, links and counts', () => {
    const first = open('keep.db');
    first.checkAndInsert(candidate('u:1', BASE, 'h'));
    first.checkAndInsert(candidate('u:2', flipBits(BASE, [40]), 'h2'));
    first.recordSkip('u:3', 'too-short');
    first.recordLinks('u:1', ['u:2'], ['u:2']);
    const stats = first.stats();
    first.close();
    expect(() => first.stats()).toThrow(IndexError);

    const again = open('keep.db');
    expect(again.stats()).toEqual(stats);
    expect(again.get(1)?.url).toBe('u:1');
    expect(citationCounts(again.linkRows())).toEqual(new Map([['u:2', 1]]));
    expect(again.checkAndInsert(candidate('u:4', flipBits(BASE, [1, 2]), 'h4'))).toMatchObject({ kind: 'near', matchId: 1 });
    expect(again.checkAndInsert(candidate('u:5', BASE, 'h'))).toMatchObject({ kind: 'exact', matchId: 1 });
    expect(again.checkAndInsert(candidate('u:2', BASE))).toMatchObject({ kind: 'near', id: 2 });
    expect(FingerprintIndex.readParams(join(temp.dir, 'keep.db'))).toEqual(K3);
  });

  it.each([
    ['distance', { distance: 4 }],
    ['shingleSize', { shingleSize: 4 }],
    ['hash', { hash: 'murmur' }],
    ['weighting', { weighting: 'count' }],
    ['normalizerVersion', { normalizerVersion: 2 }],
  ])('refuses to open with another %s', (name, change) => {
    open('params.db').close();
    opened = [];
    const attempt = () => FingerprintIndex.open(join(temp.dir, 'params.db'), { params: { ...K3, ...change } as typeof K3 });
    expect(attempt).toThrow(ParameterMismatchError);
    expect(attempt).toThrow(new RegExp(`${name} `));
  });

  it('an index built by another normaliser says how to rebuild it', () => {
    open('old-normaliser.db').close();
    opened = [];
    const attempt = () => FingerprintIndex.open(join(temp.dir, 'old-normaliser.db'), { params: { ...K3, normalizerVersion: K3.normalizerVersion + 1 } });
    expect(attempt).toThrow(/older normaliser \(v1; this neardup uses v2\).*rebuild it by running the crawl again, or `neardup dedup` over its corpus\.jsonl/);
  });

  it('a second connection sees what the first added since it last looked', () => {
    const a = open('shared.db');
    const b = open('shared.db');
    expect(b.check(BASE, 'x')).toBeNull(); // b builds its table now
    a.checkAndInsert(candidate('u:a', BASE));
    expect(b.check(flipBits(BASE, [7]), 'x')).toEqual({ id: 1, url: 'u:a', kind: 'near', distance: 1 });
    expect(b.checkAndInsert(candidate('u:b', flipBits(BASE, [7, 8])))).toMatchObject({ kind: 'near', matchId: 1 });
    a.checkAndInsert(candidate('u:c', flipBits(BASE, [20, 21, 22, 23, 24, 25])));
    expect(b.checkAndInsert(candidate('u:d', flipBits(BASE, [20, 21, 22, 23, 24])))).toMatchObject({ kind: 'near', matchId: 3, distance: 1 });
    expect(a.stats()).toEqual({ stored: 2, exact: 0, near: 2, similar: 0, skipped: 0 });
  });

  it('finds every URL before and after the newest ones are merged into url_index, across connections', () => {
    const a = open('merge.db', K3, { urlMergeThreshold: 5 });
    const b = open('merge.db', K3, { urlMergeThreshold: 1000 });
    const next = prng(77);
    const decisions = new Map<string, Decision>();
    const judge = (index: FingerprintIndex, url: string) => decisions.set(url, index.checkAndInsert(candidate(url, randomFingerprint(next))));
    for (let i = 0; i < 12; i++) judge(a, `u:a${i}`); // a merges at 5 and 10
    for (let i = 0; i < 11; i++) judge(b, `u:b${i}`); // b never merges on its own
    const again = (url: string) => ({ ...decisions.get(url), repeated: true });
    expect(a.checkAndInsert(candidate('u:b3', BASE))).toEqual(again('u:b3')); // in a's tail through catch-up
    judge(a, 'u:a12'); // the call above merged b's documents too (a's tail reached 5)
    expect(b.checkAndInsert(candidate('u:b7', BASE))).toEqual(again('u:b7')); // b resyncs: now in url_index
    expect(b.checkAndInsert(candidate('u:a2', null))).toEqual(again('u:a2'));
    const db = new Database(join(temp.dir, 'merge.db'), { readonly: true });
    const indexed = db.prepare('SELECT count(*) FROM url_index').pluck().get() as number;
    const indexedTo = db.prepare("SELECT value FROM counters WHERE name = 'url_indexed_to'").pluck().get() as number;
    db.close();
    expect(indexedTo).toBeGreaterThanOrEqual(23);
    expect(indexed).toBe(indexedTo);
    const fresh = open('merge.db');
    for (const [url, decision] of decisions) {
      expect(fresh.getByUrl(url)?.id, url).toBe((decision as { id: number }).id);
      expect(fresh.checkAndInsert(candidate(url, BASE))).toEqual({ ...decision, repeated: true });
    }
    expect(fresh.stats().stored + fresh.stats().near + fresh.stats().exact).toBe(decisions.size);
  });

  it('exclusive() holds the write lock: another connection cannot write meanwhile', () => {
    const a = open('lock.db');
    const b = FingerprintIndex.open(join(temp.dir, 'lock.db'), { params: K3, busyTimeoutMs: 0 });
    opened.push(b);
    b.check(BASE, 'x');
    const result = a.exclusive(() => {
      expect(() => b.checkAndInsert(candidate('u:b', BASE))).toThrow(/is locked by another process/);
      return 42;
    });
    expect(result).toBe(42);
    expect(b.checkAndInsert(candidate('u:b', BASE))).toEqual({ kind: 'stored', id: 1 });
    expect(() => a.exclusive(() => {
      throw new ValidationError('body failed');
    })).toThrow('body failed');
    expect(a.checkAndInsert(candidate('u:a', BASE))).toMatchObject({ kind: 'near', matchId: 1, distance: 0 });
  });

  it('read-only: lookups work, writes are refused', () => {
    const writer = open('ro.db');
    writer.checkAndInsert(candidate('u:1', BASE));
    const reader = open('ro.db', K3, { readonly: true });
    expect(reader.check(BASE, 'text:u:1')).toMatchObject({ kind: 'exact', id: 1 });
    expect(() => reader.checkAndInsert(candidate('u:2', BASE))).toThrow(/open read-only/);
    expect(() => reader.recordSkip('u:2', 'robots')).toThrow(IndexError);
  });

  it('a plain text file is refused with a one-line IndexError', () => {
    const path = join(temp.dir, 'notes.txt');
    writeFileSync(path, 'this is not a database, just some text that is long enough to fill a header '.repeat(20));
    for (const attempt of [() => FingerprintIndex.open(path, { params: K3 }), () => FingerprintIndex.readParams(path)]) {
      expect(attempt).toThrow(IndexError);
      expect(attempt).toThrow(/not a neardup index \(not a SQLite database/);
      try {
        attempt();
      } catch (error) {
        expect((error as Error).message).not.toContain('\n');
      }
    }
  });

  it('another SQLite database is refused', () => {
    const path = join(temp.dir, 'other.db');
    const db = new Database(path);
    db.exec('CREATE TABLE t (x)');
    db.close();
    expect(() => FingerprintIndex.open(path, { params: K3 })).toThrow(/is a SQLite database but not a neardup index/);
  });

  it('a corrupt index gives a clear error', () => {
    const path = join(temp.dir, 'corrupt.db');
    const index = FingerprintIndex.open(path, { params: K3 });
    const next = prng(3);
    index.checkAndInsertMany(Array.from({ length: 3000 }, (_, i) => candidate(`https://site.example/${i}`, randomFingerprint(next))));
    index.close();
    // Overwrite every page but the first (header and schema root) with garbage.
    const size = statSync(path).size;
    expect(size).toBeGreaterThan(8 * 4096);
    const fd = openSync(path, 'r+');
    const garbage = Buffer.alloc(size - 4096, 0xa5);
    writeSync(fd, garbage, 0, garbage.length, 4096);
    closeSync(fd);
    let error: unknown;
    try {
      const reopened = FingerprintIndex.open(path, { params: K3 });
      opened.push(reopened);
      reopened.check(BASE, 'x');
      [...reopened.stored()];
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(IndexError);
    expect((error as Error).message).toMatch(/corrupt|malformed/);
    expect((error as Error).message).not.toContain('\n');
  });

  it('a missing file cannot be opened read-only', () => {
    expect(() => FingerprintIndex.readParams(join(temp.dir, 'missing.db'))).toThrow(IndexError);
    expect(() => FingerprintIndex.open(join(temp.dir, 'missing', 'x.db'), { params: K3 })).toThrow(/Cannot open index/);
  });

  it('marks the file as a neardup index', () => {
    open('mark.db').close();
    opened = [];
    const header = readFileSync(join(temp.dir, 'mark.db')).subarray(68, 72);
    expect(header.toString('latin1')).toBe('ndup');
  });
});

describe('saved bucket counts (one-pass open)', () => {
  /** Stores `count` documents (random fingerprints, a quarter near copies) in batches of 500. */
  function fill(index: FingerprintIndex, count: number, seed: number, prefix: string): Fingerprint[] {
    const next = prng(seed);
    const fps: Fingerprint[] = [];
    for (let start = 0; start < count; start += 500) {
      const docs: IndexCandidate[] = [];
      for (let i = start; i < Math.min(count, start + 500); i++) {
        const fp = i > 0 && next() % 4 === 0
          ? flipBits(fps[next() % fps.length]!, randomPositions(next, 1 + (next() % 5)))
          : randomFingerprint(next);
        fps.push(fp);
        docs.push(candidate(`https://${prefix}.example/${i}`, fp));
      }
      index.checkAndInsertMany(docs);
    }
    return fps;
  }

  function savedRow(path: string): { layout: string; up_to: number; bytes: number } | undefined {
    const db = new Database(path, { readonly: true });
    try {
      return db.prepare('SELECT layout, up_to, length(counts) AS bytes FROM bucket_counts').get() as
        | { layout: string; up_to: number; bytes: number }
        | undefined;
    } finally {
      db.close();
    }
  }

  /** Every query's match, as the index and as brute force over the stored fingerprints see it. */
  function expectSameAsBruteForce(index: FingerprintIndex, stored: readonly Fingerprint[], seed: number): void {
    const next = prng(seed);
    for (let q = 0; q < 300; q++) {
      const fp = q % 3 === 2 ? randomFingerprint(next) : flipBits(stored[next() % stored.length]!, randomPositions(next, next() % 5));
      const match = index.check(fp, 'no-such-text');
      const nearest = bruteNearest(fp, stored);
      expect(match === null ? null : match.distance).toBe(nearest <= 3 ? nearest : null);
    }
  }

  function storedFingerprints(index: FingerprintIndex): Fingerprint[] {
    return Array.from(index.stored(), (d) => d.fingerprint);
  }

  it('saves them as the index grows, and a reopened index (one pass plus the newer rows) finds what brute force finds', () => {
    const path = join(temp.dir, 'counts.db');
    const first = FingerprintIndex.open(path, { params: K3, saveCountsAfter: 1000 });
    fill(first, 2600, 81, 'a');
    first.close();
    const row = savedRow(path);
    expect(row).toMatchObject({ layout: '16,16,16,16', bytes: 4 * 4 * 65536 });
    expect(row!.up_to).toBeGreaterThanOrEqual(2000);
    expect(row!.up_to).toBeLessThanOrEqual(2600);
    // Rows after the save are counted on open; more rows then go through the delta area.
    const second = open('counts.db', K3, { saveCountsAfter: 1000 });
    expect(second.buildPasses).toBe(0);
    expectSameAsBruteForce(second, storedFingerprints(second), 82);
    expect(second.buildPasses).toBe(1);
    fill(second, 700, 83, 'b');
    expectSameAsBruteForce(second, storedFingerprints(second), 84);
    expect(savedRow(path)!.up_to).toBeGreaterThan(row!.up_to);
  });

  it('ignores counts that do not fit the rows, and ones newer than the rows', () => {
    const path = join(temp.dir, 'counts.db');
    const first = FingerprintIndex.open(path, { params: K3, saveCountsAfter: 1000 });
    fill(first, 1500, 91, 'a');
    first.close();
    const db = new Database(path);
    db.prepare('UPDATE bucket_counts SET counts = zeroblob(length(counts))').run();
    db.close();
    const damaged = FingerprintIndex.open(path, { params: K3, readonly: true });
    expectSameAsBruteForce(damaged, storedFingerprints(damaged), 92);
    expect(damaged.buildPasses).toBe(2);
    damaged.close();
    const db2 = new Database(path);
    db2.prepare('UPDATE bucket_counts SET up_to = 1000000').run();
    db2.close();
    const ahead = open('counts.db', K3, { readonly: true });
    expectSameAsBruteForce(ahead, storedFingerprints(ahead), 93);
    expect(ahead.buildPasses).toBe(2);
  });

  it('an index made before bucket_counts existed opens, and gets the table on its next save', () => {
    const path = join(temp.dir, 'counts.db');
    const first = FingerprintIndex.open(path, { params: K3 });
    fill(first, 1200, 101, 'a');
    first.close();
    const db = new Database(path);
    db.exec('DROP TABLE bucket_counts');
    db.close();
    const reader = FingerprintIndex.open(path, { params: K3, readonly: true });
    expectSameAsBruteForce(reader, storedFingerprints(reader), 102);
    expect(reader.buildPasses).toBe(2);
    reader.close();
    const writer = open('counts.db', K3, { saveCountsAfter: 1000 });
    fill(writer, 100, 103, 'b');
    expect(savedRow(path)!.up_to).toBe(1300);
    expectSameAsBruteForce(writer, storedFingerprints(writer), 104);
    const reopened = open('counts.db', K3, { readonly: true });
    expectSameAsBruteForce(reopened, storedFingerprints(reopened), 105);
    expect(reopened.buildPasses).toBe(1);
  });

  it('refuses a bad saveCountsAfter', () => {
    expect(() => open('x.db', K3, { saveCountsAfter: 0 })).toThrow(/Expected `saveCountsAfter` to be an integer/);
  });
});

describe('validation at the boundary', () => {
  it.each([
    ['url', { url: '', fingerprint: BASE, textHash: 'h' }, /Expected `url` to be a non-empty string/],
    ['fingerprint', { url: 'u', fingerprint: { hi: -1, lo: 0 }, textHash: 'h' }, /Expected `fingerprint` to be \{hi, lo\}/],
    ['fingerprint halves', { url: 'u', fingerprint: { hi: 2 ** 32, lo: 0 }, textHash: 'h' }, /Expected `fingerprint`/],
    ['textHash', { url: 'u', fingerprint: BASE, textHash: 5 }, /Expected `textHash` to be a string/],
    ['depth', { url: 'u', fingerprint: BASE, textHash: 'h', depth: 1.5 }, /Expected `depth` to be a non-negative integer/],
    ['title', { url: 'u', fingerprint: BASE, textHash: 'h', title: 7 }, /Expected `title` to be a string/],
  ])('refuses a bad %s', (_name, doc, message) => {
    const index = open(':memory:');
    expect(() => index.checkAndInsert(doc as unknown as IndexCandidate)).toThrow(ValidationError);
    expect(() => index.checkAndInsert(doc as unknown as IndexCandidate)).toThrow(message);
    expect(index.stats()).toEqual({ stored: 0, exact: 0, near: 0, similar: 0, skipped: 0 });
  });

  it.each([
    [{ ...K3, distance: 32 }, /Expected `distance` to be an integer 0–31, got 32 \(number\)/],
    [{ ...K3, hash: 'md5' }, /Expected `hash` to be one of rabin\|murmur, got `md5` \(string\)/],
    [{ ...K3, shingleSize: 0 }, /Expected `shingleSize`/],
    [undefined, /Expected `params`/],
  ])('refuses bad params %j', (params, message) => {
    expect(() => FingerprintIndex.open(':memory:', { params } as never)).toThrow(message);
  });

  it('refuses a bad skip reason', () => {
    const index = open(':memory:');
    expect(() => index.recordSkip('u', 'bored' as never)).toThrow(/Expected `reason` to be one of no-text\|/);
  });
});
