/**
 * Crawls the generated hostile site (scripts/hostile-site.ts: binary bodies, 50 MB pages,
 * broken and legacy charsets, 100,000-deep nesting, 10 MB attributes, redirect loops and
 * redirects off host and off http, robots.txt, empty and script-only pages, stalled servers,
 * HTTP errors, odd URLs) with the real CLI in a child process, and checks what the crawl
 * promises: it ends (exit 0, no hang, no stack trace), every page is stored or recorded with a
 * reason, each kind of page gets an outcome that fits it, it never leaves its scope nor fetches
 * what robots.txt disallows, it stores nothing from scripts, data: URLs or local files, its data
 * folder is consistent, and it writes nothing outside --data.
 *
 * One crawl serves every check (one to three minutes on a loaded 2-core machine: stalled pages
 * cost their timeout on each attempt, and the 10 MB pages take seconds to parse).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE_FAMILIES, routeKey } from '../helpers/hostile-site.js';
import { checkDataDir } from '../helpers/fault-crawl.js';
import { CRAWL_LIMIT_MS, familyProblems, listFiles, runHostileCrawl } from './hostile-crawl-run.js';
import type { HostileCrawl } from './hostile-crawl-run.js';

/** Longest URL a record may carry (a 200,000-character href must not become a 200,000-character row). */
const MAX_RECORDED_URL = 65_536;

describe('crawl of the hostile site', () => {
  let c: HostileCrawl;

  beforeAll(async () => {
    c = await runHostileCrawl();
  }, CRAWL_LIMIT_MS + 60_000);

  afterAll(async () => {
    await c?.cleanup();
  });

  it('ends by itself with exit 0 and no stack trace', () => {
    expect(c.run.killed, `the crawl did not end within ${CRAWL_LIMIT_MS} ms (a hang); stderr: ${c.run.stderr.slice(-1000)}`).toBe(false);
    expect(c.run.code, c.run.stderr.slice(-2000)).toBe(0);
    expect(c.run.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    expect(c.run.stderr).not.toMatch(/unexpected error|database is locked|SQLITE_BUSY/i);
    const summary = JSON.parse(c.run.stdout) as { stopReason?: string };
    expect(summary.stopReason).toBe('finished');
  });

  it('serves at least 200 hostile pages, in every family', () => {
    expect(c.site.expectations.length).toBeGreaterThanOrEqual(200);
    expect(new Set(c.site.expectations.map((e) => e.family))).toEqual(new Set(HOSTILE_FAMILIES));
  });

  it('stores or records with a reason every page it was linked to', () => {
    const missing = c.site.expectations.filter((e) => e.outcome !== 'not-fetched' && c.outcomesOf(e).length === 0)
      .map((e) => `${e.path.slice(0, 80)} (${e.family}: ${e.note})`);
    expect(missing, `not stored and not recorded:\n${missing.join('\n')}`).toEqual([]);
  });

  it('records every page it fetched (requests on the site match records)', () => {
    const unrecorded = new Set<string>();
    for (const r of c.site.requests) {
      if (r.host !== c.site.host || c.site.classify(r.path) !== 'route') continue;
      if (c.outcomesOf(r.path).length === 0) unrecorded.add(r.path.slice(0, 100));
    }
    expect([...unrecorded]).toEqual([]);
  });

  describe.each(HOSTILE_FAMILIES)('family %s', (family) => {
    it('gets outcomes that fit its pages', () => {
      const wrong = familyProblems(c, family);
      expect(wrong, wrong.join('\n')).toEqual([]);
    });
  });

  it('never leaves the host scope (no request to localhost or [::1], no record of another host)', () => {
    const offHost = c.site.requests.filter((r) => r.host !== c.site.host).map((r) => `${r.host} ${r.path.slice(0, 80)}`);
    expect(offHost, `requests to other hosts:\n${offHost.join('\n')}`).toEqual([]);
    const judged = [...c.report.stored, ...c.report.rejected].flatMap((d) => [d.url, d.finalUrl ?? d.url]);
    expect(judged.filter((u) => new URL(u).host !== c.site.host)).toEqual([]);
  });

  it('fetches no linked page robots.txt disallows, and records each as skipped `robots`', () => {
    const robots = c.site.expectations.filter((e) => e.outcome === 'not-fetched');
    expect(robots.length).toBeGreaterThan(0);
    const linked = new Set(robots.map((e) => routeKey(e.path)));
    const fetched = c.site.requests.filter((r) => linked.has(routeKey(r.path))).map((r) => r.path);
    expect(fetched, `robots.txt disallows /private/, yet the crawl fetched: ${fetched.join(', ')}`).toEqual([]);
    const unrecorded = robots.filter((e) => !c.outcomesOf(e).some((o) => o.kind === 'skipped' && o.reason === 'robots'));
    expect(unrecorded.map((e) => e.path)).toEqual([]);
  });

  it('fetches nothing robots.txt disallows, not even through a redirect', () => {
    const fetched = c.site.requests.filter((r) => routeKey(r.path).startsWith('/private/')).map((r) => r.path);
    expect(fetched, `robots.txt disallows /private/, yet the crawl fetched: ${fetched.join(', ')}`).toEqual([]);
  });

  it('records no absurdly long URL (a 200,000-character href is not a URL to fetch)', () => {
    const long = [...c.report.stored, ...c.report.rejected, ...c.report.skipped].filter((r) => r.url.length > MAX_RECORDED_URL);
    expect(long.map((r) => `${r.url.slice(0, 60)}... (${r.url.length} chars)`)).toEqual([]);
  });

  it('stores no text from scripts, styles, templates, data: URLs or local files', () => {
    const stored = c.report.corpus.flatMap((l) => (l.record === null ? [] : [`${String(l.record.title)}\n${String(l.record.text)}`]));
    for (const marker of [...c.site.forbiddenMarkers, c.sentinel, 'root:x:0:0']) {
      const hits = stored.filter((t) => t.includes(marker));
      expect(hits.map((t) => t.slice(0, 100)), `marker ${marker} was stored`).toEqual([]);
    }
  });

  it('leaves a consistent data folder (one row per URL, no stored pair within k, corpus = stored set)', () => {
    expect(checkDataDir(c.report)).toEqual([]);
    expect(c.report.stored.length).toBeGreaterThan(50);
  });

  it('keeps only its own files in --data, none named after a URL', () => {
    // neardup's outputs, the crawl lock (crawl-lock.ts), and the frontier journal (crawlee's queue itself is in memory).
    const own = /^(neardup\.db(-wal|-shm)?|corpus\.jsonl|crawl\.lock|crawlee\/|crawlee\/neardup-frontier\.jsonl)$/;
    const files = listFiles(c.dataDir);
    expect(files.filter((f) => !own.test(f))).toEqual([]);
    expect(readFileSync(join(c.dataDir, 'crawlee', 'neardup-frontier.jsonl'), 'utf8').split('\n').length).toBeGreaterThan(200);
  });

  it('writes nothing outside --data (working directory, HOME and TMPDIR stay empty)', () => {
    expect(listFiles(c.cwd)).toEqual([]);
    expect(listFiles(c.home)).toEqual([]);
    // tsx (which scripts/neardup-from-source.js runs the TypeScript sources with) keeps its compile cache in
    // $TMPDIR/tsx-<uid>/: a property of running from source, not one of neardup's outputs.
    expect(listFiles(c.tmp).filter((f) => !/^tsx-\d+(\/|$)/.test(f))).toEqual([]);
    expect(readdirSync(c.work).sort()).toEqual(['cwd', 'data', 'home', 'secret.txt', 'tmp']);
  });
});
