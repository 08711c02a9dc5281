/**
 * Issue 28 item 5: `clusters --out` never writes inside the data folder. Only `neardup.db*` used to
 * be refused, so `--out <data>/corpus.jsonl` replaced the corpus with the report (and a later run
 * appended JSON after the HTML). Every path inside --data is refused (the corpus, the crawl's
 * frontier journal, a new name, the folder reached through a symbolic link), with one line, and the
 * folder is left byte for byte as it was.
 */
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerClusters } from '../../src/cli/clusters-command.js';
import { isInsideDataFolder } from '../../src/store/data-folder.js';
import { runInProcess } from '../helpers/run-cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { baseFingerprint, buildDataDir } from '../report/report-fixtures.js';

let root: string;
let data: string;

/** Every file of the folder (recursively) and its bytes. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      out[path] = readFileSync(path).toString('base64');
    }
  }
  return out;
}

beforeAll(() => {
  root = makeTempDir('neardup-out-inside-data-');
  data = join(root, 'data');
  buildDataDir(data, [
    { url: 'http://a.example/1', fingerprint: baseFingerprint, textHash: 't1' },
    { url: 'http://b.example/1', fingerprint: baseFingerprint, textHash: 't1' },
  ]);
  writeFileSync(join(data, 'corpus.jsonl'), '{"url":"http://a.example/1","text":"one"}\n');
  mkdirSync(join(data, 'crawlee'));
  writeFileSync(join(data, 'crawlee', 'neardup-frontier.jsonl'), '{"op":"add"}\n');
  symlinkSync(data, join(root, 'data-link'));
});

describe('clusters --out inside the data folder', () => {
  it.each([
    ['the corpus', 'data/corpus.jsonl'],
    ['the frontier journal', 'data/crawlee/neardup-frontier.jsonl'],
    ['the index', 'data/neardup.db'],
    ['the index WAL', 'data/neardup.db-wal'],
    ['a new file', 'data/report.html'],
    ['a new file in a folder not made yet', 'data/reports/r.json'],
    ['the corpus through a linked folder', 'data-link/corpus.jsonl'],
    ['the folder itself', 'data'],
  ])('refuses %s, with one line, changing nothing', async (_what, out) => {
    const before = snapshot(data);
    for (const format of ['json', 'html']) {
      const r = await runInProcess(registerClusters, ['clusters', '--data', data, '--format', format, '--out', join(root, out)]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^neardup: Refusing to write the report `.*` inside the data folder `.*data`.*: choose a path outside it\n$/);
    }
    expect(snapshot(data)).toEqual(before);
  });

  it('also when --data is given through the link and --out plainly', async () => {
    const before = snapshot(data);
    const r = await runInProcess(registerClusters, ['clusters', '--data', join(root, 'data-link'), '--out', join(data, 'corpus.jsonl')]);
    expect(r.code).toBe(2);
    expect(snapshot(data)).toEqual(before);
  });

  it('writes a report beside the data folder (a sibling whose name starts alike is outside)', async () => {
    mkdirSync(join(root, 'data-reports'), { recursive: true });
    const r = await runInProcess(registerClusters, ['clusters', '--data', data, '--out', join(root, 'data-reports', 'r.json')]);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(join(root, 'data-reports', 'r.json'), 'utf8'))).toHaveProperty('clusters');
    expect(isInsideDataFolder(join(root, 'data.json'), data)).toBe(false);
    expect(isInsideDataFolder(join(root, '..', 'x'), data)).toBe(false);
  });
});
