import { describe, expect, it } from 'vitest';
import { buildClusters } from '../../src/report/build-clusters.js';
import type { Cluster } from '../../src/report/cluster-report.js';
import { ValidationError } from '../../src/errors.js';
import type { RejectedDocument, StoredDocument } from '../../src/types.js';
import { exactDoc, flipBits, nearDoc, storedDoc, baseFingerprint } from './report-fixtures.js';

const none = new Map<string, number>();

function byPrimary(clusters: readonly Cluster[], url: string): Cluster {
  const c = clusters.find((x) => x.primary === url);
  if (c === undefined) throw new Error(`no cluster with primary ${url}: ${clusters.map((x) => x.primary).join(', ')}`);
  return c;
}

describe('buildClusters', () => {
  it('groups exact and near duplicates with their stored document; singletons are counted, not listed', () => {
    const a = storedDoc(1, 'http://a.example/1', { fingerprint: flipBits(baseFingerprint, []) });
    const b = storedDoc(2, 'http://a.example/2', { fingerprint: flipBits(baseFingerprint, [10, 20, 30, 40, 50, 60, 63, 1]) });
    const lone = storedDoc(3, 'http://a.example/3', { fingerprint: flipBits(baseFingerprint, [5, 15, 25, 35, 45, 55, 2, 12, 22]) });
    const rejected = [
      exactDoc(4, 'http://b.example/1', a),
      nearDoc(5, 'http://c.example/1', a, [7, 9]),
      nearDoc(6, 'http://b.example/2', b, [3]),
    ];
    const report = buildClusters([a, b, lone], rejected, none);
    expect(report.clusters.map((c) => c.size)).toEqual([3, 2]);
    const first = report.clusters[0]!;
    expect(first).toMatchObject({ id: 1, primary: 'http://a.example/1', size: 3 });
    expect(first.members.map((m) => [m.url, m.kind, m.distance])).toEqual([
      ['http://a.example/1', 'primary', 0],
      ['http://b.example/1', 'exact', 0],
      ['http://c.example/1', 'near', 2],
    ]);
    expect(report.clusters[1]!.members.map((m) => [m.url, m.kind, m.distance])).toEqual([
      ['http://a.example/2', 'primary', 0],
      ['http://b.example/2', 'near', 1],
    ]);
    expect(report.clusters.flatMap((c) => c.members.map((m) => m.url))).not.toContain('http://a.example/3');
    expect(report.stats).toMatchObject({
      documents: 6, stored: 3, rejected: 3, exact: 1, near: 2, clusters: 2, clusteredDocuments: 5, singletons: 1,
      orphans: 0, largestCluster: 3, primaryNotStored: 0, skipped: null,
    });
    expect(report.stats.distanceCounts).toEqual([1, 1, 1]);
    expect(report.stats.clusterSizeCounts).toEqual([{ size: 2, clusters: 1 }, { size: 3, clusters: 1 }]);
  });

  it('follows chains (C matched B, B matched A) into one cluster, in any input order', () => {
    const a = storedDoc(1, 'http://a.example/p');
    const b = nearDoc(2, 'http://b.example/p', a, [1, 2]);
    const c = nearDoc(3, 'http://c.example/p', b, [3, 4]);
    const d = exactDoc(4, 'http://d.example/p', c);
    for (const order of [[b, c, d], [d, c, b], [c, d, b]]) {
      const report = buildClusters([a], order, none);
      expect(report.clusters).toHaveLength(1);
      const cluster = report.clusters[0]!;
      expect(cluster.primary).toBe('http://a.example/p');
      // Distances are to the primary, from the fingerprints: C and D are 4 bits from A.
      expect(cluster.members.map((m) => [m.url, m.kind, m.distance])).toEqual([
        ['http://a.example/p', 'primary', 0],
        ['http://b.example/p', 'near', 2],
        ['http://c.example/p', 'near', 4],
        ['http://d.example/p', 'near', 4],
      ]);
      const dMember = cluster.members.find((m) => m.url === 'http://d.example/p')!;
      expect(dMember).toMatchObject({ matchUrl: 'http://c.example/p', matchDistance: 0, stored: false });
    }
  });

  it('falls back to the sum of recorded distances along the chain when a fingerprint is missing', () => {
    const a = storedDoc(1, 'http://a.example/p');
    const b = nearDoc(2, 'http://b.example/p', a, [1, 2]);
    const c = { ...nearDoc(3, 'http://c.example/p', b, [3]), fingerprint: null } as RejectedDocument;
    const report = buildClusters([a], [b, c], none);
    expect(report.clusters[0]!.members.find((m) => m.url === 'http://c.example/p')!.distance).toBe(3);
  });

  it('gives a rejected exact copy without a fingerprint its match\'s fingerprint', () => {
    const a = storedDoc(1, 'http://a.example/p');
    const b = nearDoc(2, 'http://b.example/p', a, [1, 2], { canonicalUrl: 'http://b.example/p' });
    const c = { ...exactDoc(3, 'http://c.example/p', b), fingerprint: null } as RejectedDocument;
    const report = buildClusters([a], [b, c], none, {});
    const cluster = report.clusters[0]!;
    expect(cluster.primary).toBe('http://b.example/p');
    expect(cluster.members.map((m) => [m.url, m.kind, m.distance])).toEqual([
      ['http://b.example/p', 'primary', 0],
      ['http://c.example/p', 'exact', 0],
      ['http://a.example/p', 'near', 2],
    ]);
  });

  it('counts rejected documents whose match is missing as orphans, without listing them', () => {
    const a = storedDoc(1, 'http://a.example/p');
    const orphan: RejectedDocument = { ...exactDoc(2, 'http://b.example/p', a), matchId: 99 };
    const selfLoop: RejectedDocument = { ...exactDoc(3, 'http://c.example/p', a), matchId: 3 };
    const report = buildClusters([a], [orphan, selfLoop], none);
    expect(report.clusters).toEqual([]);
    expect(report.stats).toMatchObject({ orphans: 2, singletons: 1, clusters: 0, largestCluster: 0 });
  });

  it('reports a rejected primary with the stored document as a member at its distance to the primary', () => {
    const stored = storedDoc(1, 'http://mirror.example/copy/of/post', { textLength: 900, publishedAt: '2024-06-01' });
    const original = nearDoc(2, 'http://origin.example/post', stored, [4, 40], { textLength: 1000, publishedAt: '2024-01-02' });
    const other = nearDoc(3, 'http://third.example/p/q', stored, [5], { textLength: 950 });
    const links = new Map([['https://origin.example/post/', 12], ['http://mirror.example/copy/of/post', 3]]);
    const report = buildClusters([stored], [original, other], links);
    const cluster = report.clusters[0]!;
    expect(cluster.primary).toBe('http://origin.example/post');
    expect(cluster.reasons).toEqual([
      'in-links 12 vs 3',
      'earliest date 2024-01-02 vs 2024-06-01',
      'most complete text 1000 vs 950 chars',
      'shallower URL (path depth 1 vs 2)',
    ]);
    expect(cluster.members.map((m) => [m.url, m.kind, m.distance, m.stored])).toEqual([
      ['http://origin.example/post', 'primary', 0, false],
      ['http://mirror.example/copy/of/post', 'near', 2, true],
      ['http://third.example/p/q', 'near', 3, false],
    ]);
    expect(report.stats.primaryNotStored).toBe(1);
  });

  it('sums in-links to a member\'s URL and final URL', () => {
    const stored = storedDoc(1, 'http://a.example/p');
    const copy = nearDoc(2, 'http://b.example/old', stored, [1], { finalUrl: 'http://b.example/new' });
    const links = new Map([['http://a.example/p', 3], ['http://b.example/old', 2], ['http://b.example/new#x', 2]]);
    const cluster = buildClusters([stored], [copy], links).clusters[0]!;
    expect(cluster.primary).toBe('http://b.example/old');
    expect(cluster.reasons).toContain('in-links 4 vs 3');
    expect(cluster.members[0]).toMatchObject({ finalUrl: 'http://b.example/new' });
  });

  it('credits a final URL to the member fetched there, not to a member that redirected to it', () => {
    // /old?id=1 redirected to /story (stored first); /story itself, fetched later, is its exact copy.
    const redirected = storedDoc(1, 'http://a.example/old?id=1', { finalUrl: 'http://a.example/story', canonicalUrl: 'http://a.example/story' });
    const direct = exactDoc(2, 'http://a.example/story', redirected, { canonicalUrl: 'http://a.example/story' });
    const links = new Map([['http://a.example/story', 5], ['http://a.example/old?id=1', 1]]);
    const cluster = buildClusters([redirected], [direct], links).clusters[0]!;
    expect(cluster.primary).toBe('http://a.example/story');
    expect(cluster.reasons[0]).toBe('canonical (2 of 2 members point here)');
    expect(cluster.reasons).toContain('in-links 5 vs 1');
  });

  it('still credits the final URL to a redirecting member when no member was fetched there', () => {
    const redirected = storedDoc(1, 'http://a.example/old?id=1', { finalUrl: 'http://a.example/story' });
    const copy = nearDoc(2, 'http://b.example/story', redirected, [1]);
    const links = new Map([['http://a.example/story', 5], ['http://b.example/story', 2]]);
    const cluster = buildClusters([redirected], [copy], links).clusters[0]!;
    expect(cluster.primary).toBe('http://a.example/old?id=1');
    expect(cluster.reasons).toContain('in-links 5 vs 2');
  });

  it('uses the configured weights', () => {
    const stored = storedDoc(1, 'http://a.example/p', { canonicalUrl: 'http://a.example/p' });
    const copy = nearDoc(2, 'http://b.example/p', stored, [1], { canonicalUrl: 'http://a.example/p' });
    const links = new Map([['http://b.example/p', 50]]);
    expect(buildClusters([stored], [copy], links).clusters[0]!.primary).toBe('http://a.example/p');
    const weights = { canonical: 1, inLinks: 3, earliestDate: 2, completeness: 1, shallowUrl: 1 };
    expect(buildClusters([stored], [copy], links, { primaryWeights: weights }).clusters[0]!.primary).toBe('http://b.example/p');
  });

  it('orders clusters largest first, then by primary URL, and numbers them', () => {
    const s = [3, 1, 2].map((i) => storedDoc(i, `http://s.example/${i}`, { fingerprint: flipBits(baseFingerprint, [i * 8, i * 8 + 1, i * 8 + 2, i * 8 + 3]) }));
    const rejected = [
      exactDoc(10, 'http://r.example/10', s[0]!),
      exactDoc(11, 'http://r.example/11', s[1]!),
      exactDoc(12, 'http://r.example/12', s[2]!),
      exactDoc(13, 'http://r.example/13', s[2]!),
    ];
    const report = buildClusters(s, rejected, none);
    expect(report.clusters.map((c) => [c.id, c.primary, c.size])).toEqual([
      [1, 'http://s.example/2', 3],
      [2, 'http://s.example/1', 2],
      [3, 'http://s.example/3', 2],
    ]);
  });

  it('reads the stored documents once, after the rejected ones (index iterators)', () => {
    const a = storedDoc(1, 'http://a.example/p');
    const events: string[] = [];
    function* storedIter(): Generator<StoredDocument> {
      events.push('stored');
      yield a;
      yield storedDoc(2, 'http://a.example/q', { fingerprint: flipBits(baseFingerprint, [1, 2, 3, 4, 5, 6]) });
    }
    function* rejectedIter(): Generator<RejectedDocument> {
      events.push('rejected');
      yield exactDoc(3, 'http://b.example/p', a);
    }
    const report = buildClusters(storedIter(), rejectedIter(), none);
    expect(events).toEqual(['rejected', 'stored']);
    expect(report.stats).toMatchObject({ stored: 2, singletons: 1, clusters: 1 });
  });

  it('counts skipped pages by reason and pads the histogram to k', () => {
    const a = storedDoc(1, 'http://a.example/p');
    const report = buildClusters([a], [exactDoc(2, 'http://b.example/p', a)], none, {
      skipped: [
        { url: 'http://a.example/x', reason: 'too-short', detail: null, at: 0 },
        { url: 'http://a.example/y', reason: 'too-short', detail: null, at: 0 },
        { url: 'http://a.example/z', reason: 'robots', detail: null, at: 0 },
      ],
      distanceThreshold: 3,
    });
    expect(report.stats.skipped).toBe(3);
    expect(report.stats.skippedBy).toEqual({ 'too-short': 2, robots: 1 });
    expect(report.stats.distanceCounts).toEqual([1, 0, 0, 0]);
    expect(report.stats.distanceThreshold).toBe(3);
  });

  it.each([
    [{ primaryWeights: { canonical: -1, inLinks: 3, earliestDate: 2, completeness: 1, shallowUrl: 1 } }, 'Expected `primaryWeights.canonical` to be a number ≥ 0, got -1 (number)'],
    [{ primaryWeights: { canonical: 8, inLinks: 'x', earliestDate: 2, completeness: 1, shallowUrl: 1 } }, 'Expected `primaryWeights.inLinks` to be a number ≥ 0, got `x` (string)'],
    [{ mirrorThreshold: 1.5 }, 'Expected `mirrorThreshold` to be a number 0–1, got 1.5 (number)'],
    [{ mirrorMinPages: 0 }, 'Expected `mirrorMinPages` to be an integer ≥ 1, got 0 (number)'],
  ])('refuses bad options %#', (options, message) => {
    expect(() => buildClusters([], [], none, options as never)).toThrow(ValidationError);
    expect(() => buildClusters([], [], none, options as never)).toThrow(message);
  });

  it('builds an empty report from an empty index', () => {
    const report = buildClusters([], [], none);
    expect(report).toEqual({
      clusters: [],
      mirrors: [],
      stats: expect.objectContaining({ documents: 0, clusters: 0, distanceCounts: [], clusterSizeCounts: [] }),
    });
  });

  it('finds host mirrors among the clusters', () => {
    const stored: StoredDocument[] = [];
    const rejected: RejectedDocument[] = [];
    for (let i = 0; i < 5; i++) {
      const s = storedDoc(i + 1, `http://a.example/${i}`, { fingerprint: flipBits(baseFingerprint, [i * 10, i * 10 + 1, i * 10 + 2, i * 10 + 3]) });
      stored.push(s);
      if (i < 4) rejected.push(exactDoc(100 + i, `http://b.example/${i}`, s));
    }
    stored.push(storedDoc(50, 'http://b.example/own', { fingerprint: flipBits(baseFingerprint, [60, 61, 62, 63, 59]) }));
    const report = buildClusters(stored, rejected, none, { mirrorThreshold: 0.5, mirrorMinPages: 2 });
    expect(report.mirrors.map((m) => m.summary)).toEqual(['b.example mirrors a.example (4 of 5 pages)']);
    expect(report.stats.mirrors).toBe(1);
    expect(byPrimary(report.clusters, 'http://a.example/0').size).toBe(2);
  });
});

describe('host mirrors and primaries agree', () => {
  it('a mirror host keeps a primary only on its own canonical or date evidence, and the reasons say so', () => {
    // Five articles on a.example, each copied to b.example: clusters far apart (16 bits).
    const fp = (c: number) => flipBits(baseFingerprint, Array.from({ length: 8 }, (_, j) => c * 8 + j));
    const dates = [['2024-01-01', '2024-06-01'], ['2024-01-02', '2024-06-01'], ['2024-01-03', '2024-06-01'], [null, null], ['2024-06-01', '2024-01-05']];
    const stored: StoredDocument[] = [];
    const rejected: RejectedDocument[] = [];
    dates.forEach(([a, b], c) => {
      const original = storedDoc(c * 2 + 1, `http://a.example/${c}`, { fingerprint: fp(c), textHash: `t${c}`, lastModified: a });
      stored.push(original);
      rejected.push(exactDoc(c * 2 + 2, `http://b.example/${c}`, original, { lastModified: b }));
    });
    // Article 3 has no dates; b's copy is cited more (but from b's own pages' main text, say).
    const links = new Map([['http://b.example/3', 5]]);
    const report = buildClusters(stored, rejected, links);
    expect(report.mirrors.map((m) => [m.mirror, m.original])).toEqual([['b.example', 'a.example']]);
    // Without its own evidence, b's copy of article 3 is not primary: the report would say "b
    // mirrors a" and name b's page the original.
    const c3 = byPrimary(report.clusters, 'http://a.example/3');
    expect(c3.reasons.at(-1)).toBe('not the copy on b.example: that host mirrors a.example, and the copy has no canonical or date evidence of its own');
    // With its own (earlier) date, b's copy of article 4 stays primary, and the reasons say why.
    const c4 = byPrimary(report.clusters, 'http://b.example/4');
    expect(c4.reasons[0]).toBe('earliest date 2024-01-05 vs 2024-06-01');
    expect(c4.reasons.at(-1)).toBe('on b.example, which mirrors a.example, but named primary by its own evidence');
    for (const c of [0, 1, 2]) expect(byPrimary(report.clusters, `http://a.example/${c}`).reasons[0]).toMatch(/^earliest date/);
  });
});
