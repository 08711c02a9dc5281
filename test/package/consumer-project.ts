/**
 * A clean project that installs neardup from its packed tarball, as a user would, without network:
 * its lockfile is the repository's (dev-only packages left out), so npm takes every dependency at
 * the version the repository is tested with, from the local npm cache (`npm ci` put them there).
 * Installing the bare tarball would instead need the registry's package documents, which the cache
 * does not always hold.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

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
  readonly [key: string]: unknown;
}

/** package.json and package-lock.json of a project that depends on the tarball only. */
export function writeConsumerProject(dir: string, repoRoot: string, tarball: PackedTarball): void {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
    name: string; version: string; license: string; bin: unknown; engines: unknown; dependencies: Record<string, string>;
  };
  const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const spec = `file:${tarball.filename}`;
  const packages: Record<string, unknown> = {
    '': { name: 'consumer', dependencies: { [pkg.name]: spec } },
    [`node_modules/${pkg.name}`]: {
      version: pkg.version, resolved: spec, integrity: tarball.integrity, license: pkg.license,
      dependencies: pkg.dependencies, bin: pkg.bin, engines: pkg.engines,
    },
  };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path !== '' && entry.dev !== true) packages[path] = entry;
  }
  const manifest = {
    name: 'consumer', private: true, type: 'module',
    dependencies: { [pkg.name]: spec },
    // npm 11 asks for approval of install scripts; better-sqlite3 builds its native module in one.
    allowScripts: { 'better-sqlite3': true },
  };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(dir, 'package-lock.json'), `${JSON.stringify({ name: 'consumer', lockfileVersion: 3, requires: true, packages }, null, 2)}\n`);
}
