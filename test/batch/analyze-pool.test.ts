import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { availableParallelism } from 'node:os';
import { AnalyzePool, analyzeInProcess, workerCount } from '../../src/batch/analyze-pool.js';
import { WorkerCrashError, WorkerStartError } from '../../src/errors.js';

const config = loadConfig({ env: {} });
const text = 'The river ran high after the storm, and the old stone bridge at the edge of the village was closed for three days while engineers checked it.';

describe('workerCount', () => {
  it('leaves a core to the committing thread by default, and takes an explicit count as given', () => {
    const cores = availableParallelism();
    expect(workerCount(0)).toBe(Math.max(1, cores - 1));
    expect(analyzeInProcess(0)).toBe(cores === 1);
    expect(workerCount(3)).toBe(Math.min(3, cores));
    expect(analyzeInProcess(1)).toBe(false);
  });
});

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
      // An extracted text comes back as the bytes of its JSON string, for corpus.jsonl.
      expect(b!.text).toBe('');
      expect(JSON.parse(Buffer.from(b!.textJson!).toString('utf8'))).toContain('old stone bridge');
      expect(c!.skip?.reason).toBe('no-text');
    } finally {
      await pool.close();
    }
  });

  it('parses JSONL lines in the worker: a page, a problem, a too-large skip, a blank line', async () => {
    const pool = new AnalyzePool({ size: 1, config });
    const line = (position: string, value: string, maxDocumentBytes = 1000) => {
      const bytes = new TextEncoder().encode(value);
      return { kind: 'jsonl-line' as const, position, file: 'f.jsonl', bytes, size: bytes.length, maxDocumentBytes };
    };
    try {
      const first = line('f.jsonl:1', JSON.stringify({ id: 7, text: `${text} «ünïcödé»` }));
      const items = [
        first,
        { url: 'http://t/plain', text },
        line('f.jsonl:2', '{oops'),
        line('f.jsonl:3', JSON.stringify({ url: 'http://t/big', text }), 10),
        line('f.jsonl:4', '\u00a0 '),
      ];
      const results = await pool.run(items);
      expect(first.bytes.byteLength).toBe(first.size); // the caller's bytes stay usable (for a retry)
      const [page, plain, bad, big, blank] = results;
      expect(page!.ok && page!.page.url).toBe('f.jsonl#7');
      expect(page!.ok && page!.page.text).toBe('');
      expect(page!.ok && JSON.parse(Buffer.from(page!.page.textJson!).toString('utf8'))).toBe(`${text} «ünïcödé»`);
      expect(plain!.ok && plain!.page.text).toBe(text);
      expect(bad).toEqual({ ok: false, entry: { kind: 'problem', position: 'f.jsonl:2', message: expect.stringMatching(/^invalid JSON/) } });
      expect(big).toEqual({ ok: false, entry: { kind: 'skip', position: 'f.jsonl:3', url: 'http://t/big', reason: 'too-large', detail: expect.any(String) } });
      expect(blank).toEqual({ ok: false, entry: null });
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
