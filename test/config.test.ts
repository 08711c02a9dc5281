import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig, loadConfig } from '../src/config.js';
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
});
