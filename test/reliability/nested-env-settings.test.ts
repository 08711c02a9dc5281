/**
 * Issue 28 item 14: NEARDUP_* variables for nested settings (NEARDUP_CASCADE_GENERATED_ENABLED,
 * NEARDUP_FILTER_THRESHOLDS_MEDIUM) were ignored without a word. Every setting now has its variable,
 * derived from the config schema, and an unknown NEARDUP_ name is warned about on stderr (the
 * command still runs), through the real CLI.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnNeardup } from '../helpers/run-cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

describe('nested settings from the environment', () => {
  const work = makeTempDir('neardup-nested-env-');
  const input = join(work, 'results.jsonl');
  writeFileSync(input, `${JSON.stringify({ query: 'buses', results: [{ url: 'https://a.example/', title: 'City buses', snippet: 'New routes from spring.' }] })}\n`);

  it('NEARDUP_FILTER_THRESHOLDS_MEDIUM sets filter.thresholds.medium', async () => {
    const r = await spawnNeardup(['filter', '--class', 'general-telegraphic', input], { env: { NEARDUP_FILTER_THRESHOLDS_MEDIUM: '0.41' } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ level: 'medium', threshold: 0.41 });
  });

  it('a bad nested value names its variable', async () => {
    const r = await spawnNeardup(['filter', input], { env: { NEARDUP_CASCADE_GENERATED_ENABLED: 'no' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('neardup: Expected `cascade.generated.enabled` to be a boolean, got `no` (string) (NEARDUP_CASCADE_GENERATED_ENABLED)\n');
  });

  it('an unknown NEARDUP_ name is warned about, with the nearest name', async () => {
    const r = await spawnNeardup(['filter', input], { env: { NEARDUP_CASCADE_GENERATED_ENABLE: 'false' } });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^neardup: warning: ignoring unknown environment variable NEARDUP_CASCADE_GENERATED_ENABLE \(did you mean NEARDUP_CASCADE_GENERATED_ENABLED\?\)/);
    expect(JSON.parse(r.stdout)).toHaveProperty('results');
  });
});
