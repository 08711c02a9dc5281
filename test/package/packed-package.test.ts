/**
 * The package as a user gets it: `npm pack` (which builds dist/ through `prepare`), the tarball
 * installed into a project made by `npm init -y` (CommonJS, as npm 11 makes it) with no network
 * beyond the local npm cache, and there:
 * - the CLI (`neardup --version`, `fingerprint`, `compare`, `dedup` with its worker threads);
 * - plain .mjs / .cjs files that import / require() the library;
 * - the plug-in example (examples/cheerio-crawler.ts with example-args.ts, copied unchanged) type-
 *   checked by `tsc` without skipLibCheck and run by `tsx` on the demo site, in that CommonJS
 *   project and in an ES module one beside it (`esm/`, `"type": "module"`, sharing node_modules):
 *   every .d.ts the package publishes compiles with only what `npm install` puts there.
 * Skipped, with its reason, only when the local npm cache lacks a dependency (run `npm ci` first);
 * under CI=true that fails instead.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeText, corpusFileName, defaultConfig, fingerprintParamsFrom, fingerprintToHex } from '../../src/index.js';
import { loadDemoArticles, startDemoSite, type DemoSite } from '../helpers/demo-site/demo-site.js';
import { copyNativeModule, run, writeConsumerProject, type CommandRun, type PackedTarball } from './consumer-project.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const npm = 'npm';
const inCi = process.env.CI === 'true';
const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;

/** The plug-in example as a user copies it: the crawler and its command-line helper. */
const PLUG_IN_FILES = ['cheerio-crawler.ts', 'example-args.ts'] as const;
/** The tsconfig the docs give a consumer: no skipLibCheck, so every published .d.ts is checked. */
const CONSUMER_TSCONFIG = { compilerOptions: { module: 'nodenext', target: 'es2022', strict: true, noEmit: true } };

let dir = '';
let tarball: PackedTarball;
/** Why the installed package cannot be tried here (a dependency missing from the local cache), or null. */
let notInstallable: string | null = null;
let demo: DemoSite | undefined;

const [article, other] = loadDemoArticles();
const articleText = article!.paragraphs.join('\n\n');
/** The article with one word changed: a near-duplicate. */
const editedText = articleText.replace(/\b(\w{5,})\b/, 'replaced');
const otherText = other!.paragraphs.join('\n\n');

const LIBRARY_MJS = `
import { readFileSync } from 'node:fs';
import { Deduplicator, analyzeText, defaultConfig, fingerprintParamsFrom, fingerprintToHex, hammingDistance } from 'neardup';
const params = fingerprintParamsFrom(defaultConfig().fingerprint);
const [textA, textB] = process.argv.slice(2).map((file) => readFileSync(file, 'utf8'));
const [a, b] = [textA, textB].map((text) => analyzeText(text, params));
const dedup = await Deduplicator.open({ data: 'library-data' });
const verdicts = [await dedup.judge({ url: 'https://a.example/', text: textA }), await dedup.judge({ url: 'https://b.example/', text: textB })];
await dedup.close();
console.log(JSON.stringify({
  a: fingerprintToHex(a.fingerprint), b: fingerprintToHex(b.fingerprint), distance: hammingDistance(a.fingerprint, b.fingerprint),
  verdicts: verdicts.map((v) => [v.kind, v.duplicate ? v.match.url : null]),
}));
`;

const LIBRARY_CJS = `
const { analyzeText, defaultConfig, fingerprintParamsFrom, fingerprintToHex } = require('neardup');
const params = fingerprintParamsFrom(defaultConfig().fingerprint);
console.log(fingerprintToHex(analyzeText(require('node:fs').readFileSync(process.argv[2], 'utf8'), params).fingerprint));
`;

/** CommonJS on any Node 20: the ES module loaded by import() inside an async function (no top-level await in CommonJS). */
const LIBRARY_CJS_IMPORT = `
async function main() {
  const { analyzeText, defaultConfig, fingerprintParamsFrom, fingerprintToHex } = await import('neardup');
  const params = fingerprintParamsFrom(defaultConfig().fingerprint);
  console.log(fingerprintToHex(analyzeText(require('node:fs').readFileSync(process.argv[2], 'utf8'), params).fingerprint));
}
main().catch((error) => { console.error(error); process.exitCode = 1; });
`;

/** The installed CLI, through the bin link npm made. */
const neardup = (args: readonly string[]): Promise<CommandRun> =>
  run(join(dir, 'node_modules', '.bin', 'neardup'), args, dir, { ...process.env, NEARDUP_CONFIG: '' });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'neardup-package-'));
  const packed = await run(npm, ['pack', '--json', '--pack-destination', dir], repoRoot);
  expect(packed.code, packed.stderr).toBe(0);
  // npm prints lifecycle output (the build) before the JSON array.
  tarball = (JSON.parse(packed.stdout.slice(packed.stdout.indexOf('\n[') + 1)) as PackedTarball[])[0]!;
  const init = await run(npm, ['init', '-y'], dir);
  expect(init.code, init.stderr).toBe(0);
  writeConsumerProject(dir, repoRoot, tarball);
  const installed = await run(npm, ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], dir);
  if (installed.code !== 0 && /ENOTCACHED/.test(installed.stderr) && !inCi) {
    notInstallable = `the local npm cache lacks a dependency (run \`npm ci\` first): ${installed.stderr.split('\n').find((l) => l.includes('ENOTCACHED'))}`;
    console.warn(`\n⚠ SKIPPED: the packed-package tests: ${notInstallable}\n`);
    return;
  }
  expect(installed.code, installed.stderr).toBe(0);
  copyNativeModule(dir, repoRoot);
  const esm = join(dir, 'esm');
  mkdirSync(esm);
  expect((await run(npm, ['init', '-y'], esm)).code).toBe(0);
  expect((await run(npm, ['pkg', 'set', 'type=module'], esm)).code).toBe(0);
  for (const project of [dir, esm]) {
    for (const file of PLUG_IN_FILES) cpSync(join(repoRoot, 'examples', file), join(project, file));
    writeFileSync(join(project, 'tsconfig.json'), `${JSON.stringify(CONSUMER_TSCONFIG, null, 2)}\n`);
  }
  writeFileSync(join(dir, 'a.txt'), articleText);
  writeFileSync(join(dir, 'a-edited.txt'), editedText);
  writeFileSync(join(dir, 'other.txt'), otherText);
  writeFileSync(join(dir, 'use-library.mjs'), LIBRARY_MJS);
  writeFileSync(join(dir, 'use-library.cjs'), LIBRARY_CJS);
  writeFileSync(join(dir, 'use-library-import.cjs'), LIBRARY_CJS_IMPORT);
}, 900_000);

afterAll(async () => {
  await demo?.site.close();
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

/** The fingerprint the sources give (the compiled package must give the same). */
function sourceFingerprint(text: string): string {
  return fingerprintToHex(analyzeText(text, fingerprintParamsFrom(defaultConfig().fingerprint)).fingerprint!);
}

describe('the packed tarball', () => {
  it('holds dist/ (JavaScript and declarations), config/, bin/neardup.js, README and LICENSE only', () => {
    const paths = tarball.files.map((f) => f.path);
    const allowed = /^(dist\/|config\/|bin\/neardup\.js$|README\.md$|LICENSE$|package\.json$)/;
    expect(paths.filter((p) => !allowed.test(p))).toEqual([]);
    expect(paths).toEqual(expect.arrayContaining([
      'dist/index.js', 'dist/index.d.ts', 'dist/cli.js', 'bin/neardup.js', 'config/default.json', 'LICENSE', 'README.md',
    ]));
    expect(paths.filter((p) => /(^|\/)(test|fixtures|\.ci|src|scripts)\//.test(p) || p.endsWith('.ts') && !p.endsWith('.d.ts'))).toEqual([]);
  });
});

describe('the package installed in a clean project, offline', () => {
  it('neardup --version prints the package version', async (ctx) => {
    if (notInstallable !== null) ctx.skip(notInstallable);
    const result = await neardup(['--version']);
    expect(result).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it('neardup fingerprint prints the fingerprint the sources compute', async (ctx) => {
    if (notInstallable !== null) ctx.skip(notInstallable);
    const result = await neardup(['fingerprint', 'a.txt']);
    expect(result).toMatchObject({ code: 0, stdout: `${sourceFingerprint(articleText)}\n` });
  });

  it('neardup compare tells a one-word edit (near-duplicate) from another article (distinct)', async (ctx) => {
    if (notInstallable !== null) ctx.skip(notInstallable);
    const near = await neardup(['compare', 'a.txt', 'a-edited.txt']);
    expect(near.code, near.stderr).toBe(0);
    // With the second stage on (the default) the sketches' estimates follow the verdict.
    expect(near.stdout).toMatch(/^[0-3] near-duplicate similarity [01]\.\d{3} containment [01]\.\d{3}\n$/);
    const distinct = await neardup(['compare', 'a.txt', 'other.txt']);
    expect(distinct.code, distinct.stderr).toBe(0);
    expect(distinct.stdout).toMatch(/^\d+ distinct similarity [01]\.\d{3} containment [01]\.\d{3}\n$/);
  });

  it('neardup dedup runs its worker threads from dist/ and config/default.json from the package', async (ctx) => {
    if (notInstallable !== null) ctx.skip(notInstallable);
    const inputs = join(dir, 'inputs');
    mkdirSync(inputs, { recursive: true });
    writeFileSync(join(inputs, '1.txt'), articleText);
    writeFileSync(join(inputs, '2.txt'), editedText);
    writeFileSync(join(inputs, '3.txt'), otherText);
    const result = await neardup(['dedup', 'inputs', '--data', 'dedup-data', '--workers', '2', '--json', '--no-progress']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ documents: 3, stored: 2, near: 1, exact: 0, workers: 2, errors: 0 });
  });

  it('a plain .mjs file imports the library by its package name and uses it (fingerprints, the crawlee plug-in)', async (ctx) => {
    if (notInstallable !== null) ctx.skip(notInstallable);
    const result = await run(process.execPath, ['use-library.mjs', 'a.txt', 'a-edited.txt'], dir);
    expect(result.code, result.stderr).toBe(0);
    const out = JSON.parse(result.stdout) as { a: string; b: string; distance: number; verdicts: unknown };
    expect(out.a).toBe(sourceFingerprint(articleText));
    expect(out.b).toBe(sourceFingerprint(editedText));
    expect(out.distance).toBeLessThanOrEqual(3);
    expect(out.verdicts).toEqual([['stored', null], ['near', 'https://a.example/']]);
  });

  it('a .cjs file can require() it too, on Node versions that load ES modules with require (20.19+)', async (ctx) => {
    if (notInstallable !== null) ctx.skip(notInstallable);
    const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
    if (major === 20 && minor < 19) ctx.skip(`Node ${process.versions.node} cannot require() an ES module (20.19+ can)`);
    const result = await run(process.execPath, ['use-library.cjs', 'other.txt'], dir);
    expect(result).toMatchObject({ code: 0, stdout: `${sourceFingerprint(otherText)}\n` });
  });
});

describe('CommonJS on Node versions without require() of ES modules', () => {
  it('a .cjs file loads it with import() inside an async function', async (ctx) => {
    if (notInstallable !== null) ctx.skip(notInstallable);
    const result = await run(process.execPath, ['use-library-import.cjs', 'other.txt'], dir);
    expect(result).toMatchObject({ code: 0, stdout: `${sourceFingerprint(otherText)}\n` });
  });
});

describe('the plug-in example in a TypeScript project using the installed package', () => {
  const projects = [
    { name: 'CommonJS (npm init -y)', folder: '.', type: 'commonjs' },
    { name: 'ES module ("type": "module")', folder: 'esm', type: 'module' },
  ] as const;

  it.for(projects)('$name: the project is what npm made', async ({ folder, type }, ctx) => {
    if (notInstallable !== null) ctx.skip(notInstallable);
    const manifest = JSON.parse(readFileSync(join(dir, folder, 'package.json'), 'utf8')) as { type?: string };
    expect(manifest.type).toBe(type);
  });

  it.for(projects)('$name: tsc type-checks it without skipLibCheck', { timeout: 300_000 }, async ({ folder }, ctx) => {
    if (notInstallable !== null) ctx.skip(notInstallable);
    const tsc = await run(join(dir, 'node_modules', '.bin', 'tsc'), ['-p', '.'], join(dir, folder));
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.code).toBe(0);
  });

  it.for(projects)('$name: tsx runs it on the demo site, rejecting every copy and storing every original', { timeout: 300_000 }, async ({ folder }, ctx) => {
    if (notInstallable !== null) ctx.skip(notInstallable);
    demo ??= await startDemoSite();
    const { manifest } = demo;
    const project = join(dir, folder);
    const result = await run(join(dir, 'node_modules', '.bin', 'tsx'), [
      'cheerio-crawler.ts', manifest.mainHome, manifest.mirrorHome, '--data', 'plug-in-data', '--concurrency', '1',
    ], project, { ...process.env, NEARDUP_CONFIG: '' });
    expect(result.code, result.stderr).toBe(0);
    const verdicts = new Map(result.stdout.split('\n').map((line) => line.split(/\s+/)).map(([kind, url, , match]) => [url, { kind, match }]));
    for (const url of [...manifest.originals, ...manifest.mirrorOriginals]) expect(verdicts.get(url)?.kind, url).toBe('stored');
    for (const copies of [manifest.byteCopies, manifest.retemplated, manifest.edited]) {
      for (const [copy, original] of copies) {
        expect(['exact', 'near'], copy).toContain(verdicts.get(copy)?.kind);
        expect(verdicts.get(copy)?.match, copy).toBe(original);
      }
    }
    expect(result.stdout).toMatch(/^summary \{.*"stored":\d+/m);
    expect(readFileSync(join(project, 'plug-in-data', corpusFileName), 'utf8')).toContain(manifest.originals[0]!);
  });
});
