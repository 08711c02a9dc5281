/**
 * The package entry (src/index.ts, package.json "main") as a user imports it: each export group
 * used once — config and errors, extraction, analysis, index, pipeline / batch / crawl, report,
 * evaluation.
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { load } from 'cheerio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as neardup from '../src/index.js';
import { devTextsById } from './helpers/dev-texts.js';
import { tempDir } from './helpers/temp-dir.js';

const [textA, textB] = devTextsById().filter((t) => t.length > 2000) as [string, string];
const articleHtml = (text: string) => `<html><head><title>T</title></head><body><article>${text.split('\n').filter((p) => p.trim() !== '').map((p) => `<p>${p}</p>`).join('')}</article></body></html>`;

let temp: ReturnType<typeof tempDir>;
beforeAll(() => {
  temp = tempDir('neardup-api-');
});
afterAll(() => temp.remove());

describe('the package entry', () => {
  const config = neardup.loadConfig({ env: {} });
  const params = neardup.fingerprintParamsFrom(config.fingerprint);

  it('config, errors and enums', () => {
    expect(config.fingerprint.distance).toBe(neardup.defaultConfig().fingerprint.distance);
    expect(() => neardup.parseConfig({ fingerprint: { distance: 99 } })).toThrow(neardup.ConfigError);
    expect(new neardup.ValidationError('x')).toBeInstanceOf(neardup.NeardupError);
    expect(neardup.HASH_NAMES).toContain(config.fingerprint.hash);
    expect(neardup.SKIP_REASONS).toContain('too-short');
  });

  it('extraction: HTML in, main text out', () => {
    const page = neardup.extractHtml(articleHtml(textA));
    expect(page.text.length).toBeGreaterThan(1000);
    // A crawlee handler's `$` (cheerio) in: the same page.
    expect(neardup.extractPage(load(articleHtml(textA)), 'http://x/a').text).toBe(page.text);
    const score = neardup.scorePage(textA, page.text);
    expect(neardup.aggregateScores([score]).f1).toBeGreaterThan(0.9);
  });

  it('analysis: text in, fingerprint out', () => {
    const a = neardup.analyzeText(textA, params, { stemCache: new neardup.StemCache() });
    const copy = neardup.analyzeHtml(articleHtml(textA), params).analysis;
    const b = neardup.analyzeText(textB, params);
    expect(neardup.hammingDistance(a.fingerprint!, copy.fingerprint!)).toBeLessThanOrEqual(neardup.MAX_DISTANCE);
    expect(neardup.hammingDistance(a.fingerprint!, b.fingerprint!)).toBeGreaterThan(config.fingerprint.distance);
    expect(neardup.fingerprintFromHex(neardup.fingerprintToHex(a.fingerprint!))).toEqual(a.fingerprint);
    expect(neardup.normalizeText('ÀB')).toBe('àb');
    expect(neardup.analyzePage({ url: 'u', text: 'Too short.' }, config).skip?.reason).toBe('too-short');
    expect(params.normalizerVersion).toBe(neardup.NORMALIZER_VERSION);
  });

  it('index: fingerprint in, decision out', () => {
    const index = neardup.FingerprintIndex.open(':memory:', { params });
    const a = neardup.analyzeText(textA, params);
    expect(index.checkAndInsert({ url: 'http://a/', fingerprint: a.fingerprint, textHash: a.textHash })).toMatchObject({ kind: 'stored' });
    expect(index.check(a.fingerprint, a.textHash)).toMatchObject({ kind: 'exact', url: 'http://a/' });
    expect(index.stats()).toEqual({ stored: 1, exact: 0, near: 0, skipped: 0 });
    index.close();
  });

  it('pipeline and batch dedup: pages in, decisions and a corpus out; report and evaluation', async () => {
    const dataDir = join(temp.dir, 'data');
    const pipeline = neardup.Pipeline.open({ dataDir, config });
    expect(pipeline.process({ url: 'http://x/a', html: articleHtml(textA) })).toMatchObject({ kind: 'stored' });
    expect(pipeline.process({ url: 'http://y/a', html: articleHtml(textA) })).toMatchObject({ kind: 'exact' });
    pipeline.close();
    const input = join(temp.dir, 'docs.jsonl');
    writeFileSync(input, [JSON.stringify({ url: 'http://x/b', text: textB }), JSON.stringify({ url: 'http://z/b', text: textB })].join('\n'));
    const summary = await neardup.dedupBatch({ inputs: [input], dataDir, config, inProcess: true });
    expect(summary).toMatchObject({ stored: 1, exact: 1 });

    const report = neardup.loadClusterReport(dataDir, config);
    expect(report.clusters.map((c) => c.primary).sort()).toEqual(['http://x/a', 'http://x/b']);
    expect(JSON.parse(neardup.formatClustersJson(report)).clusters).toHaveLength(2);
    expect(neardup.formatClustersCsv(report)).toContain('http://y/a');
    expect(neardup.formatClustersHtml(report)).toContain('http://z/b');
    expect(neardup.buildClusters([], [], new Map()).clusters).toEqual([]);
    expect(neardup.corpusFileName).toBe('corpus.jsonl');

    writeFileSync(join(temp.dir, 'a.txt'), textA);
    writeFileSync(join(temp.dir, 'b.txt'), textB);
    const pairsFile = join(temp.dir, 'pairs.tsv');
    writeFileSync(pairsFile, 'a\tb\tlabel\na.txt\ta.txt\t1\na.txt\tb.txt\t0\n');
    const evaluation = await neardup.evaluatePairs({ pairsFile, config });
    expect(evaluation.rows[evaluation.configuredK]).toMatchObject({ precision: 1, recall: 1 });
    expect(neardup.bestThreshold(neardup.thresholdMetrics([{ distance: 0, duplicate: true }, { distance: 30, duplicate: false }]))).toBe(0);
    expect(neardup.formatEvalReport(evaluation)).toContain('F1');
  });

  it('crawl: a local site in, the same outputs', async () => {
    const server = createServer((req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(req.url === '/' ? articleHtml(textA).replace('</article>', '</article><a href="/copy">copy</a>') : articleHtml(textA));
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const seed = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const summary = await neardup.crawl({ seeds: [seed], dataDir: join(temp.dir, 'crawl'), config: neardup.loadConfig({ env: {}, overrides: { crawl: { respectRobots: false } } }), dedupWorker: false });
      expect(summary).toMatchObject({ stored: 1, exact: 1, stopReason: 'finished' });
    } finally {
      await new Promise((ok) => server.close(ok));
    }
  });
});
