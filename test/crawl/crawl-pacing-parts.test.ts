import type { Request } from '@crawlee/cheerio';
import { describe, expect, it } from 'vitest';
import { HostParking } from '../../src/crawl/host-parking.js';
import { PendingVerdicts, verdictLimit } from '../../src/crawl/pending-verdicts.js';

const request = (url: string) => ({ url }) as unknown as Request;

describe('HostParking', () => {
  it('hands out the oldest request of a host that is ready, and none while no host is', () => {
    const parking = new HostParking({ maxWaitMs: 1000 });
    expect(parking.park(request('http://a/1'), 'a', 100)).toBe(true);
    expect(parking.park(request('http://b/1'), 'b', 100)).toBe(true);
    expect(parking.park(request('http://a/2'), 'a', 100)).toBe(true);
    const ready = new Set<string>();
    const wait = (host: string) => (ready.has(host) ? 0 : 50);
    expect(parking.hasReady(wait)).toBe(false);
    expect(parking.take(wait)).toBeNull();
    ready.add('a');
    expect(parking.hasReady(wait)).toBe(true);
    expect(parking.take(wait)?.url).toBe('http://a/1');
    expect(parking.take(wait)?.url).toBe('http://a/2');
    expect(parking.take(wait)).toBeNull();
    expect(parking.size).toBe(1);
  });

  it('refuses a request its host would take longer than maxWaitMs to reach; parkReady goes first', () => {
    const parking = new HostParking({ maxWaitMs: 300 });
    expect(parking.park(request('http://a/1'), 'a', 100)).toBe(true);
    expect(parking.park(request('http://a/2'), 'a', 100)).toBe(true);
    expect(parking.park(request('http://a/3'), 'a', 100)).toBe(true);
    expect(parking.park(request('http://a/4'), 'a', 100)).toBe(false);
    // A slow host (a long Crawl-delay) parks nothing beyond the limit.
    expect(parking.park(request('http://slow/1'), 'slow', 400)).toBe(false);
    parking.parkReady(request('http://a/0'), 'a');
    expect(parking.take(() => 0)?.url).toBe('http://a/0');
  });
});

describe('PendingVerdicts', () => {
  it('lets a handler go on while fewer than `limit` verdicts are outstanding, reports failures, settles', async () => {
    const failures: unknown[] = [];
    const verdicts = new PendingVerdicts(2, (error) => failures.push(error));
    let release!: () => void;
    const first = new Promise<void>((resolve) => {
      release = resolve;
    });
    await verdicts.track(first);
    expect(verdicts.size).toBe(1);
    let secondReturned = false;
    const second = verdicts.track(Promise.reject(new Error('disk full'))).then(() => {
      secondReturned = true;
    });
    await second;
    // The failed one is done (reported), so the limit was never reached.
    expect(secondReturned).toBe(true);
    expect(failures).toEqual([new Error('disk full')]);
    // A second outstanding verdict reaches the limit: track waits until one of the two arrives.
    let releaseThird!: () => void;
    const thirdWork = new Promise<void>((resolve) => {
      releaseThird = resolve;
    });
    let thirdReturned = false;
    const third = verdicts.track(thirdWork).then(() => {
      thirdReturned = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(verdicts.size).toBe(2);
    expect(thirdReturned).toBe(false);
    release();
    await third;
    expect(thirdReturned).toBe(true);
    expect(verdicts.size).toBe(1);
    releaseThird();
    await verdicts.settled();
    expect(verdicts.size).toBe(0);
    expect(() => new PendingVerdicts(0, () => undefined)).toThrow(RangeError);
  });

  it('also waits while the outstanding pages hold more HTML than `maxChars`, unless one page alone', async () => {
    const verdicts = new PendingVerdicts(10, () => undefined, 100);
    let release!: () => void;
    const big = new Promise<void>((resolve) => {
      release = resolve;
    });
    // One page alone may exceed the bound: its handler goes on.
    await verdicts.track(big, 150);
    let secondReturned = false;
    const second = verdicts.track(Promise.resolve().then(() => new Promise<void>(() => undefined)), 10).then(() => {
      secondReturned = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(secondReturned).toBe(false);
    release();
    await second;
    expect(secondReturned).toBe(true);
    expect(verdicts.size).toBe(1);
  });

  it('allows several verdicts per concurrency slot, but one at concurrency 1 (a breadth-first crawl)', () => {
    expect(verdictLimit(1)).toBe(1);
    expect(verdictLimit(8)).toBeGreaterThan(8);
  });
});

describe('the crawl progress line', () => {
  it('shows requests/s of the busiest hosts and what requests wait for', async () => {
    const { crawlProgressLine } = await import('../../src/cli/crawl-command.js');
    const { HostRates } = await import('../../src/crawl/crawl-activity.js');
    const rates = new HostRates();
    for (let i = 0; i < 20; i++) rates.record(`http://a.example/${i}`);
    for (let i = 0; i < 10; i++) rates.record(`http://b.example/${i}`);
    rates.record('http://c.example/');
    rates.record('http://d.example/');
    const hostRates = rates.top(3, 2000);
    expect(hostRates).toEqual([{ host: 'a.example', rps: 10 }, { host: 'b.example', rps: 5 }, { host: 'c.example', rps: 0.5 }]);
    const line = crawlProgressLine({
      processed: 23, stored: 20, exact: 1, near: 2, similar: 0, skipped: 1, skippedBy: { unreachable: 1 }, errors: 0,
      fetched: 32, elapsedMs: 2000, pagesPerSec: 16, hostRates, waiting: { politeness: 7, robots: 2, dedup: 3 },
    });
    expect(line).toContain('hosts: a.example 10.0/s, b.example 5.0/s, c.example 0.5/s');
    expect(line).toContain('waiting: politeness 7, robots 2, dedup 3');
    expect(line).toContain('skipped 1 (unreachable 1)');
  });
});
