/**
 * kill -9 at random moments, then resume with the same --data: the result must equal an
 * uninterrupted run's (stored, rejected and skipped URL sets), with no document stored twice, no
 * stored pair within distance k, and a corpus.jsonl without torn or duplicated lines that lists
 * exactly the stored documents. For `neardup crawl` (a local site with mirrors and near copies)
 * and `neardup dedup` (the same documents as JSONL).
 *
 * This is the short version of scripts/fault-crawl.ts (which kills 10 times on a 2,000-page
 * site): 3 kills with a fixed seed on a ~600-page site, to stay within a few minutes in CI on a
 * loaded 2-core machine. Each kill is certain whatever the machine's speed: the run freezes its
 * corpus writes after a random share of the stored documents (NEARDUP_FAULT_FREEZE, just before or
 * just after a corpus line) and is killed a random moment later while the crawler, the workers and
 * the queue run on (see runFaultCrawl); the crawl's kills also tear the frontier journal's last
 * line, the rarest thing a kill does, made certain.
 */
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkDataDir, inspectDataDir, nearStoredPairs, runFaultCrawl } from '../helpers/fault-crawl.js';
import type { FaultMode, MirrorSiteOptions } from '../helpers/fault-crawl.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const SITE: MirrorSiteOptions = { originals: 400, mirrors: 100, nears: 100 };
const KILLS = 3;
const LIMIT_MS = 240_000;

describe('kill -9 and resume', () => {
  const tryMode = (mode: FaultMode, seed: number, tearJournal = false) => async () => {
    const workDir = makeTempDir(`neardup-kill-${mode}-`);
    const log: string[] = [];
    try {
      // Dedup in small batches, so that the documents in flight at a kill are a few of many.
      const extraArgs = mode === 'dedup' ? ['--max-in-flight', '16'] : [];
      const result = await runFaultCrawl({ mode, kills: KILLS, seed, workDir, site: SITE, tearJournal, extraArgs, timeoutMs: LIMIT_MS, log: (l) => log.push(l) });
      const context = `\n${log.join('\n')}`;
      if (tearJournal) expect(result.tornJournalLines, context).toBe(KILLS);
      // Every run froze before its end and was killed there.
      expect(result.kills.filter((k) => k.killed).length, `runs killed${context}`).toBe(KILLS);
      expect(result.problems, `problems after ${KILLS} kills:${context}`).toEqual([]);
      // The uninterrupted run itself did what the site asks: every original (and the home page)
      // stored, every byte mirror rejected.
      expect(result.baseline.storedUrls.length).toBeGreaterThanOrEqual(SITE.originals! + 1);
      expect(result.baseline.rejected.filter((d) => d.kind === 'exact').length).toBe(SITE.mirrors);
      expect(result.faulted.storedUrls.length).toBe(result.baseline.storedUrls.length);
    } finally {
      rmSync(workDir, { recursive: true, force: true });
    }
  };

  // After each kill of the crawl, the frontier journal's last line is also cut in the middle: what a
  // kill during an append leaves, made certain.
  it('crawl: the stored set equals an uninterrupted crawl\'s, even with the journal\'s last line torn, and the data folder is whole',
    tryMode('crawl', 7, true), LIMIT_MS * 3);

  it('dedup: the stored set equals an uninterrupted run\'s, and the data folder is whole', tryMode('dedup', 11), LIMIT_MS * 3);

  it('the data-folder checks catch a stored pair within k, a torn line, a duplicated line and a missing line', async () => {
    const pair = [{ url: 'a', fingerprint: { hi: 0x80000000, lo: 0 } }, { url: 'b', fingerprint: { hi: 0x80000000, lo: 7 } }, { url: 'c', fingerprint: { hi: 0x7fffffff, lo: 0xfffffff0 } }];
    expect(nearStoredPairs(pair, 3)).toEqual([['a', 'b', 3]]);
    const workDir = makeTempDir('neardup-kill-checks-');
    try {
      const result = await runFaultCrawl({ mode: 'dedup', kills: 0, seed: 1, workDir, site: { originals: 30, mirrors: 5, nears: 5 }, timeoutMs: LIMIT_MS });
      expect(result.problems).toEqual([]);
      const dataDir = join(workDir, 'faulted');
      const corpus = join(dataDir, 'corpus.jsonl');
      const original = readFileSync(corpus, 'utf8');
      expect(checkDataDir(await inspectDataDir(dataDir))).toEqual([]);
      const lines = original.split('\n').filter((l) => l !== '');

      appendFileSync(corpus, lines[0]!.slice(0, 40));
      expect(checkDataDir(await inspectDataDir(dataDir)).join('\n')).toMatch(/torn line/);

      writeFileSync(corpus, `${original}${lines[3]}\n`);
      expect(checkDataDir(await inspectDataDir(dataDir)).join('\n')).toMatch(/more than one corpus\.jsonl line/);

      writeFileSync(corpus, `${lines.slice(1).join('\n')}\n`);
      expect(checkDataDir(await inspectDataDir(dataDir)).join('\n')).toMatch(/no corpus\.jsonl line/);
    } finally {
      rmSync(workDir, { recursive: true, force: true });
    }
  }, LIMIT_MS);
});
