/**
 * Every place a flag shows to a user: `neardup dedup` (worker threads) → the summary, the database,
 * corpus.jsonl; `neardup clusters` JSON, CSV and HTML; a crawl's summary; `neardup fingerprint
 * --json` and `neardup compare` for files. The pages: dev texts, a look-alike-letter copy of a text
 * never stored, a spun copy and a compiled page.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerClusters } from '../../src/cli/clusters-command.js';
import { registerCompare } from '../../src/cli/compare-command.js';
import { crawlSummaryText } from '../../src/cli/crawl-command.js';
import { registerDedup } from '../../src/cli/dedup-command.js';
import { registerFingerprint } from '../../src/cli/fingerprint-command.js';
import { loadSynonymDictionary } from '../../src/synonyms/synonym-dictionary.js';
import { compilePage, homoglyphCopy, spinText } from '../../scripts/cascade-variants.js';
import { htmlPage, startFixtureSite } from '../helpers/fixture-site.js';
import { runInProcess } from '../helpers/run-cli.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { crawlInto } from '../helpers/small-crawl.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { devTexts } from './dev-texts.js';

const synonyms = loadSynonymDictionary();
const spoofed = homoglyphCopy(devTexts[9]!.text, 0.4, seededRandom(3));
const spun = spinText(devTexts[5]!.text, 'eng', synonyms, 0.3, seededRandom(4)).text;
const compiled = compilePage([devTexts[1]!.text, devTexts[4]!.text, devTexts[7]!.text], 600, seededRandom(8));

let dir: string;
let data: string;
let dedupOut: string;
beforeAll(async () => {
  dir = makeTempDir('neardup-flags-visible-');
  data = join(dir, 'data');
  const lines = [
    ...devTexts.slice(0, 9).map((t, i) => ({ url: `http://src.test/${i}`, text: t.text })),
    { url: 'http://made.test/spoofed', text: spoofed },
    { url: 'http://made.test/spun', text: spun },
    { url: 'http://made.test/compiled', text: compiled },
  ];
  const input = join(dir, 'pages.jsonl');
  writeFileSync(input, lines.map((l) => JSON.stringify(l)).join('\n'));
  // One worker thread: the cascade's own half runs there, its result crosses to the committing thread.
  const run = await runInProcess(registerDedup, ['dedup', input, '--data', data, '--workers', '1']);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  dedupOut = run.stdout;
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('flags where users see them', () => {
  it('dedup summary counts flags by kind', () => {
    expect(dedupOut).toContain('flagged: homoglyph 1, synonymised 1, compiled 1');
  });

  it('the database has a flags table with each flag\'s evidence, and corpus lines a flags field', () => {
    const db = new Database(join(data, 'neardup.db'), { readonly: true });
    const rows = db.prepare('SELECT url, kind, doc_id AS docId, evidence FROM flags ORDER BY url').all() as { url: string; kind: string; docId: number; evidence: string }[];
    db.close();
    expect(rows.map((r) => `${r.url} ${r.kind}`)).toEqual(['http://made.test/compiled compiled', 'http://made.test/spoofed homoglyph', 'http://made.test/spun synonymised']);
    // Stored compactly: the kind is the row's column (flag-row.ts).
    expect(JSON.parse(rows[1]!.evidence)).toMatchObject({ words: expect.any(Number), examples: expect.any(Array) });
    const corpus = readFileSync(join(data, 'corpus.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { url: string; flags: string[] });
    expect(corpus.find((l) => l.url === 'http://made.test/spoofed')!.flags).toEqual(['homoglyph']);
    expect(corpus.every((l) => Array.isArray(l.flags))).toBe(true);
  });

  it('clusters JSON lists flagged pages with evidence; CSV has flags columns; HTML a flags column and a flagged section', async () => {
    const json = JSON.parse((await runInProcess(registerClusters, ['clusters', '--data', data, '--format', 'json'])).stdout) as {
      flagged: { url: string; kinds: string[]; flags: { kind: string; sources?: { url: string }[] }[] }[]; stats: { flagged: Record<string, number> };
    };
    expect(json.stats.flagged).toEqual({ homoglyph: 1, synonymised: 1, compiled: 1 });
    expect(json.flagged.map((p) => `${p.url} ${p.kinds.join()}`)).toEqual([
      'http://made.test/compiled compiled', 'http://made.test/spoofed homoglyph', 'http://made.test/spun synonymised',
    ]);
    expect(json.flagged[0]!.flags[0]!.sources!.map((s) => s.url).sort()).toEqual(['http://src.test/1', 'http://src.test/4', 'http://src.test/7']);
    const csv = (await runInProcess(registerClusters, ['clusters', '--data', data, '--format', 'csv'])).stdout.split('\r\n');
    expect(csv[0]).toBe('cluster_id,url,kind,distance,is_primary,similarity,flags,flag_evidence');
    const spoofRow = csv.find((l) => l.includes('http://made.test/spoofed'))!;
    expect(spoofRow).toMatch(/^,http:\/\/made\.test\/spoofed,stored,,false,,homoglyph,"homoglyph: \d+ mixed-script words \(\d+%\), e\.g\. /);
    const html = (await runInProcess(registerClusters, ['clusters', '--data', data, '--format', 'html'])).stdout;
    expect(html).toContain('<section id="flagged">');
    expect(html).toMatch(/<span class="badge flag" id="flag-synonymised">synonymised<\/span><\/td><td><a [^>]*href="http:\/\/made\.test\/spun"/);
    expect(html).toContain('synonymised: spins http://src.test/5');
  });

  it('a crawl summary counts the flags of crawled pages', async () => {
    const site = await startFixtureSite({
      '127.0.0.1': {
        '/': { body: htmlPage({ title: 'Home', paragraphs: devTexts[0]!.text.split('\n\n'), links: ['/spoofed'] }) },
        '/spoofed': { body: htmlPage({ title: 'Spoofed', paragraphs: spoofed.split('\n\n') }) },
      },
    });
    const crawlData = join(dir, 'crawl');
    mkdirSync(crawlData);
    try {
      const { summary } = await crawlInto(crawlData, [site.url('127.0.0.1', '/')]);
      expect(summary.stored).toBe(2);
      expect(summary.flagged).toEqual({ homoglyph: 1 });
      expect(crawlSummaryText(summary)).toContain('  flagged: homoglyph 1\n');
    } finally {
      await site.close();
    }
  });

  it('fingerprint --json gives a file\'s own flags; compare says which file spins the other', async () => {
    const files = { original: join(dir, 'original.txt'), spoofed: join(dir, 'spoofed.txt'), spun: join(dir, 'spun.txt') };
    writeFileSync(files.original, devTexts[5]!.text);
    writeFileSync(files.spoofed, spoofed);
    // The spinner also added words of its own (no synonyms of the original's): the original's stems
    // are then explained better by the spin than the spin's by the original, and still the spin is the copy.
    writeFileSync(files.spun, `${spun}\n\nZorblax quintuplex frambulated the vexillary.`);
    const printed = JSON.parse((await runInProcess(registerFingerprint, ['fingerprint', files.spoofed, '--json'])).stdout) as { flags: { kind: string }[] };
    expect(printed.flags.map((f) => f.kind)).toEqual(['homoglyph']);
    const plain = JSON.parse((await runInProcess(registerFingerprint, ['fingerprint', files.original, '--json'])).stdout) as { flags: unknown[] };
    expect(plain.flags).toEqual([]);
    const text = (await runInProcess(registerCompare, ['compare', files.original, files.spun])).stdout.split('\n');
    expect(text[0]).toMatch(/^\d+ distinct/);
    // a is the earlier page (as the pipeline stores first): the spun b is the copy, never the reverse.
    expect(text[1]).toMatch(/^flags: b synonymised copy of a \(\d+% of stems synonyms\)$/);
    const json = JSON.parse((await runInProcess(registerCompare, ['compare', files.spun, files.original, '--json'])).stdout) as { copy: { synonymised: { kind: string; copy: string } } };
    // Spinning is symmetric (each text is the other's words or their synonyms): either order flags the later one.
    expect(json.copy.synonymised).toMatchObject({ kind: 'synonymised', copy: 'b' });
  });
});
