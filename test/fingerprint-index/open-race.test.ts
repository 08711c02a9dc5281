/**
 * Two processes creating one new index file at the same moment: both must open it. Both start on
 * SQLite's rollback journal, and the switch to WAL then answers SQLITE_BUSY at once to one of them,
 * without the busy handler (about one pair in five on the development machine, before the open
 * retried it). Pairs one after another, each released together by a go file once both have started.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { FingerprintIndex } from '../../src/fingerprint-index/fingerprint-index.js';
import { paramsFor, tempDir } from './index-test-helpers.js';

const CHILD = fileURLToPath(new URL('./open-race-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PAIRS = 20;

let temp: ReturnType<typeof tempDir>;
beforeEach(() => {
  temp = tempDir();
});
afterEach(() => temp.remove());

/** One child opening `path` once the go file exists; `onReady` when it has started and waits. */
function openInChild(path: string, goFile: string, onReady: () => void): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, path, goFile], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (!stdout.includes('ready\n') && (stdout + chunk).includes('ready\n')) onReady();
      stdout += chunk;
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** Two children opening one new file, released together once both wait. */
async function racePair(path: string, goFile: string): Promise<Array<{ code: number | null; stderr: string }>> {
  let ready = 0;
  const release = () => {
    if (++ready === 2) writeFileSync(goFile, 'go');
  };
  return Promise.all([openInChild(path, goFile, release), openInChild(path, goFile, release)]);
}

it('two processes creating one new index at once both open it', async () => {
  const paths = Array.from({ length: PAIRS }, (_, i) => join(temp.dir, `new-${i}.db`));
  // One pair at a time: two processes alone on the machine meet within a millisecond or two.
  const results = [];
  for (const [i, path] of paths.entries()) results.push(...(await racePair(path, join(temp.dir, `go-${i}`))));
  expect(results).toHaveLength(2 * PAIRS);
  for (const r of results) expect(r.code, r.stderr).toBe(0);
  for (const path of paths) {
    const index = FingerprintIndex.open(path, { params: paramsFor(3) });
    expect(index.stats().stored).toBe(0);
    index.close();
  }
}, 300_000);
