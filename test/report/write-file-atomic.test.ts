import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StorageError } from '../../src/errors.js';
import { writeFileAtomic } from '../../src/report/write-file-atomic.js';
import { makeTempDir } from '../helpers/temp-dir.js';

describe('writeFileAtomic', () => {
  it('writes a new file and replaces an existing one, leaving no temporary file', () => {
    const dir = makeTempDir();
    const path = join(dir, 'report.json');
    writeFileAtomic(path, 'first');
    expect(readFileSync(path, 'utf8')).toBe('first');
    writeFileAtomic(path, 'second — ünïcode');
    expect(readFileSync(path, 'utf8')).toBe('second — ünïcode');
    expect(readdirSync(dir)).toEqual(['report.json']);
  });

  it('refuses a missing folder instead of creating it', () => {
    const dir = makeTempDir();
    expect(() => writeFileAtomic(join(dir, 'missing', 'r.html'), 'x')).toThrow(StorageError);
    expect(() => writeFileAtomic(join(dir, 'missing', 'r.html'), 'x')).toThrow(/folder `.*missing` does not exist/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a target that is a folder', () => {
    const dir = makeTempDir();
    mkdirSync(join(dir, 'out'));
    expect(() => writeFileAtomic(join(dir, 'out'), 'x')).toThrow('it is a folder');
  });

  it.skipIf(process.getuid?.() === 0)('leaves the old file and no temporary file when the folder is read-only', () => {
    const dir = makeTempDir();
    const path = join(dir, 'r.csv');
    writeFileSync(path, 'old');
    chmodSync(dir, 0o500);
    try {
      expect(() => writeFileAtomic(path, 'new')).toThrow(StorageError);
      expect(readFileSync(path, 'utf8')).toBe('old');
      expect(readdirSync(dir)).toEqual(['r.csv']);
    } finally {
      chmodSync(dir, 0o700);
    }
  });
});
