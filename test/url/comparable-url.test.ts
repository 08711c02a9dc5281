import { describe, expect, it } from 'vitest';
import { comparableUrl, httpHref, urlFacts, urlPathDepth } from '../../src/url/comparable-url.js';
import { hostReader, urlHost } from '../../src/url/url-host.js';

describe('comparableUrl', () => {
  it.each([
    ['http://example.com/a', 'https://www.EXAMPLE.com/a/'],
    ['http://example.com/a#top', 'http://example.com/a'],
    ['http://example.com:80/', 'http://example.com'],
    ['https://example.com:443/x', 'http://example.com/x'],
    ['http://example.com/caf%c3%a9', 'http://example.com/caf%C3%A9'],
    ['http://example.com/a?', 'http://example.com/a'],
  ])('treats %s and %s as the same page', (a, b) => {
    expect(comparableUrl(a)).toBe(comparableUrl(b));
  });

  it.each([
    ['http://example.com/a', 'http://example.com/b'],
    ['http://example.com/a?x=1', 'http://example.com/a?x=2'],
    ['http://example.com:8080/a', 'http://example.com/a'],
    ['http://a.example.com/', 'http://b.example.com/'],
  ])('keeps %s and %s apart', (a, b) => {
    expect(comparableUrl(a)).not.toBe(comparableUrl(b));
  });

  it('leaves non-http strings as they are (trimmed)', () => {
    expect(comparableUrl(' docs/a.html ')).toBe('docs/a.html');
    expect(comparableUrl('javascript:alert(1)')).toBe('javascript:alert(1)');
  });
});

describe('urlHost, urlPathDepth, httpHref', () => {
  it('reads hosts of http(s) URLs only', () => {
    expect(urlHost('https://Sub.Example.org/x')).toBe('sub.example.org');
    expect(urlHost('file:///etc/passwd')).toBeNull();
    expect(urlHost('a/b.html')).toBeNull();
  });

  it.each([
    ['http://e.com/', 0],
    ['http://e.com', 0],
    ['http://e.com/a', 1],
    ['http://e.com/a/b/', 2],
    ['http://e.com//a//b', 2],
    ['a/b/c.html', null],
  ])('path depth of %s is %s', (url, depth) => {
    expect(urlPathDepth(url)).toBe(depth);
  });

  it('gives an href only for http(s)', () => {
    expect(httpHref('http://e.com/a b')).toBe('http://e.com/a%20b');
    expect(httpHref('javascript:alert(1)')).toBeNull();
    expect(httpHref('JaVaScRiPt:alert(1)')).toBeNull();
    expect(httpHref('data:text/html,<script>alert(1)</script>')).toBeNull();
    expect(httpHref('  javascript:alert(1)')).toBeNull();
  });
});

describe('hostReader and urlFacts', () => {
  it.each([
    'http://Example.COM/a',
    'HTTPS://example.com:8443/x?y#z',
    '  http://user:pw@exa\tmple.com/',
    'http://xn--caf-dma.example/',
    'http://café.example/',
    'http:/example.com/a',
    'http:\\\\example.com\\a',
    '\u00a0http://example.com/',
    'ftp://example.com/',
    'docs/a.html',
    'http://[::1]:8080/',
    'http://192.168.0.1/',
  ])('answers like urlHost for %j, twice', (raw) => {
    const read = hostReader();
    expect(read(raw)).toBe(urlHost(raw));
    expect(read(raw)).toBe(urlHost(raw));
  });

  it('gives the key and depth of one parse', () => {
    expect(urlFacts('https://www.e.com/a/b/')).toEqual({ key: comparableUrl('https://www.e.com/a/b/'), pathDepth: 2 });
    expect(urlFacts(' x/y ')).toEqual({ key: 'x/y', pathDepth: null });
  });
});
