import { describe, expect, it } from 'vitest';
import { comparableUrl, httpHref, urlHost, urlPathDepth } from '../../src/report/comparable-url.js';

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
