/**
 * Issue 29 (errors): a PostgreSQL index that cannot be reached left a `--data` folder behind
 * (writer-id, crawl.lock, an empty crawlee/). A folder the failed command made, holding nothing of
 * value, is removed; a folder that was there before is left exactly as it was. Port 1 of 127.0.0.1
 * refuses at once (no network).
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeUnusedDataFolder } from '../../src/store/data-folder.js';
import { spawnNeardup } from '../helpers/run-cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const unreachable = 'postgres://nd:secret@127.0.0.1:1/neardup';

describe('a failed PostgreSQL connection leaves no --data folder', () => {
  const work = makeTempDir('neardup-failed-index-');
  const input = join(work, 'docs.jsonl');
  writeFileSync(input, `${JSON.stringify({ url: 'http://a.example/1', text: 'alpha beta gamma delta epsilon zeta eta theta iota kappa' })}\n`);

  it.each([
    ['dedup', (data: string) => ['dedup', input, '--data', data, '--index', unreachable, '--no-progress']],
    ['crawl', (data: string) => ['crawl', 'http://127.0.0.1:9/', '--data', data, '--index', unreachable]],
  ])('%s into a new folder', async (name, args) => {
    const data = join(work, `new-${name}`);
    const r = await spawnNeardup(args(data));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/^neardup: Cannot reach PostgreSQL at 127\.0\.0\.1:1/);
    expect(existsSync(data)).toBe(false);
  });

  it('a folder that was there is kept as it was', async () => {
    const data = join(work, 'existing');
    mkdirSync(data);
    writeFileSync(join(data, 'notes.txt'), 'mine');
    const r = await spawnNeardup(['dedup', input, '--data', data, '--index', unreachable, '--no-progress']);
    expect(r.code).not.toBe(0);
    expect(readdirSync(data).sort()).toEqual(['notes.txt', 'writer-id']);
  });

  it('removeUnusedDataFolder keeps a folder with anything of value', () => {
    const data = join(work, 'valued');
    mkdirSync(join(data, 'crawlee'), { recursive: true });
    writeFileSync(join(data, 'writer-id'), 'x');
    writeFileSync(join(data, 'corpus.jsonl'), '{"id":1}\n');
    expect(removeUnusedDataFolder(data)).toBe(false);
    writeFileSync(join(data, 'corpus.jsonl'), '');
    writeFileSync(join(data, 'crawlee', 'neardup-frontier.jsonl'), '{"op":"add"}\n');
    expect(removeUnusedDataFolder(data)).toBe(false);
    writeFileSync(join(data, 'crawlee', 'neardup-frontier.jsonl'), '');
    expect(removeUnusedDataFolder(data)).toBe(true);
    expect(existsSync(data)).toBe(false);
  });
});
