/**
 * Storage faults: a --data that cannot be created (a path under a regular file), a full disk and a
 * read-only --data. Each must end with a clear one-line error and a non-zero exit, and leave the
 * data folder whole: it still opens, earlier data is intact, and re-running once the fault is gone
 * gives the same result as a run that never met it.
 *
 * The disk-full and read-only cases mount small tmpfs file systems (we run as root; chmod does not
 * stop root). Where mounting is not permitted the test says so and skips, except under CI=true,
 * where it fails: CI runs as root on this kind of machine, and a silent skip would hide the tests.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDataDir, inspectDataDir, spawnCli, startMirrorSite, writeDedupInput } from '../helpers/fault-crawl.js';
import type { MirrorSite } from '../helpers/fault-crawl.js';
import { canMount, expectClearFailure, expectOneLineFailure, inCi, mount, remount, sha256, unmount } from './storage-helpers.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const LIMIT_MS = 180_000;
const INPUT = { originals: 500, mirrors: 80, nears: 80 } as const;
const mountable = canMount();

describe('storage faults', () => {
  let work: string;
  let input: string;
  let baselineStored: readonly string[];

  beforeAll(async () => {
    work = makeTempDir('neardup-storage-');
    input = join(work, 'input.jsonl');
    writeDedupInput(input, 'https://storage.example/', INPUT);
    const run = await spawnCli(['dedup', input, '--data', join(work, 'baseline'), '--no-progress'], { timeoutMs: LIMIT_MS, env: { NEARDUP_CONFIG: '' } });
    expect(run.code, run.stderr).toBe(0);
    baselineStored = (await inspectDataDir(join(work, 'baseline'))).storedUrls;
  }, LIMIT_MS);

  afterAll(() => {
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  it('a --data under a regular file fails with one line for crawl, dedup and clusters', async () => {
    const file = join(work, 'a-file');
    writeFileSync(file, 'not a folder\n');
    const data = join(file, 'data');
    const runs = await Promise.all([
      spawnCli(['dedup', input, '--data', data, '--no-progress'], { timeoutMs: LIMIT_MS }),
      spawnCli(['crawl', 'http://127.0.0.1:9/', '--data', data, '--no-progress'], { timeoutMs: LIMIT_MS }),
      spawnCli(['clusters', '--data', data], { timeoutMs: LIMIT_MS }),
    ]);
    for (const run of runs) expectOneLineFailure(run, /a-file/);
    expect(readFileSync(file, 'utf8')).toBe('not a folder\n');
  }, LIMIT_MS);

  it('a --out under a regular file fails with one line, and writes nothing', async () => {
    const file = join(work, 'another-file');
    writeFileSync(file, 'keep me\n');
    const run = await spawnCli(['clusters', '--data', join(work, 'baseline'), '--format', 'html', '--out', join(file, 'report.html')], { timeoutMs: LIMIT_MS });
    expectOneLineFailure(run, /another-file/);
    expect(readFileSync(file, 'utf8')).toBe('keep me\n');
  }, LIMIT_MS);

  it.runIf(!mountable && inCi)('can mount a tmpfs under CI (root on this kind of machine)', () => {
    throw new Error('mount -t tmpfs is not permitted here: the disk-full and read-only tests cannot run');
  });

  describe.skipIf(!mountable)('on a small tmpfs', () => {
    let mnt: string;
    let site: MirrorSite;

    beforeAll(async () => {
      mnt = join(work, 'mnt');
      mkdirSync(mnt);
      site = await startMirrorSite({ originals: 250, mirrors: 40, nears: 40 });
    });

    afterAll(async () => {
      await site?.close();
      if (mnt !== undefined) unmount(mnt);
    });

    const commandFor = (mode: 'dedup' | 'crawl', data: string) => (mode === 'dedup'
      ? ['dedup', input, '--data', data, '--no-progress']
      : ['crawl', site.url, '--data', data, '--no-progress', '--host-rpm', '1000000', '--max-pages', '100000']);

    /** Once there is room, the same command ends with exit 0 and a whole folder equal to a run that had room. */
    const expectWholeAfterRerun = async (mode: 'dedup' | 'crawl', args: readonly string[], data: string) => {
      remount(mnt, 'size=64m');
      const again = await spawnCli(args, { timeoutMs: LIMIT_MS });
      expect(again.code, again.stderr).toBe(0);
      const report = await inspectDataDir(data);
      expect(checkDataDir(report)).toEqual([]);
      if (mode === 'dedup') expect([...report.storedUrls].sort()).toEqual([...baselineStored].sort());
      else expect(report.storedUrls.filter((u) => /\/a\/\d+$/.test(u)).length).toBe(250);
    };

    it.each(['dedup', 'crawl'] as const)('disk full during %s: one-line error; once there is room the same command completes and ends whole', async (mode) => {
      expect(mount(mnt, mode === 'dedup' ? 'size=1m' : 'size=512k')).toBe(true);
      try {
        const data = join(mnt, 'data');
        const args = commandFor(mode, data);
        const full = await spawnCli(args, { timeoutMs: LIMIT_MS });
        expectOneLineFailure(full, /full|space/i);
        await expectWholeAfterRerun(mode, args, data);
      } finally {
        unmount(mnt);
      }
    }, LIMIT_MS * 2);

    it.each(['dedup', 'crawl'] as const)('%s: a corpus write that fails after its insert committed (corpus.jsonl alone on a full disk) is made good by the next run', async (mode) => {
      expect(mount(mnt, 'size=64k')).toBe(true);
      const data = join(work, `split-${mode}`);
      try {
        // The database has room, the corpus does not: every failure is an append after a commit.
        mkdirSync(data);
        // The tmpfs file bind-mounted over corpus.jsonl (a symbolic link there is refused: issue 28 item 10).
        writeFileSync(join(mnt, 'corpus.jsonl'), '');
        writeFileSync(join(data, 'corpus.jsonl'), '');
        expect(spawnSync('mount', ['--bind', join(mnt, 'corpus.jsonl'), join(data, 'corpus.jsonl')], { stdio: 'ignore' }).status).toBe(0);
        const args = commandFor(mode, data);
        const full = await spawnCli(args, { timeoutMs: LIMIT_MS });
        expectClearFailure(full, /corpus|full|space/i);
        await expectWholeAfterRerun(mode, args, data);
      } finally {
        unmount(join(data, 'corpus.jsonl'));
        unmount(mnt);
      }
    }, LIMIT_MS * 2);

    it('read-only --data: dedup and crawl fail with one line; the folder is byte for byte unchanged and still whole', async () => {
      expect(mount(mnt, 'size=64m')).toBe(true);
      try {
        const data = join(mnt, 'data');
        const first = await spawnCli(['dedup', input, '--data', data, '--no-progress'], { timeoutMs: LIMIT_MS });
        expect(first.code, first.stderr).toBe(0);
        const before = { db: sha256(join(data, 'neardup.db')), corpus: sha256(join(data, 'corpus.jsonl')) };
        remount(mnt, 'ro');
        const other = join(work, 'other.jsonl');
        writeDedupInput(other, 'https://other.example/', { originals: 20, mirrors: 0, nears: 0 });
        const runs = await Promise.all([
          spawnCli(['dedup', other, '--data', data, '--no-progress'], { timeoutMs: LIMIT_MS }),
          spawnCli(['crawl', site.url, '--data', data, '--no-progress'], { timeoutMs: LIMIT_MS }),
        ]);
        for (const run of runs) expectOneLineFailure(run, /read-only|readonly|read only|cannot|unable/i);
        remount(mnt, 'rw');
        expect({ db: sha256(join(data, 'neardup.db')), corpus: sha256(join(data, 'corpus.jsonl')) }).toEqual(before);
        const report = await inspectDataDir(data);
        expect(checkDataDir(report)).toEqual([]);
        expect([...report.storedUrls].sort()).toEqual([...baselineStored].sort());
      } finally {
        unmount(mnt);
      }
    }, LIMIT_MS * 2);
  });
});
