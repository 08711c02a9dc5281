import { describe, expect, it } from 'vitest';
import { createCrawlScope, inCrawlScope } from '../../src/crawl/crawl-scope.js';
import type { ScopeMode } from '../../src/types.js';
import { ValidationError } from '../../src/errors.js';

describe('crawl scope', () => {
  const seeds = ['https://www.example.co.uk/start', 'http://127.0.0.1:8080/'];

  it.each<[ScopeMode, string, boolean]>([
    ['host', 'https://www.example.co.uk/other', true],
    ['host', 'http://www.example.co.uk/other', true],
    ['host', 'https://WWW.EXAMPLE.CO.UK/x', true],
    ['host', 'https://blog.example.co.uk/', false],
    ['host', 'http://127.0.0.1:9999/x', true],
    ['host', 'http://localhost:8080/', false],
    ['domain', 'https://blog.example.co.uk/', true],
    ['domain', 'https://example.co.uk/', true],
    ['domain', 'https://other.co.uk/', false],
    ['domain', 'http://127.0.0.1/x', true],
    ['domain', 'http://localhost:8080/', false],
    ['any', 'https://anywhere.test/', true],
    ['any', 'mailto:someone@example.co.uk', false],
    ['any', 'javascript:alert(1)', false],
    ['host', 'file:///etc/passwd', false],
    ['host', 'not a url', false],
  ])('%s: %s → %j', (mode, url, expected) => {
    expect(inCrawlScope(createCrawlScope(seeds, mode), url)).toBe(expected);
  });

  it('keeps public-suffix domains apart', () => {
    const scope = createCrawlScope(['https://alice.github.io/'], 'domain');
    expect(inCrawlScope(scope, 'https://alice.github.io/page')).toBe(true);
    expect(inCrawlScope(scope, 'https://bob.github.io/page')).toBe(false);
  });

  it.each([['ftp://example.com/'], ['example.com'], ['']])('refuses the seed %j', (seed) => {
    expect(() => createCrawlScope([seed], 'host')).toThrow(ValidationError);
  });

  it('refuses an unknown mode', () => {
    expect(() => createCrawlScope(['http://a.test/'], 'site' as ScopeMode)).toThrow(/Expected `scope` to be one of host\|domain\|any, got `site`/);
  });
});
