import { describe, expect, it } from 'vitest';
import { buildClusters } from '../../src/report/build-clusters.js';
import { formatClustersJson } from '../../src/report/format-json.js';
import { exactDoc, nearDoc, storedDoc } from './report-fixtures.js';

describe('formatClustersJson', () => {
  it('has the shape of DESIGN.md: clusters with primary and members (the primary included), stats, mirrors', () => {
    const a = storedDoc(1, 'http://a.example/p', { title: 'Post' });
    const report = buildClusters([a, storedDoc(2, 'http://a.example/lone', { fingerprint: { hi: 1, lo: 2 } })], [
      exactDoc(3, 'http://b.example/p', a),
      nearDoc(4, 'http://c.example/p', a, [3, 4, 5]),
    ], new Map(), { distanceThreshold: 3 });
    const text = formatClustersJson(report);
    expect(text.endsWith('}\n')).toBe(true);
    const json = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(json)).toEqual(['clusters', 'stats', 'mirrors']);
    expect(json.clusters).toEqual([{
      id: 1,
      primary: 'http://a.example/p',
      title: 'Post',
      size: 3,
      reasons: ['no distinguishing evidence: the stored copy'],
      members: [
        { url: 'http://a.example/p', kind: 'primary', distance: 0, title: 'Post', stored: true },
        { url: 'http://b.example/p', kind: 'exact', distance: 0, title: '', stored: false, matchUrl: 'http://a.example/p', matchDistance: 0 },
        { url: 'http://c.example/p', kind: 'near', distance: 3, title: '', stored: false, matchUrl: 'http://a.example/p', matchDistance: 3 },
      ],
    }]);
    expect(json.stats).toMatchObject({ documents: 4, stored: 2, rejected: 2, clusters: 1, singletons: 1, distanceCounts: [1, 0, 0, 1] });
    expect(json.mirrors).toEqual([]);
    for (const c of json.clusters as { primary: string; members: { url: string; kind: string; distance: number }[] }[]) {
      expect(c.members.filter((m) => m.kind === 'primary').map((m) => m.url)).toEqual([c.primary]);
      for (const m of c.members) {
        expect(['exact', 'near', 'primary']).toContain(m.kind);
        expect(Number.isInteger(m.distance)).toBe(true);
      }
    }
  });
});
