import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../src/extract/extract-page.js';
import { documentOf } from '../../src/extract/dom-node.js';
import { readPageMetadata, resolveHttpUrl, toIsoDate } from '../../src/extract/page-metadata.js';

describe('toIsoDate', () => {
  const cases: readonly [string | null | undefined, string | null][] = [
    ['2024-03-05T08:30:00+01:00', '2024-03-05T07:30:00.000Z'],
    ['2024-03-05', '2024-03-05T00:00:00.000Z'],
    ['Tue, 19 Nov 2019 14:00:00 GMT', '2019-11-19T14:00:00.000Z'],
    ['  2019-11-18T21:10:29Z  ', '2019-11-18T21:10:29.000Z'],
    ['1574168580', null],
    ['yesterday', null],
    ['0001-01-01', null],
    ['', null],
    [null, null],
    [undefined, null],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)} → ${expected}`, () => {
      expect(toIsoDate(input)).toBe(expected);
    });
  }
});

describe('resolveHttpUrl', () => {
  const cases: readonly [string, string | null, string | null][] = [
    ['/a/b?c=1#frag', 'https://example.com/x/y', 'https://example.com/a/b?c=1'],
    ['  ../up  ', 'https://example.com/x/y/z', 'https://example.com/x/up'],
    ['//cdn.example.org/lib.js', 'http://example.com/', 'http://cdn.example.org/lib.js'],
    ['HTTPS://EXAMPLE.COM/Path', null, 'https://example.com/Path'],
    ['relative', null, null],
    ['#only-fragment', 'https://example.com/', null],
    ['mailto:someone@example.com', 'https://example.com/', null],
    ['javascript:alert(1)', 'https://example.com/', null],
    ['http://[bad', 'https://example.com/', null],
    ['', 'https://example.com/', null],
  ];
  for (const [href, base, expected] of cases) {
    it(`${href} against ${base}`, () => {
      expect(resolveHttpUrl(href, base)).toBe(expected);
    });
  }
});

describe('readPageMetadata', () => {
  it('prefers the most specific date meta tag', () => {
    const $ = parseHtml('<html><head><meta name="date" content="2010-01-01"><meta property="article:published_time" content="2020-05-05T05:05:05Z"></head></html>');
    expect(readPageMetadata(documentOf($)).publishedAt).toBe('2020-05-05T05:05:05.000Z');
  });

  it('ignores an unusable <base href> and resolves against the page URL', () => {
    const $ = parseHtml('<html><head><base href="http://[broken"></head><body><a href="x">x</a></body></html>');
    const meta = readPageMetadata(documentOf($), 'https://example.com/dir/');
    expect(meta.baseUrl).toBe('https://example.com/dir/');
    expect(meta.links).toEqual(['https://example.com/dir/x']);
  });

  it('reads rel=canonical among other rel tokens, and the first one only', () => {
    const $ = parseHtml('<link rel="alternate" href="/alt"><link rel="Canonical shortlink" href="/first"><link rel="canonical" href="/second">');
    expect(readPageMetadata(documentOf($), 'https://example.com/').canonicalUrl).toBe('https://example.com/first');
  });

  it('falls back to a Content-Language meta for the language', () => {
    const $ = parseHtml('<html><head><meta http-equiv="content-language" content="de-AT, de"></head></html>');
    expect(readPageMetadata(documentOf($)).declaredLanguage).toBe('de-at');
  });
});
