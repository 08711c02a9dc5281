import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runInProcess } from '../helpers/run-cli.js';
import { registerCompare } from '../../src/cli/compare-command.js';
import { defaultConfig } from '../../src/config.js';
import { hammingDistance } from '../../src/fingerprint/fingerprint-codec.js';
import { analyzeText, fingerprintParamsFrom } from '../../src/analyze/analyze-text.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const bin = join(import.meta.dirname, '..', '..', 'scripts', 'neardup-from-source.js');
const original = 'Near-duplicate detection finds web pages whose main text is almost the same, such as mirrors, syndicated articles and copies with a changed template.';
const homoglyphCopy = original.replace(/[aeo]/g, (c) => ({ a: 'а', e: 'е', o: 'о' })[c]!);
const edited = original.replace('finds', 'locates').replace('mirrors', 'copies').replace('template', 'layout');
const other = 'The city council approved the new budget for public transport after a long debate about ticket prices and bus routes.';
let dir: string;
let files: Record<string, string>;

beforeEach(() => {
  dir = makeTempDir('neardup-compare-');
  files = {};
  for (const [name, content] of Object.entries({ original, homoglyphCopy, edited, other, empty: '  \n' })) {
    files[name] = join(dir, `${name}.txt`);
    writeFileSync(files[name]!, content);
  }
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  vi.restoreAllMocks();
});

/** stdout of the command run in this process; its errors are thrown, not reported. */
async function run(...args: string[]): Promise<string> {
  return (await runInProcess(registerCompare, args, { rethrow: true })).stdout;
}

const params = fingerprintParamsFrom(defaultConfig().fingerprint);
const realDistance = (a: string, b: string) => hammingDistance(analyzeText(a, params).fingerprint!, analyzeText(b, params).fingerprint!);

describe('neardup compare', () => {
  it('calls a homoglyph copy a near-duplicate at distance 0', async () => {
    // The second line: the cascade's flag of the copy (look-alike letters).
    expect(await run('compare', files.original!, files.homoglyphCopy!)).toBe('0 near-duplicate similarity 1.000 containment 1.000\nflags: b homoglyph\n');
  });

  it('calls different texts distinct, with their real distance', async () => {
    const d = realDistance(original, other);
    expect(d).toBeGreaterThan(3);
    expect(await run('compare', files.original!, files.other!)).toMatch(new RegExp(`^${d} distinct similarity 0\\.\\d{3} containment 0\\.\\d{3}\n$`));
    expect(await run('compare', '--verify', 'off', files.original!, files.other!)).toBe(`${d} distinct\n`);
  });

  it('uses --distance as the threshold', async () => {
    const d = realDistance(original, edited);
    expect(d).toBeGreaterThan(0);
    expect(d).toBeLessThanOrEqual(31);
    expect(await run('compare', '--verify', 'off', '--distance', String(d), files.original!, files.edited!)).toBe(`${d} near-duplicate\n`);
    expect(await run('compare', '--verify', 'off', '--distance', String(d - 1), files.original!, files.edited!)).toBe(`${d} distinct\n`);
    // This edit rewrote most of the text: the second stage does not call it similar either.
    expect(await run('compare', '--distance', String(d - 1), files.original!, files.edited!)).toMatch(new RegExp(`^${d} distinct similarity 0\\.\\d{3} containment`));
  });

  it('compares main texts with --html', async () => {
    const a = join(dir, 'a.html');
    const b = join(dir, 'b.html');
    writeFileSync(a, `<html><body><header>Site A</header><article><p>${original}</p></article><footer>(c) A</footer></body></html>`);
    writeFileSync(b, `<html><body><div class="menu">Other site menu</div><main><p>${original}</p></main></body></html>`);
    expect(await run('compare', '--html', a, b)).toBe('0 near-duplicate similarity 1.000 containment 1.000\n');
  });

  it('prints JSON with --json', async () => {
    const out = JSON.parse(await run('compare', '--json', files.original!, files.homoglyphCopy!)) as Record<string, unknown>;
    expect(out).toMatchObject({ distance: 0, verdict: 'near-duplicate', threshold: 3, exact: true, similarity: 1, containment: 1 });
  });

  it.each([
    ['a missing file', () => ['compare', files.original!, join(dir, 'missing.txt')], /Cannot read `.*missing\.txt`: no such file/],
    ['a text without words', () => ['compare', files.original!, files.empty!], /has no words to fingerprint/],
    ['both on standard input', () => ['compare', '-', '-'], /at most one of `a` and `b`/],
    ['a bad distance', () => ['compare', '--distance', '32', files.original!, files.other!], /distance/],
    ['a missing argument', () => ['compare', files.original!], /missing required argument/],
  ])('fails for %s', async (_name, args, message) => {
    await expect(run(...args())).rejects.toThrow(message);
  });

  it('exits non-zero with one line from the real binary', () => {
    const result = spawnSync(process.execPath, [bin, 'compare', files.original!, join(dir, 'missing.txt')], { encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    const ok = spawnSync(process.execPath, [bin, 'compare', files.original!, files.homoglyphCopy!], { encoding: 'utf8' });
    expect(ok.status).toBe(0);
    expect(ok.stdout).toBe('0 near-duplicate similarity 1.000 containment 1.000\nflags: b homoglyph\n');
  });
});
