import { describe, expect, it } from 'vitest';
import { hostnameOf, parseHttpUrl, siteHost, urlHost } from '../../src/url/url-host.js';

describe('url-host', () => {
  it.each([
    ['http://www.Example.com/a', 'example.com'],
    ['https://user:pw@www2.news.example.org:8080/x', 'news.example.org'],
    ['//cdn.example.net/x', null],
    ['mailto:a@b.c', null],
    [' HTTP://A.B ', 'a.b'],
  ])('siteHost(%j) = %j', (url, host) => {
    expect(siteHost(url)).toBe(host);
  });

  it('parses only http(s) URLs; urlHost ignores surrounding white space, hostnameOf any scheme', () => {
    expect(parseHttpUrl('ftp://a.example/')).toBeNull();
    expect(parseHttpUrl('https://a.example/x')?.hostname).toBe('a.example');
    expect(urlHost('  https://A.Example/x ')).toBe('a.example');
    expect(urlHost('file:///etc/passwd')).toBeNull();
    expect(hostnameOf('ftp://files.example/x')).toBe('files.example');
    expect(hostnameOf('not a url')).toBe('');
  });
});
