/**
 * The index's exact check on the text hash alone and its verified second stage (kind `similar`):
 * decisions, what is recorded and read back, and the same decisions from a second connection.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config.js';
import { FingerprintIndex } from '../../src/fingerprint-index/fingerprint-index.js';
import { shingleSketch } from '../../src/fingerprint/shingle-sketch.js';
import type { IndexCandidate } from '../../src/types.js';
import { flipBits, paramsFor, tempDir } from './index-test-helpers.js';

const K3 = paramsFor(3);
const verify = defaultConfig().verify;
const BASE = { hi: 0x12345678, lo: 0x9abcdef0 };
const FAR = flipBits(BASE, [0, 5, 9, 14, 20, 27, 33, 40, 47, 52, 58, 63]); // 12 bits away

/** The sketch of features numbered from..to-1. */
function sketchOf(from: number, to: number): Uint32Array {
  const ids = Array.from({ length: to - from }, (_, i) => from + i);
  return shingleSketch(Uint32Array.from(ids, (id) => Math.imul(id, 0x9e3779b1) >>> 0), Uint32Array.from(ids, (id) => id), ids.length, verify.sketchSize);
}
const doc = (url: string, fingerprint = BASE, textHash = `hash:${url}`, sketch: Uint32Array | null = null): IndexCandidate => ({ url, fingerprint, textHash, sketch });

describe('exact duplicates by text hash, second stage', () => {
  let temp: ReturnType<typeof tempDir>;
  let opened: FingerprintIndex[] = [];
  const open = (name: string, on = true, thresholds: Partial<typeof verify> = {}) => {
    const index = FingerprintIndex.open(join(temp.dir, name), { params: K3, verify: on ? { ...verify, ...thresholds } : null });
    opened.push(index);
    return index;
  };
  beforeEach(() => {
    temp = tempDir();
    opened = [];
  });
  afterEach(() => {
    for (const index of opened) index.close();
    temp.remove();
  });

  it('finds an exact duplicate on its text hash whatever its fingerprint', () => {
    const index = open('exact.db');
    expect(index.checkAndInsert(doc('u:1', BASE, 'same'))).toEqual({ kind: 'stored', id: 1 });
    expect(index.checkAndInsert(doc('u:2', FAR, 'same'))).toMatchObject({ kind: 'exact', matchId: 1, matchUrl: 'u:1' });
    expect(index.check(FAR, 'same')).toMatchObject({ kind: 'exact', id: 1 });
  });

  it('rejects as similar a copy beyond k whose sketch passes, with distance, similarity and containment, everywhere', () => {
    const index = open('similar.db');
    index.checkAndInsert(doc('u:1', BASE, 'h1', sketchOf(0, 2000)));
    const decision = index.checkAndInsert(doc('u:2', FAR, 'h2', sketchOf(40, 2040)));
    expect(decision).toMatchObject({ kind: 'similar', matchId: 1, matchUrl: 'u:1', distance: 12 });
    const { similarity, containment } = decision as { similarity: number; containment: number };
    expect(similarity).toBeGreaterThan(verify.jaccard);
    expect(containment).toBeGreaterThan(0.9);
    expect(index.getByUrl('u:2')).toMatchObject({ kind: 'similar', distance: 12, matchId: 1, similarity, containment });
    expect([...index.rejected()].map((r) => r.kind)).toEqual(['similar']);
    expect(index.stats()).toMatchObject({ stored: 1, similar: 1 });
    expect(index.checkAndInsert(doc('u:2', FAR, 'h2', sketchOf(40, 2040)))).toEqual({ ...decision, repeated: true }); // judged once: the earlier decision, marked repeated
    // An excerpt: contained, not alike by Jaccard.
    expect(index.checkAndInsert(doc('u:3', FAR, 'h3', sketchOf(0, 1000)))).toMatchObject({ kind: 'similar', matchId: 1 });
  });

  it('stores what the sketch does not confirm, what lies beyond K, and everything when off', () => {
    const index = open('no.db');
    index.checkAndInsert(doc('u:1', BASE, 'h1', sketchOf(0, 2000)));
    expect(index.checkAndInsert(doc('u:2', FAR, 'h2', sketchOf(1500, 3500))).kind).toBe('stored'); // J ~0.14
    const beyondK = flipBits(BASE, Array.from({ length: verify.maxDistance + 1 }, (_, i) => 3 * i));
    expect(index.checkAndInsert(doc('u:3', beyondK, 'h3', sketchOf(0, 2000))).kind).toBe('stored');
    const off = open('off.db', false);
    off.checkAndInsert(doc('u:1', BASE, 'h1', sketchOf(0, 2000)));
    expect(off.checkAndInsert(doc('u:2', FAR, 'h2', sketchOf(40, 2040))).kind).toBe('stored');
  });

  it('a second connection, and a reopened index, see the stored sketches', () => {
    const a = open('shared.db');
    const b = open('shared.db');
    expect(b.check(BASE, 'x')).toBeNull(); // b builds its tables now
    a.checkAndInsert(doc('u:1', BASE, 'h1', sketchOf(0, 2000)));
    expect(b.checkAndInsert(doc('u:2', FAR, 'h2', sketchOf(40, 2040)))).toMatchObject({ kind: 'similar', matchId: 1 });
    a.close();
    b.close();
    opened = [];
    const again = open('shared.db');
    expect(again.checkAndInsert(doc('u:3', FAR, 'h3', sketchOf(20, 2020)))).toMatchObject({ kind: 'similar', matchId: 1 });
  });

  it('matches the cluster, not only its stored document: a variant of a variant is a copy of the base (issue 25)', () => {
    const index = open('cluster.db');
    index.checkAndInsert(doc('u:base', BASE, 'h0', sketchOf(0, 2000)));
    // V: J 0.78 with the base. W: J 0.78 with V, 0.6 with the base (below the thresholds).
    expect(index.checkAndInsert(doc('u:v', FAR, 'h1', sketchOf(250, 2250)))).toMatchObject({ kind: 'similar', matchId: 1 });
    const w = flipBits(FAR, [1, 2, 3, 4]); // 4 bits from V: beyond k, so the second stage decides
    const decision = index.checkAndInsert(doc('u:w', w, 'h2', sketchOf(500, 2500)));
    expect(decision).toMatchObject({ kind: 'similar', matchId: 1, matchUrl: 'u:base', distance: 4 });
    expect((decision as { similarity: number }).similarity).toBeGreaterThan(0.7); // W against V, the evidence
    // An exact copy keeps no sketch; stored and near/similar rows do.
    index.checkAndInsert(doc('u:w2', w, 'h2'));
    index.close();
    opened = [];
    // Reopened: the members' sketches are loaded with the stored ones.
    const again = open('cluster.db');
    const x = flipBits(w, [40, 41, 42, 43]);
    expect(again.checkAndInsert(doc('u:x', x, 'h3', sketchOf(750, 2750)))).toMatchObject({ kind: 'similar', matchId: 1, matchUrl: 'u:base' });
    // Something far from every member is still stored.
    expect(again.checkAndInsert(doc('u:y', x, 'h4', sketchOf(1800, 3800))).kind).toBe('stored');
  });

  it('a member counts on Jaccard only: a page holding a member contained in the stored one does not join', () => {
    // Thresholds where a third of a page is contained in it on enough values (16) and unlike it (J 0.65).
    const index = open('chain.db', true, { jaccard: 0.65, minContainmentSamples: 16 });
    index.checkAndInsert(doc('u:long', BASE, 'h0', sketchOf(0, 3000)));
    // A third of the stored page: similar by containment, a member of its cluster.
    expect(index.checkAndInsert(doc('u:part', FAR, 'h1', sketchOf(0, 1000)))).toMatchObject({ kind: 'similar', matchId: 1 });
    // A page holding that third and as much again of its own: it contains the member (containment 1),
    // and is nothing like the stored page (J 0.2).
    const ids = [...Array.from({ length: 1000 }, (_, i) => i), ...Array.from({ length: 1500 }, (_, i) => 10_000 + i)];
    const other = shingleSketch(Uint32Array.from(ids, (id) => Math.imul(id, 0x9e3779b1) >>> 0), Uint32Array.from(ids, (id) => id), ids.length, verify.sketchSize);
    expect(index.checkAndInsert(doc('u:other', flipBits(FAR, [1, 2, 3, 4]), 'h2', other)).kind).toBe('stored');
  });

  it('a reopened index rebuilds the key table from every stored sketch, short ones and rows of other kinds among them', () => {
    const a = open('reopen.db');
    a.checkAndInsert(doc('u:1', BASE, 'h1', sketchOf(0, 2000)));
    a.checkAndInsert(doc('u:1b', BASE, 'h1')); // exact: a rejected row, no sketch
    a.checkAndInsert(doc('u:2', FAR, 'h2', sketchOf(5000, 5003))); // three values: fewer than the keys
    a.checkAndInsert(doc('u:3', BASE, 'h3')); // stored without a sketch
    a.close();
    opened = [];
    const again = open('reopen.db');
    const farther = flipBits(FAR, [1, 2, 3, 4, 6, 7]); // 6 from u:2, beyond k
    expect(again.checkAndInsert(doc('u:4', farther, 'h4', sketchOf(5000, 5003)))).toMatchObject({ kind: 'similar', matchId: 3 });
    expect(again.checkAndInsert(doc('u:5', flipBits(BASE, [10, 11, 12, 13, 15, 16, 17, 18]), 'h5', sketchOf(40, 2040)))).toMatchObject({ kind: 'similar', matchId: 1 });
    // The same copy beyond K: its candidate is dropped before its sketch is read.
    const beyondK = flipBits(BASE, Array.from({ length: verify.maxDistance + 1 }, (_, i) => 3 * i));
    expect(again.checkAndInsert(doc('u:6', beyondK, 'h6', sketchOf(40, 2040))).kind).toBe('stored');
  });

  it('an index of an older schema opened read-only says how to rebuild it', () => {
    open('old.db').close();
    opened = [];
    const db = new Database(join(temp.dir, 'old.db'));
    db.pragma('user_version = 1');
    db.close();
    expect(() => FingerprintIndex.open(join(temp.dir, 'old.db'), { params: K3, readonly: true }))
      .toThrow(/schema version 1, made by an older neardup \(this one writes 2\): rebuild it/);
  });
});
