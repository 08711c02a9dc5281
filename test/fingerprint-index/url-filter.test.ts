import { describe, expect, it } from 'vitest';
import { UrlFilter } from '../../src/fingerprint-index/url-filter.js';
import { urlKey } from '../../src/fingerprint-index/url-key.js';
import { UrlTail } from '../../src/fingerprint-index/url-tail.js';
import { IdList } from '../../src/fingerprint-index/id-list.js';

describe('urlKey', () => {
  it('is a stable 53-bit integer that tells URLs apart', () => {
    expect(urlKey('https://example.com/')).toBe(urlKey('https://example.com/'));
    const keys = new Set<number>();
    for (let i = 0; i < 50_000; i++) {
      const key = urlKey(`https://example.com/page/${i}`);
      expect(Number.isSafeInteger(key) && key >= 0).toBe(true);
      keys.add(key);
    }
    expect(keys.size).toBe(50_000);
  });

  it('pins a value (stored in databases: changing it needs a new URL_KEY_VERSION)', () => {
    expect(urlKey('https://example.com/')).toBe(3867485296564335);
  });
});

describe('UrlFilter', () => {
  it('never forgets a key and says "maybe" for about 1% of others', () => {
    const filter = new UrlFilter(100_000);
    for (let i = 0; i < 100_000; i++) filter.add(urlKey(`https://a.example/${i}`));
    for (let i = 0; i < 100_000; i++) expect(filter.mayHave(urlKey(`https://a.example/${i}`))).toBe(true);
    let maybes = 0;
    for (let i = 0; i < 100_000; i++) if (filter.mayHave(urlKey(`https://b.example/${i}`))) maybes++;
    expect(maybes / 100_000).toBeLessThan(0.03);
    expect(filter.full).toBe(false);
    filter.add(1);
    expect(filter.full).toBe(true);
  });
});

describe('UrlTail', () => {
  it('maps keys to every id added under them, grows, and clears', () => {
    const tail = new UrlTail(16);
    for (let i = 1; i <= 10_000; i++) tail.add(urlKey(`u${i}`), i);
    tail.add(urlKey('u7'), 20_000);
    const ids = new IdList();
    tail.idsOf(urlKey('u7'), ids);
    expect(Array.from(ids.ids.subarray(0, ids.count)).sort((a, b) => a - b)).toEqual([7, 20_000]);
    ids.clear();
    tail.idsOf(urlKey('missing'), ids);
    expect(ids.count).toBe(0);
    expect(tail.size).toBe(10_001);
    tail.clear();
    tail.idsOf(urlKey('u7'), ids);
    expect(ids.count).toBe(0);
    expect(tail.size).toBe(0);
  });
});
