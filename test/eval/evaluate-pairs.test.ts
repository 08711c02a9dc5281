import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { InputError } from '../../src/errors.js';
import { evaluatePairs } from '../../src/eval/evaluate-pairs.js';
import { formatEvalReport } from '../../src/eval/format-eval-report.js';
import { writeTinySet } from './tiny-set.js';
import { makeTempDir } from '../helpers/temp-dir.js';

let dir: string;
beforeAll(async () => {
  dir = makeTempDir('neardup-eval-');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('evaluatePairs', () => {
  it('scores the tiny hand-labelled set as computed by hand', async () => {
    const report = await evaluatePairs({ pairsFile: await writeTinySet(dir), config: loadConfig({ env: {} }) });
    const d = report.outcomes.map((o) => o.distance);
    // Preconditions of the hand computation.
    expect(d.slice(0, 3)).toEqual([0, 0, 0]);
    expect(d[3]).toBeGreaterThan(16);
    expect(d[4]).toBeNull();
    expect(d[5]).toBeGreaterThan(16);
    expect(d[6]).toBeLessThanOrEqual(3); // the extracted page text fingerprints like the text
    expect(report).toMatchObject({ pairs: 7, duplicates: 5, distinct: 2, unjudged: 1, documents: 8, configuredK: 3 });
    // At k ≥ d[6]: tp 3, fp 1, fn 2, tn 1 → P = 3/4, R = 3/5, F1 = 2·(3/4)(3/5)/(3/4 + 3/5) = 2/3.
    for (const row of report.rows.slice(d[6]!)) {
      expect([row.tp, row.fp, row.fn, row.tn]).toEqual([3, 1, 2, 1]);
      expect(row.precision).toBeCloseTo(0.75, 12);
      expect(row.recall).toBeCloseTo(0.6, 12);
      expect(row.f1).toBeCloseTo(2 / 3, 12);
    }
    expect(report.bestK).toBe(0); // below d[6] there is no false positive, so F1 is highest at k = 0 either way
    const copy = report.byKind.find((k) => k.kind === 'copy')!;
    expect(copy).toMatchObject({ duplicate: true, pairs: 3, correctAtConfigured: 3, medianDistance: 0 });
    const text = formatEvalReport(report);
    expect(text).toMatch(/pairs: 7 \(5 duplicate, 2 distinct\) over 8 documents/);
    expect(text).toMatch(/^ {3}3 .*<configured$/m);
  });

  it('names the missing document and its pair file line', async () => {
    const path = join(dir, 'broken.tsv');
    await writeFile(path, 'a.txt\tnope.txt\t1\n');
    await expect(evaluatePairs({ pairsFile: path, config: loadConfig({ env: {} }) })).rejects.toThrow(/nope\.txt/);
    await writeFile(path, 'a.txt\tdocs.jsonl#404\t1\n');
    await expect(evaluatePairs({ pairsFile: path, config: loadConfig({ env: {} }) })).rejects.toThrow(/No record with id or url `404`/);
    await expect(evaluatePairs({ pairsFile: join(dir, 'none.tsv'), config: loadConfig({ env: {} }) })).rejects.toBeInstanceOf(InputError);
  });
});
