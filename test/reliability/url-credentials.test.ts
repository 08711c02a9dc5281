/**
 * Issue 19, case 5: user-info in URLs (`http://user:pass@host/page`). neardup's rule: user-info
 * is removed from every URL before it is fetched, queued or recorded (links, `<base>`,
 * canonical URLs, redirect targets, seeds), so a page is fetched without credentials (no
 * `Authorization` header) under the URL without them, and no password reaches any output: the
 * database, corpus.jsonl, crawlee's queue and frontier journal, or a clusters report.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { registerClusters } from '../../src/cli/clusters-command.js';
import { startFixtureSite } from '../helpers/fixture-site.js';
import { runInProcess } from '../helpers/run-cli.js';
import { crawlInto, freshDataDir, wordsPage } from '../helpers/small-crawl.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const password = 'hunter2-s3cret';
const user = 'alice-login';

/** Every file under a folder, as bytes read as latin1 (a password in any encoding of ASCII shows). */
function allBytes(dir: string): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...allBytes(path));
    else out.push({ path, text: readFileSync(path).toString('latin1') });
  }
  return out;
}

describe('credentials in URLs', () => {
  it('are never sent and never written to any output', async () => {
    const site = await startFixtureSite({});
    cleanups.push(() => site.close());
    const authorizations: string[] = [];
    const origin = site.origin('127.0.0.1');
    const withCreds = (path: string) => `http://${user}:${password}@127.0.0.1:${site.port}${path}`;
    const record = (body: string) => (request: { headers: Record<string, unknown>; path: string }) => {
      if (request.headers.authorization !== undefined) authorizations.push(`${request.path}: ${String(request.headers.authorization)}`);
      return { body };
    };
    const original = wordsPage(51, { title: 'Original' });
    site.setRoute('127.0.0.1', '/', record(wordsPage(50, {
      title: 'Hub',
      links: ['/original', withCreds('/secret-copy'), withCreds('/moved'), `http://${user}@127.0.0.1:${site.port}/user-only`, '/based/'],
    })));
    site.setRoute('127.0.0.1', '/original', record(original));
    // The same text as /original: a duplicate, so the report has a cluster naming this URL.
    site.setRoute('127.0.0.1', '/secret-copy', record(original.replace('<title>Original', '<title>Copy')));
    site.setRoute('127.0.0.1', '/moved', { status: 302, redirect: withCreds('/landing') });
    site.setRoute('127.0.0.1', '/landing', record(wordsPage(52, { title: 'Landing' })));
    site.setRoute('127.0.0.1', '/user-only', record(wordsPage(53, { title: 'User only', head: `<link rel="canonical" href="${withCreds('/user-only')}">` })));
    site.setRoute('127.0.0.1', '/based/', record(wordsPage(54, { title: 'Based', head: `<base href="${withCreds('/in-base/')}">`, links: ['leaf'] })));
    site.setRoute('127.0.0.1', '/in-base/leaf', record(wordsPage(55, { title: 'Leaf' })));
    const { dataDir, remove } = freshDataDir('credentials');
    cleanups.push(remove);
    // The seed carries credentials too.
    const { results } = await crawlInto(dataDir, [withCreds('/')]);

    expect(authorizations, 'requests sent with credentials').toEqual([]);
    // Each page was still fetched, under its URL without user-info.
    for (const path of ['/', '/original', '/secret-copy', '/landing', '/user-only', '/based/', '/in-base/leaf']) {
      expect(site.pathsFetched('127.0.0.1'), path).toContain(path);
    }
    const judged = [...results.stored.keys(), ...results.rejected.keys()];
    expect(judged).toContain(`${origin}/secret-copy`);
    expect(results.stored.get(`${origin}/moved`)?.finalUrl).toBe(`${origin}/landing`);

    const report = await runInProcess(registerClusters, ['clusters', '--data', dataDir, '--format', 'json']);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toContain(`${origin}/secret-copy`);
    const html = await runInProcess(registerClusters, ['clusters', '--data', dataDir, '--format', 'html']);
    const csv = await runInProcess(registerClusters, ['clusters', '--data', dataDir, '--format', 'csv']);
    const outputs = [
      ...allBytes(dataDir),
      { path: 'clusters json', text: report.stdout },
      { path: 'clusters html', text: html.stdout },
      { path: 'clusters csv', text: csv.stdout },
    ];
    const leaks = outputs.filter((o) => o.text.includes(password) || o.text.includes(user)).map((o) => o.path);
    expect(leaks, 'outputs holding the credentials').toEqual([]);
  });
});
