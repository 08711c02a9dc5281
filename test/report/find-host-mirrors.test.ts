import { describe, expect, it } from 'vitest';
import type { Cluster, ClusterMember } from '../../src/report/cluster-report.js';
import { findHostMirrors } from '../../src/report/find-host-mirrors.js';

let nextId = 1;

/** A cluster from member URLs; the first is the primary, `stored` names the stored one (default the primary). */
function cluster(urls: readonly string[], stored = urls[0]): Cluster {
  const members: ClusterMember[] = urls.map((url, i) => ({
    url, kind: i === 0 ? 'primary' : 'exact', distance: 0, title: '', stored: url === stored,
  }));
  return { id: nextId++, primary: urls[0]!, title: '', size: urls.length, reasons: [], members };
}

describe('findHostMirrors', () => {
  it('reports B mirrors A with the share of B\'s pages', () => {
    const clusters = [1, 2, 3].map((i) => cluster([`http://a.example/${i}`, `http://b.example/${i}`]));
    const hosts = new Map([['a.example', 10], ['b.example', 4]]);
    const mirrors = findHostMirrors(clusters, hosts, { threshold: 0.5, minPages: 2 });
    expect(mirrors).toEqual([{
      mirror: 'b.example', original: 'a.example', pages: 3, of: 4, share: 0.75,
      originalPages: 3, originalOf: 10, mutual: false, summary: 'b.example mirrors a.example (3 of 4 pages)',
    }]);
  });

  it('leaves out pairs under the threshold or under the minimum pages', () => {
    const clusters = [1, 2, 3].map((i) => cluster([`http://a.example/${i}`, `http://b.example/${i}`]));
    expect(findHostMirrors(clusters, new Map([['a.example', 10], ['b.example', 7]]), { threshold: 0.5, minPages: 2 })).toEqual([]);
    expect(findHostMirrors(clusters, new Map([['a.example', 10], ['b.example', 4]]), { threshold: 0.5, minPages: 4 })).toEqual([]);
    expect(findHostMirrors(clusters, new Map([['a.example', 10], ['b.example', 6]]), { threshold: 0.5, minPages: 3 })).toHaveLength(1);
  });

  it('reports a two-way copy once, the original being the host with the primaries', () => {
    const clusters = [
      cluster(['http://b.example/1', 'http://a.example/1'], 'http://a.example/1'),
      cluster(['http://b.example/2', 'http://a.example/2'], 'http://a.example/2'),
      cluster(['http://a.example/3', 'http://b.example/3'], 'http://a.example/3'),
    ];
    const hosts = new Map([['a.example', 3], ['b.example', 3]]);
    const mirrors = findHostMirrors(clusters, hosts, { threshold: 0.5, minPages: 2 });
    expect(mirrors.map((m) => [m.summary, m.mutual])).toEqual([['a.example mirrors b.example (3 of 3 pages)', true]]);
  });

  it('breaks an even two-way tie by the stored copies', () => {
    const clusters = [
      cluster(['http://a.example/1', 'http://b.example/1'], 'http://b.example/1'),
      cluster(['http://b.example/2', 'http://a.example/2'], 'http://b.example/2'),
    ];
    const mirrors = findHostMirrors(clusters, new Map([['a.example', 2], ['b.example', 2]]), { threshold: 0.5, minPages: 1 });
    expect(mirrors.map((m) => m.summary)).toEqual(['a.example mirrors b.example (2 of 2 pages)']);
  });

  it('counts several pages of one host in one cluster, and hosts of final URLs', () => {
    const c = cluster(['http://a.example/1', 'http://b.example/1', 'http://b.example/1?print=1']);
    const redirected: Cluster = {
      ...cluster(['http://a.example/2', 'http://old.example/2']),
      members: [
        { url: 'http://a.example/2', kind: 'primary', distance: 0, title: '', stored: true },
        { url: 'http://old.example/2', finalUrl: 'http://b.example/2', kind: 'near', distance: 1, title: '', stored: false },
      ],
    };
    const mirrors = findHostMirrors([c, redirected], new Map([['a.example', 2], ['b.example', 3]]), { threshold: 0.9, minPages: 3 });
    expect(mirrors.map((m) => m.summary)).toEqual(['b.example mirrors a.example (3 of 3 pages)']);
  });

  it('ignores members without an http(s) host (batch file paths)', () => {
    const clusters = [cluster(['docs/a.html', 'copy/a.html']), cluster(['docs/b.html', 'copy/b.html'])];
    expect(findHostMirrors(clusters, new Map(), { threshold: 0, minPages: 1 })).toEqual([]);
  });

  it('orders by share, then pages', () => {
    const clusters = [
      ...[1, 2].map((i) => cluster([`http://a.example/${i}`, `http://c.example/${i}`])),
      ...[1, 2, 3].map((i) => cluster([`http://a.example/x${i}`, `http://b.example/${i}`])),
    ];
    const mirrors = findHostMirrors(clusters, new Map([['a.example', 50], ['b.example', 6], ['c.example', 2]]), { threshold: 0.5, minPages: 2 });
    expect(mirrors.map((m) => m.mirror)).toEqual(['c.example', 'b.example']);
  });
});

describe('findHostMirrors with three hosts', () => {
  it('reports two copies of a third site against that site, not against each other', () => {
    const clusters = [1, 2, 3].map((i) => cluster([`http://origin.example/${i}`, `http://m1.example/${i}`, `http://m2.example/${i}`]));
    const hosts = new Map([['origin.example', 3], ['m1.example', 3], ['m2.example', 3]]);
    const mirrors = findHostMirrors(clusters, hosts, { threshold: 0.5, minPages: 2 });
    expect(mirrors.map((m) => m.summary)).toEqual([
      'm1.example mirrors origin.example (3 of 3 pages)',
      'm2.example mirrors origin.example (3 of 3 pages)',
    ]);
  });
});
