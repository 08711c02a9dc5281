import { appendFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FrontierJournal, requestKey } from '../../src/crawl/frontier-journal.js';
import { StorageError } from '../../src/errors.js';
import { makeTempDir } from '../helpers/temp-dir.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir('neardup-journal-');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('FrontierJournal', () => {
  it('reads back what was appended, first depth of a URL kept, a torn last line skipped', () => {
    const journal = new FrontierJournal(join(dir, 'j.jsonl'));
    expect(journal.read()).toEqual([]);
    journal.append([{ url: 'http://h/a', crawlDepth: 0 }, { url: 'http://h/b', crawlDepth: 1 }]);
    journal.append([]);
    journal.append([{ url: 'http://h/a', crawlDepth: 3 }, { url: 'http://h/"quoted"', crawlDepth: 2 }]);
    appendFileSync(journal.path, '{"url":"http://h/torn","de');
    expect(new FrontierJournal(journal.path).read()).toEqual([
      { url: 'http://h/a', crawlDepth: 0 },
      { url: 'http://h/b', crawlDepth: 1 },
      { url: 'http://h/"quoted"', crawlDepth: 2 },
    ]);
  });

  it('gives the pending requests, the done ones and those in flight; a torn tail is ended before the next append', () => {
    const journal = new FrontierJournal(join(dir, 'j.jsonl'));
    journal.append([{ url: 'http://h/a', crawlDepth: 0 }, { url: 'http://h/b', crawlDepth: 1 }, { url: 'http://H/c#x', crawlDepth: 1 }]);
    journal.started(requestKey('http://h/a'));
    journal.done(requestKey('http://h/a'));
    journal.started(requestKey('http://h/b'));
    appendFileSync(journal.path, '{"done":"http://h/');
    const reopened = new FrontierJournal(journal.path);
    expect(reopened.repairTail()).toBe(true);
    expect(reopened.repairTail()).toBe(false);
    reopened.append([{ url: 'http://h/d', crawlDepth: 2 }]);
    const state = reopened.state();
    // Keys are crawlee's normalised URLs (host lower-cased, fragment dropped).
    expect(state.pending.map((entry) => entry.url)).toEqual(['http://h/b', 'http://H/c#x', 'http://h/d']);
    expect(state.pending[1]!.uniqueKey).toBe('http://h/c');
    expect([...state.done]).toEqual(['http://h/a']);
    expect(state.interrupted).toBe(1);
    expect(state.tornLines).toBe(1);
  });

  it('fails with a StorageError when it cannot write', () => {
    const journal = new FrontierJournal(join(dir, 'missing', 'j.jsonl'));
    expect(() => journal.append([{ url: 'http://h/a', crawlDepth: 0 }])).toThrow(StorageError);
  });
});
