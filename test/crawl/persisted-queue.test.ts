import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scanPersistedQueue } from '../../src/crawl/persisted-queue.js';
import { makeTempDir } from '../helpers/temp-dir.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir('neardup-queue-');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const entry = (id: string, orderNo: number | null) => ({ id, json: '{}', method: 'GET', orderNo, url: `http://h/${id}`, uniqueKey: `http://h/${id}` });
const orderNo = (id: string) => (JSON.parse(readFileSync(join(dir, `${id}.json`), 'utf8')) as { orderNo: number | null }).orderNo;
const now = 1_700_000_000_000;

function writeQueue(): void {
  writeFileSync(join(dir, 'locked.json'), JSON.stringify(entry('locked', now + 60_000)));
  writeFileSync(join(dir, 'lockedFront.json'), JSON.stringify(entry('lockedFront', -(now + 60_000))));
  writeFileSync(join(dir, 'pending.json'), JSON.stringify(entry('pending', now - 5_000)));
  writeFileSync(join(dir, 'handled.json'), JSON.stringify(entry('handled', null)));
  writeFileSync(join(dir, 'handled2.json'), JSON.stringify(entry('handled2', null)));
  writeFileSync(join(dir, 'torn.json'), '{"id":');
}

describe('scanPersistedQueue', () => {
  it('counts handled and pending requests without changing anything', () => {
    writeQueue();
    expect(scanPersistedQueue(dir, { now })).toEqual({ handled: 2, pending: 3, released: 0, torn: 1 });
    expect(existsSync(join(dir, 'torn.json'))).toBe(true);
    expect(orderNo('locked')).toBe(now + 60_000);
  });

  it('puts locked requests back at the head, removes torn files and stale file locks, leaves the others alone', () => {
    writeQueue();
    mkdirSync(join(dir, 'pending.json.lock'));
    expect(scanPersistedQueue(dir, { now, releaseLocks: true })).toEqual({ handled: 2, pending: 3, released: 2, torn: 1 });
    expect(orderNo('locked')).toBe(1);
    expect(orderNo('lockedFront')).toBe(-1);
    expect(orderNo('pending')).toBe(now - 5_000);
    expect(orderNo('handled')).toBeNull();
    expect(existsSync(join(dir, 'torn.json'))).toBe(false);
    expect(existsSync(join(dir, 'pending.json.lock'))).toBe(false);
    expect(scanPersistedQueue(dir, { now, releaseLocks: true })).toEqual({ handled: 2, pending: 3, released: 0, torn: 0 });
  });

  it('reads a missing folder as an empty queue', () => {
    expect(scanPersistedQueue(join(dir, 'nope'))).toEqual({ handled: 0, pending: 0, released: 0, torn: 0 });
  });
});
