/**
 * Issue 28 item 16 (batch half): `--workers 64` on 5 documents started 64 worker threads (1.7 GB).
 * The pool is capped at the cores, and starts one worker, then another only when work waits for
 * every worker started (a small input starts only what it keeps busy). The order of results and
 * the analyses do not depend on it (test/batch/dedup-batch.test.ts checks the decisions).
 */
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { AnalyzePool, workerCount } from '../../src/batch/analyze-pool.js';
import { loadConfig } from '../../src/config.js';

const config = loadConfig({ env: {} });
const text = 'The river ran high after the storm, and the old stone bridge at the edge of the village was closed for three days while engineers checked it.';

describe('worker pool size', () => {
  it('never asks for more workers than cores', () => {
    const cores = availableParallelism();
    expect(workerCount(64)).toBe(Math.min(64, cores));
    expect(workerCount(0)).toBe(Math.max(1, cores - 1));
    expect(workerCount(1)).toBe(1);
  });

  it('starts one worker for work that one keeps busy, more only when work waits', async () => {
    const pool = new AnalyzePool({ size: 64, config });
    try {
      expect(pool.size).toBe(workerCount(64));
      expect(pool.spawned).toBe(1);
      for (let i = 0; i < 5; i++) expect((await pool.run([{ url: `http://t/${i}`, text }]))[0]!.ok).toBe(true);
      expect(pool.spawned).toBe(1);
      // Batches sent together: the second finds the first worker busy.
      const together = await Promise.all([0, 1, 2, 3].map((i) => pool.run([{ url: `http://u/${i}`, text }])));
      expect(together.every((r) => r[0]!.ok)).toBe(true);
      expect(pool.spawned).toBe(Math.min(4, pool.size));
    } finally {
      await pool.close();
    }
  });
});
