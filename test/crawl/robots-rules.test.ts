import { describe, expect, it } from 'vitest';
import {
  allowAllRobots, disallowAllRobots, parseRobotsTxt, productToken, robotsAllows, robotsPatternMatches, robotsPolicyFor,
} from '../../src/crawl/robots-rules.js';

const ua = 'neardup/0.1 (near-duplicate detecting crawler)';
const allows = (robotsTxt: string, url: string, agent = ua) => robotsAllows(robotsPolicyFor(parseRobotsTxt(robotsTxt), agent), url);

describe('productToken', () => {
  it.each([
    [ua, 'neardup'],
    ['Googlebot/2.1', 'googlebot'],
    ['  my-bot ', 'my-bot'],
    ['', '*'],
  ])('%j → %j', (input, token) => {
    expect(productToken(input)).toBe(token);
  });
});

describe('robotsPatternMatches', () => {
  it.each([
    ['/', '/anything', true],
    ['/private', '/private/page', true],
    ['/private', '/privately', true],
    ['/private', '/public', false],
    ['/*.pdf', '/docs/a.pdf', true],
    ['/*.pdf$', '/docs/a.pdf', true],
    ['/*.pdf$', '/docs/a.pdf?x=1', false],
    ['/page$', '/page', true],
    ['/page$', '/pages', false],
    ['/a*b*c', '/a-x-b-y-c-z', true],
    ['/a*b*c', '/a-x-c-y-b', false],
    ['/*/edit', '/post/1/edit', true],
  ])('%j on %j → %j', (pattern, path, expected) => {
    expect(robotsPatternMatches(pattern, path)).toBe(expected);
  });
});

describe('robots.txt rules', () => {
  const robots = `
# comments are ignored
User-agent: *
Disallow: /private/
Allow: /private/open
Disallow: /*.pdf$

User-agent: otherbot
Disallow: /
`;

  it.each([
    ['http://h/', true],
    ['http://h/article', true],
    ['http://h/private/x', false],
    ['http://h/private/open/page', true],
    ['http://h/a/file.pdf', false],
    ['http://h/a/file.pdf?download=1', true],
    ['http://h/robots.txt', true],
  ])('for * groups: %s → %j', (url, expected) => {
    expect(allows(robots, url)).toBe(expected);
  });

  it('uses the group naming our product token instead of *', () => {
    expect(allows(robots, 'http://h/article', 'otherbot/1.0')).toBe(false);
    expect(allows('User-agent: neardup\nDisallow: /x\n\nUser-agent: *\nDisallow: /', 'http://h/y')).toBe(true);
    expect(allows('User-agent: neardup\nDisallow: /x\n\nUser-agent: *\nDisallow: /', 'http://h/x')).toBe(false);
  });

  it('matches agent names case-insensitively and merges groups for the same agent', () => {
    const text = 'User-agent: NearDup\nDisallow: /a\n\nUser-agent: other\nDisallow: /\n\nuser-agent: neardup\ndisallow: /b';
    expect(allows(text, 'http://h/a')).toBe(false);
    expect(allows(text, 'http://h/b')).toBe(false);
    expect(allows(text, 'http://h/c')).toBe(true);
  });

  it('shares rules among consecutive user-agent lines', () => {
    const text = 'User-agent: a\nUser-agent: neardup\nDisallow: /shared';
    expect(allows(text, 'http://h/shared')).toBe(false);
  });

  it('prefers the longest match, and Allow on a tie', () => {
    expect(allows('User-agent: *\nAllow: /p\nDisallow: /p/', 'http://h/p/x')).toBe(false);
    expect(allows('User-agent: *\nDisallow: /p\nAllow: /p/', 'http://h/p/x')).toBe(true);
    expect(allows('User-agent: *\nDisallow: /page\nAllow: /page', 'http://h/page')).toBe(true);
  });

  it('treats an empty Disallow as allow-all and no robots as allow-all', () => {
    expect(allows('User-agent: *\nDisallow:', 'http://h/any')).toBe(true);
    expect(allows('', 'http://h/any')).toBe(true);
    expect(robotsAllows(robotsPolicyFor(allowAllRobots, ua), 'http://h/x')).toBe(true);
    expect(robotsAllows(robotsPolicyFor(disallowAllRobots, ua), 'http://h/x')).toBe(false);
  });

  it('compares percent-encoded paths with unencoded patterns, and query strings', () => {
    expect(allows('User-agent: *\nDisallow: /café', 'http://h/caf%C3%A9/menu')).toBe(false);
    expect(allows('User-agent: *\nDisallow: /caf%c3%a9', 'http://h/café')).toBe(false);
    expect(allows('User-agent: *\nDisallow: /search?q=', 'http://h/search?q=x')).toBe(false);
    expect(allows('User-agent: *\nDisallow: /search?q=', 'http://h/search')).toBe(true);
  });

  it('reads Crawl-delay and ignores junk lines', () => {
    const policy = robotsPolicyFor(parseRobotsTxt('garbage line\nUser-agent: *\nCrawl-delay: 2.5\nSitemap: http://h/s.xml\nDisallow: /x'), ua);
    expect(policy.crawlDelaySecs).toBe(2.5);
    expect(policy.rules).toEqual([{ allow: false, pattern: '/x' }]);
  });

  it('refuses URLs it cannot parse', () => {
    expect(allows('', 'not a url')).toBe(false);
  });
});
