/**
 * The second stage end to end on PostgreSQL: `neardup dedup --index postgres://...` makes the same
 * `similar` decisions as `neardup dedup --data` (SQLite) on the same input, `neardup clusters --index`
 * reports them as the SQLite report does, and `--verify off` gives the k rule alone.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { devTextsById } from '../helpers/dev-texts.js';
import { describeWithPostgres, freshDatabaseName } from '../helpers/postgres-server.js';
import { spawnNeardup } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

interface Report {
  clusters: Array<{ primary: string; members: Array<{ url: string; kind: string; distance: number }> }>;
}

/** Ten long articles, each with an excerpt (its first 60%: contained, beyond k for some) and an edited copy. */
function writeInput(file: string): void {
  const lines: string[] = [];
  devTextsById().filter((t) => t.split(/\s+/).length > 300).slice(0, 10).forEach((text, i) => {
    const words = text.split(/\s+/);
    lines.push(JSON.stringify({ url: `https://origin.example/${i}`, text }));
    lines.push(JSON.stringify({ url: `https://edit.example/${i}`, text: words.map((w, j) => (j % 15 === 7 ? `zq${j}x` : w)).join(' ') }));
    lines.push(JSON.stringify({ url: `https://excerpt.example/${i}`, text: words.slice(0, Math.floor(words.length * 0.6)).join(' ') }));
  });
  writeFileSync(file, `${lines.join('\n')}\n`);
}

describeWithPostgres('neardup dedup/clusters --index postgres:// with the second stage', (server) => {
  it('reports `similar` clusters as the SQLite index does, and none with --verify off', async () => {
    const temp = tempDir('neardup-similar-pg-');
    onTestFinished(() => temp.remove());
    const input = join(temp.dir, 'input.jsonl');
    writeInput(input);
    const run = async (args: string[]) => {
      const result = await spawnNeardup(args);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
      return result.stdout;
    };
    await run(['dedup', input, '--data', join(temp.dir, 'sqlite')]);
    const url = await server().createDatabase(freshDatabaseName());
    await run(['dedup', input, '--data', join(temp.dir, 'pg'), '--index', url]);
    const fromSqlite = await run(['clusters', '--data', join(temp.dir, 'sqlite'), '--format', 'json']);
    const fromPg = await run(['clusters', '--index', url, '--format', 'json']);
    expect(fromPg).toBe(fromSqlite);
    const similar = (JSON.parse(fromPg) as Report).clusters.flatMap((c) => c.members).filter((m) => m.kind === 'similar');
    expect(similar.length).toBeGreaterThan(0);
    for (const m of similar) expect(m.distance).toBeGreaterThan(3);
    expect(await run(['clusters', '--index', url, '--format', 'csv'])).toBe(await run(['clusters', '--data', join(temp.dir, 'sqlite'), '--format', 'csv']));

    const off = await server().createDatabase(freshDatabaseName());
    await run(['dedup', input, '--data', join(temp.dir, 'off'), '--index', off, '--verify', 'off']);
    const offReport = JSON.parse(await run(['clusters', '--index', off, '--format', 'json'])) as Report;
    expect(offReport.clusters.flatMap((c) => c.members).some((m) => m.kind === 'similar')).toBe(false);
    const offUrls = new Set(offReport.clusters.flatMap((c) => c.members.map((m) => m.url)));
    for (const m of similar) expect(offUrls.has(m.url)).toBe(false); // stored without the second stage
  }, 180_000);
});
