import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config.js';
import { IndexError, InputError } from '../../src/errors.js';
import { loadClusterReport } from '../../src/report/load-cluster-report.js';
import { baseFingerprint, buildDataDir, flipBits } from './report-fixtures.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const config = defaultConfig();

describe('loadClusterReport', () => {
  it('reads a data folder written by the index: clusters, primaries by in-links, skipped pages, k', () => {
    const dir = join(makeTempDir(), 'data');
    const other = flipBits(baseFingerprint, [1, 9, 17, 25, 33, 41, 49, 57, 2, 10]);
    const decisions = buildDataDir(dir, [
      // The mirror is crawled first and stored; the original arrives later and is rejected.
      { url: 'http://mirror.example/p', fingerprint: baseFingerprint, textHash: 'x1', title: 'Copy', textLength: 900 },
      { url: 'http://origin.example/p', fingerprint: flipBits(baseFingerprint, [3]), textHash: 'x2', title: 'Original', textLength: 1000 },
      { url: 'http://third.example/p', fingerprint: baseFingerprint, textHash: 'x1', title: 'Copy' },
      { url: 'http://origin.example/', fingerprint: other, textHash: 'x3', links: ['http://origin.example/p'] },
      { url: 'http://blog.example/', fingerprint: flipBits(baseFingerprint, [0, 63, 31, 32, 16, 48, 8, 40, 24, 56, 4, 44]), textHash: 'x4', links: ['http://origin.example/p', 'http://mirror.example/p'] },
      { url: 'http://news.example/', fingerprint: flipBits(baseFingerprint, [5, 6, 7, 20, 21, 22, 36, 37, 38, 52, 53, 54]), textHash: 'x5', links: ['https://www.origin.example/p/'] },
    ], [{ url: 'http://origin.example/empty', reason: 'too-short' }]);
    expect(decisions.map((d) => d.kind)).toEqual(['stored', 'near', 'exact', 'stored', 'stored', 'stored']);

    const report = loadClusterReport(dir, config);
    expect(report.clusters).toHaveLength(1);
    const cluster = report.clusters[0]!;
    expect(cluster.primary).toBe('http://origin.example/p');
    expect(cluster.title).toBe('Original');
    // Citations: blog.example and news.example (other hosts); origin.example/'s own link to /p is
    // outside any main text (recorded without one), a template link, which counts nothing.
    expect(cluster.reasons[0]).toBe('in-links 2 vs 1');
    expect(cluster.members.map((m) => [m.url, m.kind, m.distance, m.stored])).toEqual([
      ['http://origin.example/p', 'primary', 0, false],
      ['http://mirror.example/p', 'near', 1, true],
      ['http://third.example/p', 'near', 1, false],
    ]);
    expect(report.stats).toMatchObject({
      documents: 6, stored: 4, rejected: 2, exact: 1, near: 1, skipped: 1, skippedBy: { 'too-short': 1 },
      clusters: 1, singletons: 3, primaryNotStored: 1, distanceThreshold: 3, distanceCounts: [1, 1, 0, 0],
    });
  });

  it('says in one line what is wrong with a missing or foreign data folder', () => {
    const root = makeTempDir();
    expect(() => loadClusterReport(join(root, 'nope'), config)).toThrow(InputError);
    expect(() => loadClusterReport(join(root, 'nope'), config)).toThrow(/^No data folder `.*nope`/);
    mkdirSync(join(root, 'empty'));
    expect(() => loadClusterReport(join(root, 'empty'), config)).toThrow('is not a neardup data folder: it has no neardup.db');
    mkdirSync(join(root, 'junk'));
    writeFileSync(join(root, 'junk', 'neardup.db'), 'not a database at all, just some text that is long enough to look like a header '.repeat(20));
    expect(() => loadClusterReport(join(root, 'junk'), config)).toThrow(IndexError);
    try {
      loadClusterReport(join(root, 'junk'), config);
    } catch (error) {
      expect((error as Error).message).not.toContain('\n');
    }
  });
});
