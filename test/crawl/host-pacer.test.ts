import { describe, expect, it } from 'vitest';
import { HostPacer } from '../../src/crawl/host-pacer.js';

describe('HostPacer', () => {
  it('spaces request starts on one host by the interval, hosts independently', () => {
    const pacer = new HostPacer({ intervalMs: 100 });
    expect(pacer.reserve('a', 1000)).toBe(0);
    expect(pacer.reserve('a', 1040)).toBe(60);
    expect(pacer.reserve('b', 1040)).toBe(0);
    expect(pacer.reserve('a', 1100)).toBe(0);
    expect(pacer.reserve('a', 1150)).toBe(50);
  });

  it('applies a longer Crawl-delay, capped, and never a shorter one', () => {
    const pacer = new HostPacer({ intervalMs: 100, maxIntervalMs: 5000 });
    pacer.setCrawlDelay('slow', 2);
    pacer.setCrawlDelay('capped', 60);
    pacer.setCrawlDelay('fast', 0.01);
    pacer.setCrawlDelay('none', null);
    for (const host of ['slow', 'capped', 'fast', 'none']) expect(pacer.reserve(host, 0)).toBe(0);
    expect(pacer.reserve('slow', 1)).toBe(1999);
    expect(pacer.reserve('capped', 1)).toBe(4999);
    expect(pacer.reserve('fast', 1)).toBe(99);
    expect(pacer.reserve('none', 1)).toBe(99);
  });

  it('books slots back to back within the horizon, and says when to ask again beyond it', () => {
    const pacer = new HostPacer({ intervalMs: 100 });
    expect(pacer.book('a', 1000, 200)).toEqual({ startInMs: 0 });
    expect(pacer.book('a', 1000, 200)).toEqual({ startInMs: 100 });
    expect(pacer.book('a', 1010, 200)).toEqual({ startInMs: 190 });
    // The next slot (1300) is 290 ms away: beyond the horizon, nothing booked.
    expect(pacer.book('a', 1010, 200)).toEqual({ retryInMs: 90 });
    expect(pacer.book('a', 1100, 200)).toEqual({ startInMs: 200 });
    expect(pacer.book('b', 1100, 200)).toEqual({ startInMs: 0 });
    // An idle host's slot is never in the past.
    expect(pacer.book('b', 5000, 200)).toEqual({ startInMs: 0 });
    expect(pacer.book('b', 5000, 200)).toEqual({ startInMs: 100 });
  });
});
