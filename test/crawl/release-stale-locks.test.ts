import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { releaseStaleLocks } from '../../src/crawl/release-stale-locks.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'neardup-locks-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const entry = (id: string, orderNo: number | null) => ({ id, json: '{}', method: 'GET', orderNo, url: `http://h/${id}`, uniqueKey: `http://h/${id}` });
const orderNo = (id: string) => (JSON.parse(readFileSync(join(dir, `${id}.json`), 'utf8')) as { orderNo: number | null }).orderNo;

describe('releaseStaleLocks', () => {
  it('puts locked requests back at the head and leaves the others alone', () => {
    const now = 1_700_000_000_000;
    writeFileSync(join(dir, 'locked.json'), JSON.stringify(entry('locked', now + 60_000)));
    writeFileSync(join(dir, 'lockedFront.json'), JSON.stringify(entry('lockedFront', -(now + 60_000))));
    writeFileSync(join(dir, 'pending.json'), JSON.stringify(entry('pending', now - 5_000)));
    writeFileSync(join(dir, 'handled.json'), JSON.stringify(entry('handled', null)));
    writeFileSync(join(dir, 'torn.json'), '{"id":');
    expect(releaseStaleLocks(dir, now)).toBe(2);
    expect(orderNo('locked')).toBe(1);
    expect(orderNo('lockedFront')).toBe(-1);
    expect(orderNo('pending')).toBe(now - 5_000);
    expect(orderNo('handled')).toBeNull();
    expect(readFileSync(join(dir, 'torn.json'), 'utf8')).toBe('{"id":');
  });

  it('does nothing for a missing folder', () => {
    expect(releaseStaleLocks(join(dir, 'nope'))).toBe(0);
  });
});
