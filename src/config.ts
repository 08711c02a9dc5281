/**
 * One configuration schema. Values come, lowest priority first, from config/default.json,
 * a user JSON file (partial, overlaid), NEARDUP_* environment variables, then explicit overrides
 * (CLI flags). Every value is validated here, at the boundary.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ConfigError, describeValue } from './errors.js';
import { MAX_DISTANCE, MAX_SHINGLE_SIZE } from './fingerprint/fingerprint-params.js';
import { FEATURE_WEIGHTINGS, HASH_NAMES, SCOPE_MODES } from './types.js';

const int = (min: number, max: number) => z.number().int().min(min).max(max);

export const configSchema = z.object({
  fingerprint: z.object({
    distance: int(0, MAX_DISTANCE),
    shingleSize: int(1, MAX_SHINGLE_SIZE),
    hash: z.enum(HASH_NAMES),
    weighting: z.enum(FEATURE_WEIGHTINGS),
    /** Fewer normalised tokens than this: recorded as skipped `too-short`, never fingerprinted. */
    minTokens: int(0, 100_000),
  }).strict(),
  crawl: z.object({
    maxPages: int(1, 100_000_000),
    maxDepth: int(0, 10_000),
    concurrency: int(1, 1000),
    scope: z.enum(SCOPE_MODES),
    followDuplicates: z.boolean(),
    respectRobots: z.boolean(),
    maxPageBytes: int(1024, 1 << 30),
    requestTimeoutSecs: int(1, 3600),
    maxRequestsPerMinutePerHost: int(1, 1_000_000),
    maxRedirects: int(0, 100),
    userAgent: z.string().min(1),
  }).strict(),
  dedup: z.object({
    /** Worker threads for extraction and fingerprinting; 0 = one per core. */
    workers: int(0, 256),
    maxInFlight: int(1, 1_000_000),
  }).strict(),
  report: z.object({
    primaryWeights: z.object({
      canonical: z.number().min(0),
      inLinks: z.number().min(0),
      earliestDate: z.number().min(0),
      completeness: z.number().min(0),
      shallowUrl: z.number().min(0),
    }).strict(),
    /** Share of a host's pages that must duplicate another host's to call it a mirror. */
    mirrorThreshold: z.number().min(0).max(1),
    mirrorMinPages: int(1, 1_000_000),
  }).strict(),
}).strict();

export type Config = z.infer<typeof configSchema>;

/** Deeply partial config, as in a user file or overrides. */
export type PartialConfig = { readonly [S in keyof Config]?: Partial<Config[S]> };

export const defaultConfigPath = fileURLToPath(new URL('../config/default.json', import.meta.url));

export interface LoadConfigOptions {
  /** A user JSON file overlaid on the defaults. @default process.env.NEARDUP_CONFIG */
  readonly file?: string | undefined;
  /** Environment to read NEARDUP_* overrides from. @default process.env */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Highest-priority values, e.g. from CLI flags. */
  readonly overrides?: PartialConfig;
}

function readJson(path: string, what: string): unknown {
  let raw: string;
  try {
    raw = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`Cannot read ${what} \`${path}\`: ${(error as Error).message}`, { cause: error });
  }
  try {
    return JSON.parse(raw);
  } catch (error) {
    throw new ConfigError(`${what} \`${path}\` is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function overlay(base: Record<string, unknown>, top: unknown): Record<string, unknown> {
  if (!isObject(top)) return base;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(top)) {
    if (value === undefined) continue;
    out[key] = isObject(value) && isObject(base[key]) ? overlay(base[key] as Record<string, unknown>, value) : value;
  }
  return out;
}

/** `maxPages` → `MAX_PAGES`. */
function envName(section: string, key: string): string {
  const snake = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
  return `NEARDUP_${snake(section)}_${snake(key)}`;
}

/** Reads NEARDUP_<SECTION>_<KEY> (e.g. NEARDUP_FINGERPRINT_DISTANCE=4) for every scalar setting. */
function envOverrides(defaults: Record<string, unknown>, env: Readonly<Record<string, string | undefined>>): Record<string, unknown> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [section, values] of Object.entries(defaults)) {
    if (!isObject(values)) continue;
    for (const [key, def] of Object.entries(values)) {
      const raw = env[envName(section, key)];
      if (raw === undefined || isObject(def)) continue;
      let value: unknown = raw;
      if (typeof def === 'number') value = raw.trim() === '' ? raw : Number(raw);
      else if (typeof def === 'boolean') value = raw === 'true' || raw === '1' ? true : raw === 'false' || raw === '0' ? false : raw;
      (out[section] ??= {})[key] = value;
    }
  }
  return out;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = root;
  for (const key of path) cur = isObject(cur) ? cur[key as string] : undefined;
  return cur;
}

/** Validates a merged config object, with messages that say what was expected and what came. */
export function parseConfig(input: unknown, source = 'config'): Config {
  const result = configSchema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const path = issue.path.join('.');
  if (issue.code === 'unrecognized_keys') {
    const where = path === '' ? '' : ` in \`${path}\``;
    throw new ConfigError(`Unknown setting${where} ${issue.keys.map((k) => `\`${k}\``).join(', ')} (${source})`);
  }
  const got = describeValue(valueAt(input, issue.path));
  const want = issue.message
    .replace(/^(invalid (input|option)|too (big|small)): /i, '')
    .replace(/, received .*$/i, '')
    .replace(/^expected /i, '')
    .replace(/^number to be /i, '');
  throw new ConfigError(`Expected \`${path}\` to be ${want}, got ${got} (${source})`);
}

/** Loads the configuration: defaults, user file, environment, overrides. */
export function loadConfig(options: LoadConfigOptions = {}): Config {
  const env = options.env ?? process.env;
  const defaults = readJson(defaultConfigPath, 'default config') as Record<string, unknown>;
  let merged = defaults;
  const file = options.file ?? env.NEARDUP_CONFIG;
  if (file !== undefined && file !== '') merged = overlay(merged, readJson(file, 'config file'));
  merged = overlay(merged, envOverrides(defaults, env));
  if (options.overrides !== undefined) merged = overlay(merged, options.overrides);
  return parseConfig(merged, file === undefined || file === '' ? 'config' : file);
}

/** The default configuration, validated. */
export function defaultConfig(): Config {
  return loadConfig({ env: {} });
}
