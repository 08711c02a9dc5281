import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config.js';
import { hammingDistance } from '../../src/fingerprint/fingerprint-codec.js';
import { FingerprintIndex } from '../../src/fingerprint-index/fingerprint-index.js';
import type { Decision } from '../../src/types.js';
import { paramsFor, tempDir } from './index-test-helpers.js';

const CHILD = fileURLToPath(new URL('./concurrent-writer-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const COUNT = 300;

interface ChildResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

let temp: ReturnType<typeof tempDir>;
beforeEach(() => {
  temp = tempDir();
});
afterEach(() => temp.remove());

/** Starts both writers, releases them together once both have opened the database, waits for both. */
async function race(dbPath: string, mode: 'k' | 'verify' = 'k'): Promise<ChildResult[]> {
  const goFile = join(temp.dir, 'go');
  let ready = 0;
  const runs = ['A', 'B'].map(
    (role) =>
      new Promise<ChildResult>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dbPath, role, String(COUNT), goFile, mode], {
          cwd: ROOT,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          if (!stdout.includes('ready\n') && (stdout + chunk).includes('ready\n')) {
            ready++;
            if (ready === 2) writeFileSync(goFile, 'go');
          }
          stdout += chunk;
        });
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      }),
  );
  return Promise.all(runs);
}

describe('two writer processes on one database file', () => {
  it('never store two near-duplicates, and agree with the database on every decision', async () => {
    const dbPath = join(temp.dir, 'race.db');
    const results = await race(dbPath);
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const reported = results.map((r) => JSON.parse(r.stdout.split('\n')[1]!) as Array<{ url: string; decision: Decision }>);

    const index = FingerprintIndex.open(dbPath, { params: paramsFor(3) });
    try {
      const stored = [...index.stored()];
      // No two stored fingerprints within distance 3 of each other.
      for (let i = 0; i < stored.length; i++) {
        for (let j = i + 1; j < stored.length; j++) {
          const d = hammingDistance(stored[i]!.fingerprint, stored[j]!.fingerprint);
          expect(d, `${stored[i]!.url} and ${stored[j]!.url}`).toBeGreaterThan(3);
        }
      }
      // Exactly one of each contested pair was stored.
      const storedUrls = new Set(stored.map((d) => d.url));
      for (let i = 0; i < COUNT; i++) {
        const a = storedUrls.has(`https://a.example/${i}`);
        const b = storedUrls.has(`https://b.example/${i}`);
        expect(a !== b, `pair ${i}: a stored ${a}, b stored ${b}`).toBe(true);
      }
      expect(index.stats().stored).toBe(COUNT);
      expect(index.stats().exact + index.stats().near).toBe(COUNT);
      // What each process was told is what the database holds.
      for (const { url, decision } of reported.flat()) {
        const row = index.getByUrl(url);
        expect(row, url).toBeDefined();
        if (decision.kind === 'stored') expect(row).toMatchObject({ id: decision.id });
        else expect(row).toMatchObject({ id: (decision as { id: number }).id, kind: decision.kind });
      }
      const wins = reported.map((decisions) => decisions.filter((d) => d.decision.kind === 'stored').length);
      // Both processes won some races when they met in the middle (informative; the checks above are the test).
      console.info(`concurrent writers: A stored ${wins[0]}, B stored ${wins[1]}`);
    } finally {
      index.close();
    }
  });

  it('with the second stage on, never store two documents it matches (copies beyond k, sketches from the other process)', async () => {
    const dbPath = join(temp.dir, 'race-verify.db');
    const results = await race(dbPath, 'verify');
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const reported = results.map((r) => JSON.parse(r.stdout.split('\n')[1]!) as Array<{ url: string; decision: Decision }>);
    const index = FingerprintIndex.open(dbPath, { params: paramsFor(3), verify: defaultConfig().verify });
    try {
      const storedUrls = new Set([...index.stored()].map((d) => d.url));
      for (let i = 0; i < COUNT; i++) {
        const a = storedUrls.has(`https://a.example/${i}`);
        const b = storedUrls.has(`https://b.example/${i}`);
        expect(a !== b, `pair ${i}: a stored ${a}, b stored ${b}`).toBe(true);
      }
      const stats = index.stats();
      expect(stats).toMatchObject({ stored: COUNT, exact: 0, near: 0, similar: COUNT });
      for (const { url, decision } of reported.flat()) {
        const row = index.getByUrl(url);
        if (decision.kind === 'stored') expect(row, url).toMatchObject({ id: decision.id });
        else expect(row, url).toMatchObject({ id: (decision as { id: number }).id, kind: 'similar' });
      }
      const wins = reported.map((decisions) => decisions.filter((d) => d.decision.kind === 'stored').length);
      console.info(`concurrent writers, second stage: A stored ${wins[0]}, B stored ${wins[1]}`);
    } finally {
      index.close();
    }
  });
});
