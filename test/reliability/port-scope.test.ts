/**
 * Issue 19: which ports `--scope host` covers. The rule (README): scope compares host names only,
 * so every port and both schemes of a seed's host name are in scope (`http://127.0.0.1:8080/`
 * seeds `http://127.0.0.1:9090/` and `https://127.0.0.1/`), while another name for the same
 * machine (`localhost`) is not. Pinned here with two servers on two ports of 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createCrawlScope, inCrawlScope } from '../../src/crawl/crawl-scope.js';
import { startFixtureSite } from '../helpers/fixture-site.js';
import { crawlInto, freshDataDir, wordsPage } from '../helpers/small-crawl.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('--scope host and ports', () => {
  it('puts every port and scheme of the seed host name in scope, and no other name', () => {
    const scope = createCrawlScope(['http://127.0.0.1:8080/'], 'host');
    expect(inCrawlScope(scope, 'http://127.0.0.1:9090/x')).toBe(true);
    expect(inCrawlScope(scope, 'https://127.0.0.1/x')).toBe(true);
    expect(inCrawlScope(scope, 'http://localhost:8080/x')).toBe(false);
  });

  it('crawls a page on another port of the same host name, not one under another name', async () => {
    const a = await startFixtureSite({});
    const b = await startFixtureSite({});
    cleanups.push(() => a.close(), () => b.close());
    a.setRoute('127.0.0.1', '/', { body: wordsPage(500, { links: [b.url('127.0.0.1', '/other-port'), b.url('localhost', '/other-name')] }) });
    b.setRoute('127.0.0.1', '/other-port', { body: wordsPage(501) });
    b.setRoute('localhost', '/other-name', { body: wordsPage(502) });
    const { dataDir, remove } = freshDataDir('port-scope');
    cleanups.push(remove);
    const { results } = await crawlInto(dataDir, [a.url('127.0.0.1', '/')]);
    expect(results.stored.has(b.url('127.0.0.1', '/other-port'))).toBe(true);
    expect(b.pathsFetched('localhost')).toEqual([]);
  });
});
