import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerClusters } from '../../src/cli/clusters-command.js';
import { runInProcess, spawnNeardup } from '../helpers/run-cli.js';
import { baseFingerprint, buildDataDir, flipBits } from '../report/report-fixtures.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const run = (args: readonly string[]) => runInProcess(registerClusters, args);
const spawnCli = (args: readonly string[], cwd: string) => spawnNeardup(args, { cwd });

let root: string;
let data: string;

beforeAll(() => {
  root = makeTempDir('neardup-clusters-cli-');
  data = join(root, 'data');
  buildDataDir(data, [
    { url: 'http://a.example/1', fingerprint: baseFingerprint, textHash: 't1', title: 'One <b>' },
    { url: 'http://b.example/1', fingerprint: baseFingerprint, textHash: 't1' },
    { url: 'http://a.example/2', fingerprint: flipBits(baseFingerprint, [1, 9, 17, 25, 33, 41, 49, 57]), textHash: 't2' },
    { url: 'http://b.example/2', fingerprint: flipBits(baseFingerprint, [1, 9, 17, 25, 33, 41, 49, 57, 60]), textHash: 't3' },
    { url: 'http://a.example/3', fingerprint: flipBits(baseFingerprint, [2, 10, 18, 26, 34, 42, 50, 58]), textHash: 't4' },
  ]);
});

describe('neardup clusters', () => {
  it('prints JSON on stdout by default, reading ./data (real CLI process)', async () => {
    const r = await spawnCli(['clusters'], root);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout) as { clusters: { primary: string; members: { url: string; kind: string; distance: number }[] }[]; stats: Record<string, unknown>; mirrors: { summary: string }[] };
    expect(json.clusters.map((c) => [c.primary, c.members.map((m) => `${m.url} ${m.kind} ${m.distance}`)])).toEqual([
      ['http://a.example/1', ['http://a.example/1 primary 0', 'http://b.example/1 exact 0']],
      ['http://a.example/2', ['http://a.example/2 primary 0', 'http://b.example/2 near 1']],
    ]);
    expect(json.stats).toMatchObject({ documents: 5, stored: 3, rejected: 2, singletons: 1, distanceThreshold: 3 });
    expect(json.mirrors.map((m) => m.summary)).toEqual(['b.example mirrors a.example (2 of 2 pages)']);
  });

  it('prints CSV with --format csv', async () => {
    const r = await run(['clusters', '--data', data, '--format', 'csv']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\r\n')).toEqual([
      'cluster_id,url,kind,distance,is_primary,similarity,flags,flag_evidence',
      '1,http://a.example/1,primary,0,true,,,',
      '1,http://b.example/1,exact,0,false,,,',
      '2,http://a.example/2,primary,0,true,,,',
      '2,http://b.example/2,near,1,false,,,',
      '',
    ]);
  });

  it('writes only --out, atomically, and says where on stderr', async () => {
    const out = join(root, 'reports');
    mkdirSync(out);
    const r = await run(['clusters', '--data', data, '--format', 'html', '--out', join(out, 'report.html')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^clusters: 2 clusters, 1 mirror pairs → .*report\.html\n$/);
    expect(readdirSync(out)).toEqual(['report.html']);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('One &lt;b&gt;');
    expect(html).toContain('<svg id="plot-distances"');
  });

  it('exits non-zero with one line for a missing data folder (real CLI process)', async () => {
    const r = await spawnCli(['clusters', '--data', 'missing-dir'], root);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^neardup: No data folder `missing-dir` \(run `neardup crawl` or `neardup dedup` with --data first\)\n$/);
  });

  it.each([
    [['clusters', '--data', '<root>/missing-dir'], /^neardup: No data folder `.*missing-dir`/],
    [['clusters', '--data', '<root>/empty-dir'], /^neardup: `.*empty-dir` is not a neardup data folder: it has no neardup\.db$/],
    [['clusters', '--data', '<root>/junk-dir'], /^neardup: .*junk-dir.* not a neardup index/],
    [['clusters', '--data', '<root>/data', '--format', 'xml'], /Expected `format` to be one of json\|csv\|html, got `xml` \(string\)/],
    [['clusters', '--data', '<root>/data', '--out', '<root>/no/such/folder/r.json'], /^neardup: Cannot write `.*no\/such\/folder\/r\.json`: folder `.*folder` does not exist$/],
    [['clusters', '--data', '<root>/data', '--out', '<root>/data/neardup.db'], /^neardup: Refusing to write the report `.*data\/neardup\.db` inside the data folder/],
    [['clusters', '--data', '<root>/data', '--out', ''], /^neardup: Expected `--out` to be a file path/],
    [['clusters', '--max-html-clusters', '0'], /Expected `max-html-clusters` to be an integer/],
  ])('fails with one line and a non-zero exit: %j', async (rawArgs, message) => {
    mkdirSync(join(root, 'empty-dir'), { recursive: true });
    mkdirSync(join(root, 'junk-dir'), { recursive: true });
    writeFileSync(join(root, 'junk-dir', 'neardup.db'), 'hello, I am not SQLite'.repeat(50));
    const before = readFileSync(join(data, 'neardup.db'));
    const args = rawArgs.map((a) => a.replace('<root>', root));
    const r = await run(args);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    const lines = r.stderr.split('\n').filter((l) => l !== '' && !l.startsWith('(run with --help'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
    expect(readFileSync(join(data, 'neardup.db')).equals(before)).toBe(true);
    expect(existsSync(resolve(root, 'no'))).toBe(false);
  });

  it('shows every flag with its default in --help', async () => {
    const r = await run(['clusters', '--help']);
    expect(r.code).toBe(0);
    for (const flag of ['--data <dir>', '--format <format>', '--out <file>', '--max-html-clusters <n>']) expect(r.stdout).toContain(flag);
    expect(r.stdout).toContain('(default: "./data")');
    expect(r.stdout).toContain('(default: "json")');
    expect(r.stdout).toContain('(default: 1000)');
  });
});
