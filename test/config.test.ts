import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema, defaultConfig, envSettings, loadConfig, unknownEnvWarnings } from '../src/config.js';
import { ConfigError } from '../src/errors.js';
import { makeTempDir } from './helpers/temp-dir.js';

describe('config', () => {
  it('loads the shipped defaults', () => {
    const c = defaultConfig();
    expect(c.fingerprint.distance).toBe(3);
    expect(c.fingerprint.shingleSize).toBe(3);
    expect(c.crawl.scope).toBe('host');
  });

  it('ships the second stage on, with its measured defaults, and NEARDUP_VERIFY_* override them', () => {
    expect(defaultConfig().verify).toEqual({ enabled: true, maxDistance: 24, sketchSize: 64, candidateKeys: 8, minSharedKeys: 2, jaccard: 0.55, containment: 0.95, minContainmentSamples: 32 });
    const c = loadConfig({ env: { NEARDUP_VERIFY_ENABLED: 'false', NEARDUP_VERIFY_JACCARD: '0.7' } });
    expect(c.verify.enabled).toBe(false);
    expect(c.verify.jaccard).toBe(0.7);
  });

  it.each([
    [{ verify: { candidateKeys: 20, sketchSize: 16 } }, /Expected `verify\.candidateKeys` to be at most `verify\.sketchSize`/],
    [{ verify: { minSharedKeys: 9 } }, /Expected `verify\.minSharedKeys` to be at most `verify\.candidateKeys`/],
    [{ verify: { jaccard: 1.5 } }, /verify\.jaccard.*got 1\.5 \(number\)/],
    [{ verify: { sketchSize: 4 } }, /verify\.sketchSize.*got 4 \(number\)/],
  ])('refuses a bad verify setting %j', (overrides, message) => {
    expect(() => loadConfig({ env: {}, overrides: overrides as never })).toThrow(message);
  });

  it('overlays a partial user file, then env, then overrides', () => {
    const dir = makeTempDir('neardup-config-');
    const file = join(dir, 'c.json');
    writeFileSync(file, JSON.stringify({ fingerprint: { distance: 5 }, crawl: { maxPages: 7 } }));
    const c = loadConfig({ file, env: { NEARDUP_CRAWL_MAX_PAGES: '9', NEARDUP_CRAWL_FOLLOW_DUPLICATES: 'true' } });
    expect(c.fingerprint.distance).toBe(5);
    expect(c.fingerprint.shingleSize).toBe(3);
    expect(c.crawl.maxPages).toBe(9);
    expect(c.crawl.followDuplicates).toBe(true);
    expect(loadConfig({ file, env: {}, overrides: { crawl: { maxPages: 1 } } }).crawl.maxPages).toBe(1);
  });

  it.each([
    [{ fingerprint: { distance: 40 } }, /fingerprint\.distance.*got 40 \(number\)/],
    [{ fingerprint: { distance: 'x' } }, /fingerprint\.distance.*got `x` \(string\)/],
    [{ crawl: { scope: 'planet' } }, /crawl\.scope.*"host"\|"domain"\|"any".*got `planet`/],
    [{ crawl: { nope: 1 } }, /Unknown setting in `crawl` `nope`/],
  ])('rejects bad values with a message that says what came: %j', (overrides, message) => {
    expect(() => loadConfig({ env: {}, overrides: overrides as never })).toThrow(ConfigError);
    expect(() => loadConfig({ env: {}, overrides: overrides as never })).toThrow(message);
  });

  it('rejects an unreadable or invalid user file in one line', () => {
    expect(() => loadConfig({ file: '/nonexistent/neardup.json', env: {} })).toThrow(/Cannot read config file/);
    const dir = makeTempDir('neardup-config-');
    const file = join(dir, 'bad.json');
    writeFileSync(file, '{nope');
    expect(() => loadConfig({ file, env: {} })).toThrow(/not valid JSON/);
  });

  it('reads every setting at any depth from NEARDUP_<PATH>, typed by the schema', () => {
    const c = loadConfig({
      env: {
        NEARDUP_CASCADE_GENERATED_ENABLED: 'false',
        NEARDUP_CASCADE_COMPILED_MIN_SOURCES: '3',
        NEARDUP_REPORT_PRIMARY_WEIGHTS_CANONICAL: '2.5',
        NEARDUP_FILTER_THRESHOLDS_MEDIUM: '0.5',
        NEARDUP_FILTER_CLASS_LEVELS_INFORMATIONAL_NATURAL: 'low',
        NEARDUP_CASCADE_SYNONYMISED_ACTION: 'reject',
      },
      onWarning: (m) => expect.fail(m),
    });
    expect(c.cascade.generated.enabled).toBe(false);
    expect(c.cascade.compiled.minSources).toBe(3);
    expect(c.report.primaryWeights.canonical).toBe(2.5);
    expect(c.filter.thresholds.medium).toBe(0.5);
    expect(c.filter.classLevels['informational-natural']).toBe('low');
    expect(c.cascade.synonymised.action).toBe('reject');
  });

  it('has one variable per setting, every name distinct, derived from the schema', () => {
    const settings = envSettings();
    const leaves = (value: unknown): number => (typeof value === 'object' && value !== null ? Object.values(value).reduce((n: number, x) => n + leaves(x), 0) : 1);
    expect(settings).toHaveLength(leaves(defaultConfig()));
    expect(new Set(settings.map((s) => s.name)).size).toBe(settings.length);
    expect(settings.every((s) => /^NEARDUP_[A-Z0-9_]+$/.test(s.name))).toBe(true);
    expect(settings.find((s) => s.name === 'NEARDUP_INDEX_URL')).toEqual({ name: 'NEARDUP_INDEX_URL', path: ['index', 'url'], type: 'string' });
    expect(Object.keys(configSchema.entries)).toEqual(Object.keys(defaultConfig()));
  });

  it('names the variable a bad value came from', () => {
    expect(() => loadConfig({ env: { NEARDUP_CASCADE_GENERATED_MIN_SCORE: 'high' } })).toThrow(/Expected `cascade\.generated\.minScore` to be a number 0–1, got NaN \(number\) \(NEARDUP_CASCADE_GENERATED_MIN_SCORE\)/);
    expect(() => loadConfig({ env: { NEARDUP_CASCADE_GENERATED_ENABLED: 'nope' } })).toThrow(/a boolean, got `nope` \(string\) \(NEARDUP_CASCADE_GENERATED_ENABLED\)/);
  });

  it('warns about an unknown NEARDUP_ name, with the nearest one, and takes the rest', () => {
    const warnings: string[] = [];
    const c = loadConfig({ env: { NEARDUP_CASCADE_GENERATED_ENABLE: 'false', NEARDUP_FOO: '1', NEARDUP_CONFIG: '', NEARDUP_DEBUG: '1', OTHER_THING: 'x', NEARDUP_CRAWL_MAX_PAGES: '5' }, onWarning: (m) => warnings.push(m) });
    expect(c.crawl.maxPages).toBe(5);
    expect(c.cascade.generated.enabled).toBe(true);
    expect(warnings).toEqual([
      expect.stringMatching(/^ignoring unknown environment variable NEARDUP_CASCADE_GENERATED_ENABLE \(did you mean NEARDUP_CASCADE_GENERATED_ENABLED\?\)/),
      expect.stringMatching(/^ignoring unknown environment variable NEARDUP_FOO; settings are NEARDUP_<SECTION>_<KEY>/),
    ]);
    expect(unknownEnvWarnings({ NEARDUP_INDEX_URL: 'postgres://a@b/c' })).toEqual([]);
  });
});
