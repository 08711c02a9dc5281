import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerDedup } from '../../src/cli/dedup-command.js';
import { runInProcess as runCommand, spawnNeardup } from '../helpers/run-cli.js';
import { devTextsById } from '../helpers/dev-texts.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const neardup = (args: readonly string[]) => spawnNeardup(args);
const runInProcess = (args: readonly string[]) => runCommand(registerDedup, args);

const texts = devTextsById().filter((t) => t.length > 1500).slice(0, 4);

let dir: string;
beforeEach(async () => {
  dir = makeTempDir('neardup-dedup-cli-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('neardup dedup', () => {
  it('dedups a JSONL file and prints a JSON summary with --json', async () => {
    const lines = [...texts, texts[0]!, texts[1]!.replace(/\bthe\b/, 'a')].map((text, i) => JSON.stringify({ url: `http://x/${i}`, text }));
    lines.splice(2, 0, '{broken');
    await writeFile(join(dir, 'in.jsonl'), lines.join('\n'));
    const data = join(dir, 'data');
    const { code, stdout, stderr } = await neardup(['dedup', join(dir, 'in.jsonl'), '--data', data, '--workers', '1', '--json']);
    expect(code).toBe(0);
    const summary = JSON.parse(stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({ documents: 6, stored: 4, errors: 1, workers: 1, dataDir: data });
    expect((summary.exact as number) + (summary.near as number)).toBe(2);
    expect(stderr).toContain(`${join(dir, 'in.jsonl')}:3: invalid JSON`);
    const corpus = (await readFile(join(data, 'corpus.jsonl'), 'utf8')).trim().split('\n');
    expect(corpus).toHaveLength(4);
  });

  it('prints a text summary by default', async () => {
    await writeFile(join(dir, 'a.txt'), texts[0]!);
    const { code, stdout } = await runInProcess(['dedup', join(dir, 'a.txt'), '--data', join(dir, 'data'), '--workers', '1']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^dedup: 1 document in [\d.]+ s \(\d+ docs\/s, 1 worker\)$/m);
    expect(stdout).toMatch(/stored 1, rejected 0 \(exact 0, near 0\), skipped 0, errors 0/);
  });

  it.each([
    ['a missing input', (d: string) => ['dedup', join(d, 'missing.jsonl'), '--data', join(d, 'data')], 1, /^neardup: Cannot read input `.*missing\.jsonl`: no such file or folder\n$/],
    ['an unsupported file', (d: string) => ['dedup', join(d, 'x.pdf'), '--data', join(d, 'data')], 1, /^neardup: Unsupported input `.*x\.pdf`/],
    ['a bad --workers', (d: string) => ['dedup', join(d, 'x.pdf'), '--workers', 'two'], 2, /Expected `workers` to be an integer 0–256, got `two` \(string\)/],
    ['no input', () => ['dedup'], 2, /missing required argument/],
  ])('fails on %s with a one-line reason', async (_name, args, exitCode, message) => {
    await writeFile(join(dir, 'x.pdf'), '%PDF');
    const { code, stderr, stdout } = await runInProcess(args(dir));
    expect(code).toBe(exitCode);
    expect(stderr).toMatch(message);
    expect(stderr.trim().split('\n')[0]).toMatch(/^(neardup: |error: )/);
    expect(stdout).toBe('');
  });

  it('the installed binary gives a one-line error and exit 1 for a missing input', async () => {
    const { code, stderr, stdout } = await neardup(['dedup', join(dir, 'missing.jsonl'), '--data', join(dir, 'data')]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^neardup: Cannot read input `.*missing\.jsonl`: no such file or folder\n$/);
    expect(stdout).toBe('');
  });

  it('--help shows every flag with its default', async () => {
    const { code, stdout: raw } = await runInProcess(['dedup', '--help']);
    expect(code).toBe(0);
    const stdout = raw.replace(/\s+/g, ' '); // commander wraps at 80 columns
    for (const flag of ['--data <dir>', '--workers <n>', '--max-in-flight <n>', '--distance <k>', '--json', '--no-progress']) expect(stdout).toContain(flag);
    expect(stdout).toContain('(default: "./data")');
    expect(stdout).toMatch(/0 = one per core/);
  });
});
