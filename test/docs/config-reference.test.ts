/**
 * docs/configuration.md is generated from the config schema (scripts/gen-config-reference.ts):
 * the committed page must be what the script renders now, every key of the schema must be on it
 * with the default loadConfig gives, and each environment name it lists must set its key.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultConfig, loadConfig } from '../../src/config.js';
import { configKeys, configReferencePath, envNameOf, renderConfigReference } from '../../scripts/gen-config-reference.js';
import type { ConfigKey } from '../../scripts/gen-config-reference.js';

const defaults = defaultConfig();
const keys = configKeys(defaults);

function valueAt(root: unknown, segments: readonly string[]): unknown {
  let cur = root;
  for (const s of segments) cur = (cur as Record<string, unknown>)[s];
  return cur;
}

/** Leaf paths of a plain object (config/default.json's shape). */
function leafPaths(value: unknown, prefix: string[] = []): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [prefix.join('.')];
  return Object.entries(value).flatMap(([k, v]) => leafPaths(v, [...prefix, k]));
}

/** A valid value other than the default, as an environment string (see the schema's ranges). */
function otherValue(key: ConfigKey): string {
  const d = key.default;
  if (typeof d === 'boolean') return String(!d);
  if (key.options !== undefined) return key.options.find((o) => o !== d)!;
  if (typeof d === 'number') {
    const min = /(-?\d+(?:\.\d+)?)/.exec(key.accepts) === null ? 0 : Number(/(-?\d+(?:\.\d+)?)/.exec(key.accepts)![1]);
    if (Number.isInteger(d) && key.accepts.startsWith('an integer')) return String(d - 1 >= min ? d - 1 : d + 1);
    // Lowering a threshold keeps filter.thresholds non-increasing; 0 goes up a little.
    return String(d > 0 ? Math.round(d * 0.9 * 1e6) / 1e6 : 0.1);
  }
  if (key.path === 'index.url') return 'postgres://user@db.example/neardup';
  if (key.path === 'filter.language') return 'eng';
  return `${String(d)}x`;
}

describe('docs/configuration.md', () => {
  it('is what scripts/gen-config-reference.ts renders (run it after changing the schema)', () => {
    expect(readFileSync(configReferencePath, 'utf8')).toBe(renderConfigReference(keys));
  });

  it('lists every key of the schema and of config/default.json, with its default', () => {
    const page = readFileSync(configReferencePath, 'utf8');
    const fileDefaults = JSON.parse(readFileSync(new URL('../../config/default.json', import.meta.url), 'utf8')) as unknown;
    expect(keys.map((k) => k.path).sort()).toEqual(leafPaths(fileDefaults).sort());
    for (const key of keys) {
      expect(key.default, key.path).toEqual(valueAt(defaults, key.segments));
      const row = page.split('\n').find((line) => line.startsWith(`| \`${key.path}\` |`));
      expect(row, key.path).toBeDefined();
      expect(row).toContain(`\`${envNameOf(key.segments)}\``);
      expect(row).toContain(JSON.stringify(key.default).replace(/\|/g, '\\|'));
    }
  });

  it('renders a changed default (the test can fail)', () => {
    const changed = keys.map((k) => (k.path === 'crawl.maxPages' ? { ...k, default: 5 } : k));
    expect(renderConfigReference(changed)).not.toBe(renderConfigReference(keys));
  });

  const topLevel = keys.filter((k) => k.segments.length === 2);
  it.each(topLevel.map((k) => [envNameOf(k.segments), k] as const))('%s sets its key', (name, key) => {
    const value = otherValue(key);
    const config = loadConfig({ env: { [name]: value } });
    expect(valueAt(config, key.segments)).not.toEqual(key.default);
    expect(String(valueAt(config, key.segments))).toBe(value);
  });

  // Nested keys (cascade.generated.enabled, report.primaryWeights.canonical, ...) get NEARDUP_*
  // names too (issue 28 item 14).
  const nested = keys.filter((k) => k.segments.length > 2);
  it.each(nested.map((k) => [envNameOf(k.segments), k] as const))('%s sets its nested key', (name, key) => {
    const value = otherValue(key);
    const config = loadConfig({ env: { [name]: value } });
    expect(String(valueAt(config, key.segments))).toBe(value);
  });
});
