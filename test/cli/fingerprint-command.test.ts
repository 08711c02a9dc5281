import { execFileSync, spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Command } from 'commander';
import { runInProcess } from '../helpers/run-cli.js';
import { registerFingerprint } from '../../src/cli/fingerprint-command.js';
import { defaultConfig } from '../../src/config.js';
import { InputError, NeardupError } from '../../src/errors.js';
import { fingerprintToHex } from '../../src/fingerprint/fingerprint-codec.js';
import { analyzeText, fingerprintParamsFrom } from '../../src/analyze/analyze-text.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const bin = join(import.meta.dirname, '..', '..', 'bin', 'neardup.js');
const text = 'Near-duplicate detection finds web pages whose main text is almost the same, such as mirrors and syndicated copies.';
let dir: string;

beforeEach(() => {
  dir = makeTempDir('neardup-fingerprint-');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  vi.restoreAllMocks();
});

/** stdout of the command run in this process; its errors are thrown, not reported. */
async function run(...args: string[]): Promise<string> {
  return (await runInProcess(registerFingerprint, args, { rethrow: true })).stdout;
}

const expectedHex = (input: string, overrides: Partial<ReturnType<typeof defaultConfig>['fingerprint']> = {}) =>
  fingerprintToHex(analyzeText(input, fingerprintParamsFrom({ ...defaultConfig().fingerprint, ...overrides })).fingerprint!);

describe('neardup fingerprint', () => {
  it('prints the 16 hex digits of a text file’s simhash', async () => {
    const file = join(dir, 'a.txt');
    writeFileSync(file, text);
    const out = await run('fingerprint', file);
    expect(out).toMatch(/^[0-9a-f]{16}\n$/);
    expect(out.trim()).toBe(expectedHex(text));
  });

  it('applies --hash and --shingle-size', async () => {
    const file = join(dir, 'a.txt');
    writeFileSync(file, text);
    expect((await run('fingerprint', '--hash', 'murmur', file)).trim()).toBe(expectedHex(text, { hash: 'murmur' }));
    expect((await run('fingerprint', '--hash', 'rabin', '--shingle-size', '2', file)).trim()).toBe(expectedHex(text, { hash: 'rabin', shingleSize: 2 }));
  });

  it('extracts the main text first with --html', async () => {
    const file = join(dir, 'a.html');
    writeFileSync(file, `<html><body><nav>Home | About</nav><article><p>${text}</p></article></body></html>`);
    const out = await run('fingerprint', '--html', file);
    expect(out.trim()).toBe(expectedHex(text));
  });

  it('prints details with --json', async () => {
    const file = join(dir, 'a.txt');
    writeFileSync(file, text);
    const out = JSON.parse(await run('fingerprint', '--json', file)) as Record<string, unknown>;
    expect(out).toMatchObject({ fingerprint: expectedHex(text), language: 'eng' });
    expect(out.textHash).toMatch(/^[0-9a-f]{32}$/);
  });

  it.each([
    ['a missing file', ['missing.txt'], /Cannot read `.*missing\.txt`: no such file/],
    ['a folder', ['.'], /it is a folder/],
  ])('fails with one line for %s', async (_name, args, message) => {
    await expect(run('fingerprint', ...args.map((a) => (a === '.' ? dir : join(dir, a))))).rejects.toThrow(message);
    await expect(run('fingerprint', join(dir, 'missing.txt'))).rejects.toBeInstanceOf(InputError);
  });

  it('refuses a text without words', async () => {
    const file = join(dir, 'empty.txt');
    writeFileSync(file, ' \n ... \n');
    await expect(run('fingerprint', file)).rejects.toThrow(/has no words to fingerprint/);
    await expect(run('fingerprint', file)).rejects.toBeInstanceOf(NeardupError);
  });

  it.each([
    [['--hash', 'md5']],
    [['--shingle-size', '0']],
    [['--shingle-size', 'x']],
    [['--nope']],
  ])('rejects bad flags %j', async (flags) => {
    await expect(run('fingerprint', ...flags, join(dir, 'a.txt'))).rejects.toThrow();
  });
});

describe('neardup fingerprint --help', () => {
  it('shows every flag with its default', () => {
    const program = new Command('neardup');
    registerFingerprint(program);
    const help = program.commands[0]!.helpInformation();
    for (const flag of ['--html', '--shingle-size <n>', '--hash <name>', '--json']) expect(help).toContain(flag);
    expect(help).toMatch(/default: config\s+fingerprint\.shingleSize, 3/);
    expect(help).toMatch(/rabin\|murmur/);
  });
});

describe('neardup fingerprint (the real binary)', () => {
  it('reads standard input and exits 0', () => {
    const out = execFileSync(process.execPath, [bin, 'fingerprint', '-'], { input: text, encoding: 'utf8' });
    expect(out).toBe(`${expectedHex(text)}\n`);
  });

  it('exits non-zero with a one-line message for an unreadable file and for bad flags', () => {
    const missing = spawnSync(process.execPath, [bin, 'fingerprint', join(dir, 'missing.txt')], { encoding: 'utf8' });
    expect(missing.status).not.toBe(0);
    expect(missing.stdout).toBe('');
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toMatch(/^neardup: Cannot read/);

    const badFlag = spawnSync(process.execPath, [bin, 'fingerprint', '--hash', 'md5', '-'], { input: text, encoding: 'utf8' });
    expect(badFlag.status).toBe(2);
    expect(badFlag.stderr).toMatch(/Expected `hash` to be one of rabin\|murmur/);
  });
});
