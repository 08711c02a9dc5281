import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { AnalyzePool, WorkerCrashError, WorkerStartError } from '../../src/batch/analyze-pool.js';

const config = loadConfig({ env: {} });
const text = 'The river ran high after the storm, and the old stone bridge at the edge of the village was closed for three days while engineers checked it.';

describe('AnalyzePool', () => {
  it('analyses text and HTML in worker threads, results in input order', async () => {
    const pool = new AnalyzePool({ size: 2, config });
    try {
      const results = await pool.run([
        { url: 'http://t/1', text },
        { url: 'http://t/2', html: `<html><head><title>Bridge</title></head><body><article><p>${text}</p></article></body></html>` },
        { url: 'http://t/3', text: '' },
      ]);
      expect(results.map((r) => r.ok)).toEqual([true, true, true]);
      const [a, b, c] = results.map((r) => (r.ok ? r.page : null));
      expect(a!.url).toBe('http://t/1');
      expect(a!.text).toBe(text); // not sent back from the worker, restored from the input
      expect(a!.analysis!.fingerprint).not.toBeNull();
      expect(b!.page!.title).toBe('Bridge');
      expect(b!.text).toContain('old stone bridge');
      expect(c!.skip?.reason).toBe('no-text');
    } finally {
      await pool.close();
    }
  });

  it('replaces a worker that dies, rejecting only the batch it held', async () => {
    const pool = new AnalyzePool({ size: 1, config, script: new URL('../fixtures/batch/crashing-worker.mjs', import.meta.url) });
    try {
      await expect(pool.run([{ url: 'a', text: 'x' }])).resolves.toEqual([{ ok: false, error: 'seen a' }]);
      const crashed = pool.run([{ url: 'crash', text: 'x' }]);
      await expect(crashed).rejects.toBeInstanceOf(WorkerCrashError);
      await expect(crashed).rejects.toThrow(/exited with code 3/);
      await expect(pool.run([{ url: 'b', text: 'x' }])).resolves.toEqual([{ ok: false, error: 'seen b' }]);
    } finally {
      await pool.close();
    }
  });

  it('refuses all work when a worker cannot start, instead of respawning it forever', async () => {
    const pool = new AnalyzePool({ size: 2, config, script: new URL('../fixtures/batch/broken-worker.mjs', import.meta.url) });
    try {
      await expect(pool.run([{ url: 'a', text: 'x' }])).rejects.toBeInstanceOf(WorkerStartError);
      await expect(pool.run([{ url: 'b', text: 'x' }])).rejects.toThrow(/could not start: cannot load the analysis modules/);
    } finally {
      await pool.close();
    }
  });
});
