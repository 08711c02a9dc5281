import { describe, expect, it } from 'vitest';
import { choosePrimary, type PrimaryCandidate, type PrimaryWeights } from '../../src/primary/choose-primary.js';

const weights: PrimaryWeights = { canonical: 8, inLinks: 3, earliestDate: 2, completeness: 1, shallowUrl: 1 };

/** The stored copy (crawled first) and a rejected copy, equal in everything unless overridden. */
function pair(stored: Partial<PrimaryCandidate>, copy: Partial<PrimaryCandidate>): PrimaryCandidate[] {
  return [
    { id: 1, stored: true, url: 'http://mirror.example/a/b', inLinks: 0, textLength: 1000, ...stored },
    { id: 2, stored: false, url: 'http://origin.example/x/y', inLinks: 0, textLength: 1000, ...copy },
  ];
}

function primaryUrl(candidates: PrimaryCandidate[], w: PrimaryWeights = weights): { url: string; reasons: readonly string[] } {
  const choice = choosePrimary(candidates, w);
  return { url: candidates[choice.index]!.url, reasons: choice.reasons };
}

describe('choosePrimary', () => {
  it('keeps the stored copy when no signal tells them apart', () => {
    const { url, reasons } = primaryUrl(pair({}, {}));
    expect(url).toBe('http://mirror.example/a/b');
    expect(reasons).toEqual(['no distinguishing evidence: the stored copy']);
  });

  it('follows rel=canonical to a member, comparing normalised URLs', () => {
    const c = pair(
      { canonicalUrl: 'https://www.origin.example/x/y/' },
      { canonicalUrl: 'http://origin.example/x/y' },
    );
    const { url, reasons } = primaryUrl(c);
    expect(url).toBe('http://origin.example/x/y');
    expect(reasons[0]).toBe('canonical (2 of 2 members point here)');
  });

  it('matches a canonical against a member\'s final URL', () => {
    const c = pair({ canonicalUrl: 'http://origin.example/final' }, { finalUrl: 'http://origin.example/final' });
    expect(primaryUrl(c).url).toBe('http://origin.example/x/y');
  });

  it('lets self-canonicals of both copies cancel out', () => {
    const c = pair({ canonicalUrl: 'http://mirror.example/a/b' }, { canonicalUrl: 'http://origin.example/x/y' });
    const { url, reasons } = primaryUrl(c);
    expect(url).toBe('http://mirror.example/a/b');
    expect(reasons.some((r) => r.startsWith('canonical'))).toBe(false);
  });

  it('ignores a canonical pointing outside the cluster', () => {
    const c = pair({ canonicalUrl: 'http://elsewhere.example/' }, { canonicalUrl: 'http://elsewhere.example/' });
    expect(primaryUrl(c).url).toBe('http://mirror.example/a/b');
  });

  it('prefers more in-links', () => {
    const { url, reasons } = primaryUrl(pair({ inLinks: 3 }, { inLinks: 12 }));
    expect(url).toBe('http://origin.example/x/y');
    expect(reasons).toContain('in-links 12 vs 3');
  });

  it('prefers the earliest publication date', () => {
    const { url, reasons } = primaryUrl(pair({ publishedAt: '2024-03-05T10:00:00Z' }, { publishedAt: '2024-01-02' }));
    expect(url).toBe('http://origin.example/x/y');
    expect(reasons).toContain('earliest date 2024-01-02 vs 2024-03-05');
  });

  it('uses Last-Modified when there is no publication date, and full times on the same day', () => {
    const { url, reasons } = primaryUrl(pair(
      { lastModified: 'Tue, 02 Jan 2024 18:00:00 GMT' },
      { lastModified: '2024-01-02T09:30:00.000Z' },
    ));
    expect(url).toBe('http://origin.example/x/y');
    expect(reasons).toContain('earliest date 2024-01-02T09:30:00.000Z vs 2024-01-02T18:00:00.000Z');
  });

  it('does not count one dated member as the earliest', () => {
    const { url } = primaryUrl(pair({}, { publishedAt: '2001-01-01' }));
    expect(url).toBe('http://mirror.example/a/b');
  });

  it('ignores dates that do not parse', () => {
    const { url } = primaryUrl(pair({ publishedAt: 'yesterday' }, { publishedAt: 'last week' }));
    expect(url).toBe('http://mirror.example/a/b');
  });

  it('prefers the most complete text', () => {
    const { url, reasons } = primaryUrl(pair({ textLength: 3100 }, { textLength: 5400 }));
    expect(url).toBe('http://origin.example/x/y');
    expect(reasons).toContain('most complete text 5400 vs 3100 chars');
  });

  it('prefers the shallower URL path', () => {
    const { url, reasons } = primaryUrl(pair({ url: 'http://mirror.example/a/b/c' }, { url: 'http://origin.example/post' }));
    expect(url).toBe('http://origin.example/post');
    expect(reasons).toContain('shallower URL (path depth 1 vs 3)');
  });

  it('uses crawl depth when the paths are equally deep', () => {
    const { url, reasons } = primaryUrl(pair({ depth: 4 }, { depth: 1 }));
    expect(url).toBe('http://origin.example/x/y');
    expect(reasons).toContain('fewer crawl hops (1 vs 4)');
  });

  it('weighs the signals: canonical (8) beats in-links (3) and lists reasons strongest first', () => {
    const c = pair(
      { inLinks: 20, canonicalUrl: 'http://origin.example/x/y' },
      { inLinks: 2, publishedAt: '2020-01-01', canonicalUrl: 'http://origin.example/x/y' },
    );
    const { url, reasons } = primaryUrl(c);
    expect(url).toBe('http://origin.example/x/y');
    expect(reasons[0]).toMatch(/^canonical/);
    const heavier = primaryUrl(c, { ...weights, canonical: 0 });
    expect(heavier.url).toBe('http://mirror.example/a/b');
    expect(heavier.reasons).toEqual(['in-links 20 vs 2']);
  });

  it('orders reasons by weight and names only signals where the primary is strictly best', () => {
    const c = pair(
      { publishedAt: '2024-05-01', textLength: 900, inLinks: 5 },
      { publishedAt: '2024-01-01', textLength: 1200, inLinks: 5 },
    );
    const { url, reasons } = primaryUrl(c);
    expect(url).toBe('http://origin.example/x/y');
    expect(reasons).toEqual(['earliest date 2024-01-01 vs 2024-05-01', 'most complete text 1200 vs 900 chars']);
  });

  it('breaks ties between rejected copies by the smaller id, whatever the input order', () => {
    const a: PrimaryCandidate = { id: 9, stored: false, url: 'http://b.example/p', inLinks: 4 };
    const b: PrimaryCandidate = { id: 5, stored: false, url: 'http://a.example/p', inLinks: 4 };
    const s: PrimaryCandidate = { id: 1, stored: true, url: 'http://s.example/p', inLinks: 0 };
    expect(primaryUrl([a, b, s]).url).toBe('http://a.example/p');
    expect(primaryUrl([s, b, a]).url).toBe('http://a.example/p');
  });

  it('names the combined score when no single signal is strictly best', () => {
    const c: PrimaryCandidate[] = [
      { id: 1, stored: true, url: 'http://a.example/p', inLinks: 10, textLength: 100 },
      { id: 2, stored: false, url: 'http://b.example/p', inLinks: 9, textLength: 1000 },
      { id: 3, stored: false, url: 'http://c.example/p', inLinks: 0, textLength: 1001 },
    ];
    const { url, reasons } = primaryUrl(c);
    expect(url).toBe('http://b.example/p');
    expect(reasons[0]).toMatch(/^best on the signals together: text length \(no single signal decides; weighted score [\d.]+ vs [\d.]+ for the next copy, weights in config report\.primaryWeights\)$/);
    // And the evidence against it: a's in-links, c's longer text.
    expect(reasons.slice(1)).toEqual(['but in-links 9 vs 10 for another copy', 'but another copy\'s text is longer (1001 vs 1000 chars)']);
  });

  it('refuses an empty cluster', () => {
    expect(() => choosePrimary([], weights)).toThrow(RangeError);
  });
});

describe('choosePrimary dates', () => {
  it('treats dates less than an hour apart as the same', () => {
    const { url, reasons } = primaryUrl(pair({ lastModified: '2024-01-02T10:30:00Z' }, { lastModified: '2024-01-02T10:00:00.500Z' }));
    expect(url).toBe('http://mirror.example/a/b');
    expect(reasons).toEqual(['no distinguishing evidence: the stored copy']);
    const later = primaryUrl(pair({ lastModified: '2024-01-02T11:00:00.500Z' }, { lastModified: '2024-01-02T10:00:00Z' }));
    expect(later.url).toBe('http://origin.example/x/y');
  });
});
