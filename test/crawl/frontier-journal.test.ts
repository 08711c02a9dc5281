import { appendFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FrontierJournal } from '../../src/crawl/frontier-journal.js';
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

  it('fails with a StorageError when it cannot write', () => {
    const journal = new FrontierJournal(join(dir, 'missing', 'j.jsonl'));
    expect(() => journal.append([{ url: 'http://h/a', crawlDepth: 0 }])).toThrow(StorageError);
  });
});
