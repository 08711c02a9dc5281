import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { registerFilter } from '../../src/cli/filter-command.js';
import { neardupBin, runInProcess, spawnNeardup } from '../helpers/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'neardup-filter-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const run = (args: readonly string[]) => runInProcess(registerFilter, ['filter', ...args]);

const title = 'Council approves new budget for city buses';
const results = [
  { url: 'https://a.example/1', title, snippet: 'The city council approved the transport budget on Tuesday after a long debate about ticket prices.' },
  { url: 'https://mirror.example/1', title, snippet: 'Bus routes in the northern districts will run every ten minutes from next spring, officials said.' },
  { url: 'https://b.example/zoo', title: 'Zoo welcomes twin panda cubs', snippet: 'Keepers at the city zoo said the two cubs were born healthy on Sunday morning.', rank: 3 },
];
const line = (query: string) => JSON.stringify({ query, results });
const input = join(dir, 'results.jsonl');
writeFileSync(input, [line('the official website of the bbc'), '', 'not json', '{"query":"x","results":[{"title":"no url"}]}', line('buy bus tickets')].join('\n'));

interface OutLine { query: string; class: string; threshold: number; results: Array<{ url: string; rank?: number; duplicates: Array<{ url: string; similarity: number; synonyms: boolean }> }> }

describe('neardup filter', () => {
  it('writes a line per list, reports bad lines with their number and goes on', async () => {
    const { code, stdout, stderr } = await run([input]);
    expect(code).toBe(0);
    const out = stdout.trim().split('\n').map((l) => JSON.parse(l) as OutLine);
    expect(out.map((o) => [o.query, o.class])).toEqual([['the official website of the bbc', 'navigational-natural'], ['buy bus tickets', 'transactional-telegraphic']]);
    expect(out[0]!.results.map((r) => r.url)).toEqual(['https://a.example/1', 'https://b.example/zoo']);
    expect(out[0]!.results[0]!.duplicates).toEqual([{ url: 'https://mirror.example/1', similarity: expect.any(Number), synonyms: false }]);
    expect(out[0]!.results[1]!.rank).toBe(3);
    expect(out[1]!.results).toHaveLength(3);
    expect(out[1]!.threshold).toBeGreaterThan(out[0]!.threshold);
    expect(stderr).toMatch(/^neardup: line 3: Expected a JSON object, got invalid JSON/m);
    expect(stderr).toMatch(/^neardup: line 4: Expected `results\[0\]\.url` to be a string, got undefined/m);
    expect(stderr).toMatch(/2 bad lines skipped, 2 lists filtered/);
  });

  it('takes --class by name or number over the detected class', async () => {
    const gz = join(dir, 'one.jsonl.gz');
    writeFileSync(gz, gzipSync(line('buy bus tickets')));
    for (const cls of ['navigational-natural', '3']) {
      const { code, stdout } = await run(['--class', cls, gz]);
      expect(code).toBe(0);
      const out = JSON.parse(stdout) as OutLine;
      expect(out.class).toBe('navigational-natural');
      expect(out.results).toHaveLength(2);
    }
  });

  it('prints readable lists with --format text', async () => {
    const { stdout } = await run(['--format', 'text', input]);
    expect(stdout).toContain('the official website of the bbc  [navigational-natural, maximal, threshold');
    expect(stdout).toMatch(/ {2}1\. Council approves new budget for city buses {2}<https:\/\/a\.example\/1>\n {7}= 0\.\d{3} {2}<https:\/\/mirror\.example\/1>\n/);
  });

  it('reads standard input with -', async () => {
    const child = spawn(process.execPath, [neardupBin, 'filter', '-'], { env: { ...process.env, NEARDUP_CONFIG: '' } });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stdin.end(`${line('the official website of the bbc')}\n`);
    const code = await new Promise((done) => child.on('close', done));
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as OutLine).results).toHaveLength(2);
  });

  it.each([
    ['a missing file', [join(dir, 'missing.jsonl')], 1, /^neardup: Cannot read `.*missing\.jsonl`: ENOENT/],
    ['a folder', [dir], 1, /not a file/],
    ['a bad --class', ['--class', 'shopping', input], 2, /Expected `class` to be one of informational-natural\|.*or 1–11, got `shopping`/],
    ['a bad --format', ['--format', 'xml', input], 2, /Expected `format` to be one of json\|text/],
    ['a bad --margin', ['--margin', '2', input], 2, /Expected `margin` to be a number 0–1/],
    ['a missing synonym file', ['--synonym-file', join(dir, 'nope.txt'), input], 1, /Cannot read synonym file/],
  ])('fails on %s with a one-line reason', async (_name, args, exitCode, message) => {
    const { code, stdout, stderr } = await run(args);
    expect(code).toBe(exitCode);
    expect(stdout).toBe('');
    expect(stderr).toMatch(message);
  });

  it('exits 1 when no line at all could be read as a list, showing the first 20 problems and counting the rest', async () => {
    const csv = join(dir, 'results-really.csv.jsonl');
    writeFileSync(csv, ['query,url,title', ...Array.from({ length: 30 }, (_, i) => `q${i},https://a.example/${i},Title ${i}`)].join('\n'));
    const { code, stdout, stderr } = await run([csv]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    const lines = stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(21);
    expect(lines.every((l) => l.startsWith('neardup: '))).toBe(true);
    expect(lines.at(-1)).toBe('neardup: 31 bad lines skipped (the first 20 shown), 0 lists filtered');
    // One good list among bad lines is a success (exit 0), as is an empty input.
    writeFileSync(csv, ['oops', line('buy bus tickets')].join('\n'));
    expect((await run([csv])).code).toBe(0);
    writeFileSync(csv, '');
    expect(await run([csv])).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('compares at most filter.maxResults results of a list and says so', async () => {
    const long = join(dir, 'long.jsonl');
    writeFileSync(long, JSON.stringify({ query: 'buses', results: [...results, ...results.map((r) => ({ ...r, url: `${r.url}/again` }))] }));
    const config = join(dir, 'cap.json');
    writeFileSync(config, JSON.stringify({ filter: { maxResults: 3 } }));
    const r = await runInProcess(registerFilter, ['--config', config, 'filter', '--class', 'exact-phrase', long]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('neardup: line 1: 6 results; the first 3 filtered, the other 3 passed through unfiltered (config filter.maxResults, NEARDUP_FILTER_MAX_RESULTS)\n');
    const out = JSON.parse(r.stdout) as OutLine & { unfiltered: number };
    expect(out.unfiltered).toBe(3);
    expect(out.results.map((x) => x.url)).toEqual([...results.map((x) => x.url), ...results.map((x) => `${x.url}/again`)]);
    const all = JSON.parse((await run(['--class', 'exact-phrase', long])).stdout) as OutLine & { unfiltered?: number };
    expect(all.unfiltered).toBeUndefined();
    expect(all.results).toHaveLength(3);
  });

  it('uses a user synonym file and can turn the synonym pass off', async () => {
    const spun = join(dir, 'spun.jsonl');
    const a = { url: 'https://a.example/2', title: 'Gizmo sales surge', snippet: 'Gizmo makers report strong quarterly sales; analysts in London expect further growth.' };
    const b = { url: 'https://b.example/2', title: 'Widget sales soar', snippet: 'Widget producers report robust quarterly sales; analysts in London expect further growth.' };
    writeFileSync(spun, JSON.stringify({ query: 'gizmo market', results: [a, b] }));
    const synonyms = join(dir, 'synonyms.txt');
    writeFileSync(synonyms, 'gizmo widget\nsurge soar\nmakers producers\nstrong robust\n');
    const on = JSON.parse((await run(['--synonym-file', synonyms, spun])).stdout) as OutLine;
    expect(on.results[0]!.duplicates).toEqual([{ url: 'https://b.example/2', similarity: 1, synonyms: true }]);
    const off = JSON.parse((await run(['--synonym-file', synonyms, '--synonyms', 'off', spun])).stdout) as OutLine;
    expect(off.results).toHaveLength(2);
  });

  it('--help shows every flag with its default', async () => {
    const { code, stdout: raw } = await spawnNeardup(['filter', '--help']);
    expect(code).toBe(0);
    const stdout = raw.replace(/\s+/g, ' ');
    for (const flag of ['--class <class>', '--format <format>', '--synonyms <on|off>', '--synonym-file <file>', '--margin <m>', '--language <code>']) expect(stdout).toContain(flag);
    for (const def of ['(default: detected)', '(default: "json")', 'filter.synonyms, on)', 'filter.synonymFile, none)', 'filter.criticalMargin, 0.3)', 'filter.language, auto)']) expect(stdout).toContain(def);
  });
});
