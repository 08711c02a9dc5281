/**
 * A clean project that installs neardup from its packed tarball, as a user would, without network:
 * `npm init -y` (npm 11 writes `"type": "commonjs"`), then neardup and @crawlee/cheerio as dependencies and TypeScript,
 * tsx and @types/node as devDependencies. Its lockfile is cut from the repository's (neardup's
 * dependencies and the closure of those three dev tools), so npm takes every package at the version
 * the repository is tested with, from the local npm cache (`npm ci` put them there). Installing the
 * bare tarball would instead need the registry's package documents, which the cache does not hold.
 *
 * Install scripts are skipped (`--ignore-scripts`): the only one among neardup's dependencies is
 * better-sqlite3's, which cannot download its prebuilt binary here and compiles SQLite instead
 * (1–3 minutes of CPU). The compiled module `npm ci` built for the repository (same version, same
 * Node) is copied in its place; a user's `npm install` runs the script as usual.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface CommandRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command; never throws for a non-zero exit. */
export function run(file: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<CommandRun> {
  return new Promise((done) => {
    execFile(file, [...args], { cwd, env, maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      done({ code, stdout, stderr });
    });
  });
}

/** What `npm pack --json` reports of the tarball. */
export interface PackedTarball {
  readonly filename: string;
  readonly integrity: string;
  readonly files: ReadonlyArray<{ readonly path: string }>;
}

interface LockEntry {
  readonly dev?: boolean;
  readonly devOptional?: boolean;
  readonly optional?: boolean;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly optionalDependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly [key: string]: unknown;
}

interface RepoManifest {
  readonly name: string;
  readonly version: string;
  readonly license: string;
  readonly bin: unknown;
  readonly engines: unknown;
  readonly dependencies: Readonly<Record<string, string>>;
  readonly devDependencies: Readonly<Record<string, string>>;
}

/** The crawler neardup plugs into, which a plug-in user depends on beside neardup. */
export const CONSUMER_CRAWLER = '@crawlee/cheerio';
/** The dev tools a TypeScript user installs beside neardup. */
export const CONSUMER_DEV_TOOLS = ['typescript', 'tsx', '@types/node'] as const;

/**
 * The lockfile path a package named `name` required from the package at `from` resolves to, by
 * Node's walk up the node_modules folders (`node_modules/a/node_modules/b` first, then `node_modules/b`).
 */
function resolveLockPath(packages: Readonly<Record<string, LockEntry>>, from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = base === '' ? `node_modules/${name}` : `${base}/node_modules/${name}`;
    if (packages[candidate] !== undefined) return candidate;
    if (base === '') return undefined;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut < 0 ? '' : base.slice(0, cut);
  }
}

/** The lockfile paths of `roots` and everything they depend on (optional and peer dependencies included when locked). */
export function lockClosure(packages: Readonly<Record<string, LockEntry>>, roots: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const pending = roots.map((name) => `node_modules/${name}`);
  while (pending.length > 0) {
    const path = pending.pop()!;
    const entry = packages[path];
    if (seen.has(path) || entry === undefined) continue;
    seen.add(path);
    for (const name of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies, ...entry.peerDependencies })) {
      const resolved = resolveLockPath(packages, path, name);
      if (resolved !== undefined) pending.push(resolved);
    }
  }
  return seen;
}

/**
 * Turns the folder `npm init -y` made into a project depending on the tarball (and on the dev
 * tools), with a lockfile npm can install offline; the rest of what `npm init` wrote (its `type`) is kept.
 */
export function writeConsumerProject(dir: string, repoRoot: string, tarball: PackedTarball): void {
  const repo = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as RepoManifest;
  const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const spec = `file:${tarball.filename}`;
  const dependencies = { [repo.name]: spec, [CONSUMER_CRAWLER]: repo.dependencies[CONSUMER_CRAWLER]! };
  const devDependencies = Object.fromEntries(CONSUMER_DEV_TOOLS.map((name) => {
    const version = repo.devDependencies[name] ?? repo.dependencies[name];
    if (version === undefined) throw new Error(`${name} is not in the repository's package.json`);
    return [name, version];
  }));
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
  Object.assign(manifest, { dependencies, devDependencies });
  const packages: Record<string, unknown> = {
    '': { name: manifest.name, version: manifest.version, license: manifest.license, dependencies, devDependencies },
    [`node_modules/${repo.name}`]: {
      version: repo.version, resolved: spec, integrity: tarball.integrity, license: repo.license,
      dependencies: repo.dependencies, bin: repo.bin, engines: repo.engines,
    },
  };
  const production = lockClosure(lock.packages, Object.keys(repo.dependencies));
  const devTools = lockClosure(lock.packages, CONSUMER_DEV_TOOLS);
  for (const path of [...production, ...devTools]) {
    const { dev: _dev, devOptional: _devOptional, ...entry } = lock.packages[path]!;
    packages[path] = production.has(path) ? entry : { ...entry, dev: true };
  }
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(dir, 'package-lock.json'), `${JSON.stringify({ name: manifest.name, version: manifest.version, lockfileVersion: 3, requires: true, packages }, null, 2)}\n`);
}

/** The compiled better-sqlite3 module of the repository, copied where the consumer's copy loads it from. */
export function copyNativeModule(dir: string, repoRoot: string): void {
  const relative = join('node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
  mkdirSync(dirname(join(dir, relative)), { recursive: true });
  copyFileSync(join(repoRoot, relative), join(dir, relative));
}
