import { afterEach, describe, expect, it } from 'vitest';
import { RobotsCache } from '../../src/crawl/robots-cache.js';
import type { OriginRobots } from '../../src/crawl/robots-cache.js';
import { startFixtureSite } from '../helpers/fixture-site.js';
import type { FixtureRoute, FixtureSite } from '../helpers/fixture-site.js';

const userAgent = 'neardup/0.1 (test)';
let site: FixtureSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

async function serve(robots: FixtureRoute): Promise<FixtureSite> {
  site = await startFixtureSite({ '*': { '/robots.txt': robots } });
  return site;
}

describe('RobotsCache', () => {
  it('fetches robots.txt once per origin with our User-Agent, then answers without waiting', async () => {
    const s = await serve({ body: 'User-agent: *\nDisallow: /no\nCrawl-delay: 3', headers: { 'content-type': 'text/plain' } });
    const seen: [string, OriginRobots][] = [];
    const cache = new RobotsCache({ userAgent, onOrigin: (origin, robots) => seen.push([origin, robots]) });
    const [a, b] = await Promise.all([cache.allows(s.url('127.0.0.1', '/yes')), cache.allows(s.url('127.0.0.1', '/no/x'))]);
    expect([a, b]).toEqual([true, false]);
    expect(cache.allows(s.url('127.0.0.1', '/no'))).toBe(false);
    expect(cache.allows(new URL(s.url('127.0.0.1', '/other')))).toBe(true);
    expect(await cache.crawlDelaySecs(s.url('127.0.0.1', '/'))).toBe(3);
    expect(s.hits.map((hit) => [hit.path, hit.userAgent])).toEqual([['/robots.txt', userAgent]]);
    expect(seen.map(([origin, robots]) => [origin, robots.source])).toEqual([[s.origin('127.0.0.1'), 'fetched']]);
    // Another host name is another origin.
    expect(await cache.allows(s.url('localhost', '/no'))).toBe(false);
    expect(s.hits).toHaveLength(2);
  });

  it.each([
    [{ status: 404, body: '' }, true, 'HTTP 404'],
    [{ status: 401, body: '' }, true, 'HTTP 401'],
    [{ status: 500, body: '' }, false, 'unreachable: HTTP 500'],
    [{ status: 503, body: '' }, false, 'unreachable: HTTP 503'],
  ])('reads %j as allow=%j (RFC 9309)', async (robots, allowed, source) => {
    const s = await serve(robots);
    const cache = new RobotsCache({ userAgent });
    expect(await cache.allows(s.url('127.0.0.1', '/page'))).toBe(allowed);
    expect((await cache.forUrl(s.url('127.0.0.1', '/'))).source).toBe(source);
  });

  it('disallows everything when robots.txt times out', async () => {
    const s = await serve({ body: 'User-agent: *\nAllow: /', delayMs: 2000 });
    const cache = new RobotsCache({ userAgent, timeoutMs: 200 });
    expect(await cache.allows(s.url('127.0.0.1', '/page'))).toBe(false);
    expect((await cache.forUrl(s.url('127.0.0.1', '/'))).source).toMatch(/^unreachable: /);
  });

  it('follows a redirect of robots.txt and reads at most maxBytes', async () => {
    site = await startFixtureSite({
      '127.0.0.1': {
        '/robots.txt': { status: 301, redirect: '/real-robots.txt' },
        '/real-robots.txt': { body: `User-agent: *\nDisallow: /a\n${'#'.repeat(5000)}\nDisallow: /b\n`, headers: { 'content-type': 'text/plain' } },
      },
    });
    const cache = new RobotsCache({ userAgent, maxBytes: 1000 });
    expect(await cache.allows(site.url('127.0.0.1', '/a'))).toBe(false);
    // The rule beyond the cap is not read.
    expect(await cache.allows(site.url('127.0.0.1', '/b'))).toBe(true);
  });

  it('allows everything and fetches nothing when disabled', async () => {
    const s = await serve({ body: 'User-agent: *\nDisallow: /' });
    const cache = new RobotsCache({ userAgent, enabled: false });
    expect(cache.allows(s.url('127.0.0.1', '/x'))).toBe(true);
    expect(await cache.crawlDelaySecs(s.url('127.0.0.1', '/x'))).toBeNull();
    expect(s.hits).toHaveLength(0);
  });
});
