/**
 * One configuration schema. Values come, lowest priority first, from config/default.json,
 * a user JSON file (partial, overlaid), NEARDUP_* environment variables (one for every setting at
 * any depth, derived from the schema; an unknown NEARDUP_ name is warned about), then explicit
 * overrides (CLI flags). Every value is validated here, at the boundary.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as v from 'valibot';
import { ConfigError, describeValue } from './errors.js';
import { QUERY_CLASSES, STRICTNESS_LEVELS } from './filter/query-class.js';
import { MAX_DISTANCE, MAX_SHINGLE_SIZE } from './fingerprint/fingerprint-params.js';
import { FEATURE_WEIGHTINGS, HASH_NAMES, SCOPE_MODES } from './types.js';

/*
 * The schema is written with valibot (one small module, loaded in a few ms: a CLI command that
 * reads the config starts fast). Each check's message is the "expected" half of the error line.
 */
const int = (min: number, max: number) => {
  const want = `an integer ${min}–${max}`;
  return v.pipe(v.number(want), v.integer(want), v.minValue(min, want), v.maxValue(max, want));
};
const number = (min: number, max?: number) => {
  const want = max === undefined ? `a number ≥ ${min}` : `a number ${min}–${max}`;
  const atLeast = v.pipe(v.number(want), v.minValue(min, want));
  return max === undefined ? atLeast : v.pipe(atLeast, v.maxValue(max, want));
};
/** A Jaccard threshold: a pair at or above it is collapsed; 0 would collapse everything. */
const threshold = () => v.pipe(v.number('a number > 0 and ≤ 1'), v.gtValue(0, 'a number > 0 and ≤ 1'), v.maxValue(1, 'a number > 0 and ≤ 1'));
const share = number(0, 1);
const boolean = () => v.boolean('a boolean');
const oneOf = <const T extends readonly string[]>(options: T) => v.picklist(options, `one of ${options.map((o) => JSON.stringify(o)).join('|')}`);
const section = <const E extends v.ObjectEntries>(entries: E) => v.strictObject(entries, 'an object');

const POSTGRES_URL = 'a postgres:// URL or "" (SQLite under --data)';

/** One step of an issue's path: `key` of the object `value`. */
function keyStep(value: Record<string, unknown>, key: string): v.IssuePathItem {
  return { type: 'object', origin: 'value', input: value, key, value: value[key] };
}

/** A cross-field check: `key` ≤ `limit` in the section `name` (the issue points at `key`). */
function atMost<T extends Record<string, unknown>>(key: keyof T & string, limit: keyof T & string, name: string) {
  return v.rawCheck<T>(({ dataset, addIssue }) => {
    if (dataset.typed && (dataset.value[key] as number) > (dataset.value[limit] as number)) {
      addIssue({ message: `at most \`${name}.${limit}\``, path: [keyStep(dataset.value, key)] });
    }
  });
}

const verifySection = section({
  /** Off: the card's k-only behaviour (`--verify off`). */
  enabled: boolean(),
  /**
   * K: widest fingerprint distance at which a candidate may be accepted. Dev positives verified up
   * to 16, real re-templated copies up to 17; unrelated dev texts lie 21 or more apart.
   */
  maxDistance: int(0, 64),
  /** Values per document's bottom-k sketch (4 bytes each): 64 → 256 bytes, Jaccard RMSE 0.02 on the dev pairs. */
  sketchSize: int(8, 1024),
  /** The m smallest sketch values each document is looked up and filed under (candidate keys). */
  candidateKeys: int(1, 32),
  /** Keys a candidate must share (2: unrelated pages meet on one small sketch value now and then, copies on most). */
  minSharedKeys: int(1, 32),
  /** Accept at or above this Jaccard estimate (dev negatives ≤ 0.45; edited copies ≥ 0.6). */
  jaccard: share,
  /** Accept at or above this containment estimate (excerpts, appended boilerplate: 1.0; dev negatives ≤ 0.83); above 1: off. */
  containment: number(0, 2),
  /** Sketch values a containment estimate must rest on (a six-shingle page is "contained" everywhere). */
  minContainmentSamples: int(1, 1024),
});
type VerifySettings = v.InferOutput<typeof verifySection>;

export const configSchema = section({
  fingerprint: section({
    distance: int(0, MAX_DISTANCE),
    shingleSize: int(1, MAX_SHINGLE_SIZE),
    hash: oneOf(HASH_NAMES),
    weighting: oneOf(FEATURE_WEIGHTINGS),
    /** Fewer normalised tokens than this: recorded as skipped `too-short`, never fingerprinted. */
    minTokens: int(0, 100_000),
  }),
  /**
   * The verified second stage (issue 11), after the card's rule (distance ≤ k → `near`). Values
   * chosen on the dev pairs (`npm run make:pairs`, scripts/measure-second-stage.ts); reasons in
   * the README's "Second stage" section.
   */
  verify: v.pipe(verifySection, atMost<VerifySettings>('candidateKeys', 'sketchSize', 'verify'), atMost<VerifySettings>('minSharedKeys', 'candidateKeys', 'verify')),
  crawl: section({
    maxPages: int(1, 100_000_000),
    maxDepth: int(0, 10_000),
    concurrency: int(1, 1000),
    scope: oneOf(SCOPE_MODES),
    followDuplicates: boolean(),
    respectRobots: boolean(),
    maxPageBytes: int(1024, 1 << 30),
    requestTimeoutSecs: int(1, 3600),
    maxRequestsPerMinutePerHost: int(1, 1_000_000),
    maxRedirects: int(0, 100),
    userAgent: v.pipe(v.string('a non-empty string'), v.minLength(1, 'a non-empty string')),
    /** In-scope links of one page considered for the queue, at most; the rest are dropped (counted). */
    maxLinksPerPage: int(1, 10_000_000),
    /**
     * The queue holds at most this many times the pages the budget (`maxPages`) has left; links
     * beyond are dropped (counted), so a link flood costs no more memory and disk than the budget
     * can use.
     */
    queueBudgetMultiple: int(1, 1_000_000),
  }),
  dedup: section({
    /** Worker threads for extraction and fingerprinting; 0 = one per core but one (none on one core). */
    workers: int(0, 256),
    maxInFlight: int(1, 1_000_000),
  }),
  report: section({
    primaryWeights: section({
      canonical: number(0),
      inLinks: number(0),
      earliestDate: number(0),
      completeness: number(0),
      shallowUrl: number(0),
    }),
    /** Share of a host's pages that must duplicate another host's to call it a mirror. */
    mirrorThreshold: share,
    mirrorMinPages: int(1, 1_000_000),
  }),
  filter: section({
    /** Jaccard threshold of each strictness level; a stricter level collapses more, so its threshold is lower. */
    thresholds: v.pipe(
      section(Object.fromEntries(STRICTNESS_LEVELS.map((l) => [l, threshold()])) as Record<(typeof STRICTNESS_LEVELS)[number], ReturnType<typeof threshold>>),
      v.rawCheck(({ dataset, addIssue }) => {
        if (!dataset.typed) return;
        const t = dataset.value;
        const i = STRICTNESS_LEVELS.findIndex((l, k) => k > 0 && t[l] > t[STRICTNESS_LEVELS[k - 1]!]);
        if (i === -1) return;
        const [looser, level] = [STRICTNESS_LEVELS[i - 1]!, STRICTNESS_LEVELS[i]!];
        addIssue({ message: `at most \`${looser}\`'s ${t[looser]} (a stricter level's threshold is not higher)`, path: [keyStep(t, level)] });
      }),
    ),
    /** Strictness level of each query class. */
    classLevels: section(Object.fromEntries(QUERY_CLASSES.map((c) => [c, oneOf(STRICTNESS_LEVELS)])) as Record<(typeof QUERY_CLASSES)[number], ReturnType<typeof oneOf<typeof STRICTNESS_LEVELS>>>),
    /** Relative: a pair whose plain Jaccard is in [threshold × (1 − margin), threshold) is compared again with synonyms. */
    criticalMargin: share,
    /** Run the synonym pass. */
    synonyms: boolean(),
    /** A user synonym file (one class a line) added to the shipped tables; "" for none. */
    synonymFile: v.string('a string'),
    /** Language of the annotations (ISO 639-3), or "auto" to detect it per result list. */
    language: v.pipe(v.string('"auto" or an ISO 639-3 code'), v.regex(/^(auto|[a-z]{3})$/, '"auto" or an ISO 639-3 code')),
    /** Results of one list compared, at most (rank order); the rest are passed through unfiltered, with a message. */
    maxResults: int(1, 10_000_000),
  }),
  /** The cascade of offline filters (src/cascade/): each flag's stage on/off and its thresholds. */
  cascade: section({
    homoglyph: section({
      enabled: boolean(),
      /** Fewer mixed-script words than this: no flag. */
      minWords: int(1, 1_000_000),
      /** Smaller share of mixed-script words than this: no flag. */
      minShare: share,
    }),
    generated: section({
      enabled: boolean(),
      /** Texts with fewer words are not judged (the features need sentences). */
      minWords: int(1, 1_000_000),
      /** Share of generated texts in the tree's leaf from which a page is flagged. */
      minScore: share,
    }),
    synonymised: section({
      enabled: boolean(),
      /** `flag` stores the page with the flag; `reject` lets the pipeline reject it (later phase). */
      action: oneOf(['flag', 'reject']),
      /** The page's grammar: `shape` (function words kept, other words as one class) or `pos` (wink-nlp tags, English). */
      tagger: oneOf(['shape', 'pos']),
      /** Estimated Jaccard of part-of-speech shingles from which a stored page is compared. */
      minTagSimilarity: share,
      /** Share of aligned words equal to the source's or its synonyms needed to flag. */
      minExplained: share,
      /** Share of aligned words replaced by synonyms needed to flag. */
      minSubstituted: share,
    }),
    compiled: section({
      enabled: boolean(),
      /** How paragraphs are attributed to stored pages. */
      test: oneOf(['hypergeometric', 'containment']),
      /** Significance level of the hypergeometric test (Bonferroni-corrected per page). */
      alpha: threshold(),
      minSources: int(2, 1000),
      /** A source covering less of the page than this is not counted. */
      minSourceShare: share,
      /** One source covering this much of the page alone: no flag (a copy, not a compilation). */
      maxSingleShare: share,
      /** Share of the page that sources must cover together. */
      minCovered: share,
    }),
  }),
  index: section({
    /**
     * A PostgreSQL index shared by many processes and machines (postgres://user:password@host:port/db);
     * "" for the SQLite index under --data. Env NEARDUP_INDEX_URL; the --index flag overrides both.
     */
    url: v.pipe(v.string(POSTGRES_URL), v.check((url) => url === '' || /^postgres(ql)?:\/\//.test(url), POSTGRES_URL)),
  }),
});

export type Config = v.InferOutput<typeof configSchema>;

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
  /** Told of each NEARDUP_ variable that is no setting (a typo is otherwise ignored). @default a `neardup: warning:` line on stderr */
  readonly onWarning?: (message: string) => void;
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

/** One setting as an environment variable: its path in the config and how to read its text. */
export interface EnvSetting {
  /** e.g. `NEARDUP_CASCADE_GENERATED_ENABLED` */
  readonly name: string;
  /** e.g. `['cascade', 'generated', 'enabled']` */
  readonly path: readonly string[];
  readonly type: 'number' | 'boolean' | 'string';
}

/** `maxPages` → `MAX_PAGES`, `informational-natural` → `INFORMATIONAL_NATURAL`. */
function envWord(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/-/g, '_').toUpperCase();
}

/**
 * Every setting of the schema, at any depth, as NEARDUP_<PATH> (NEARDUP_FINGERPRINT_DISTANCE,
 * NEARDUP_CASCADE_GENERATED_ENABLED, NEARDUP_FILTER_THRESHOLDS_MEDIUM): derived from the schema,
 * so a key added there has its variable with nothing else to change.
 */
export function envSettings(): readonly EnvSetting[] {
  const out: EnvSetting[] = [];
  const walk = (schema: v.GenericSchema, path: readonly string[]) => {
    const entries = (schema as { entries?: Record<string, v.GenericSchema> }).entries;
    if (entries !== undefined) {
      for (const [key, child] of Object.entries(entries)) walk(child, [...path, key]);
      return;
    }
    const type = schema.type === 'number' || schema.type === 'boolean' ? schema.type : 'string';
    out.push({ name: `NEARDUP_${path.map(envWord).join('_')}`, path, type });
  };
  walk(configSchema, []);
  return out;
}

/**
 * NEARDUP_ variables that are not settings: the config file, the debug switch, a test's fault
 * hook, and the datasets and screenshots of scripts/.
 */
const OTHER_ENV_NAMES: ReadonlySet<string> = new Set([
  'NEARDUP_CONFIG', 'NEARDUP_DEBUG', 'NEARDUP_FAULT_FREEZE',
  'NEARDUP_ARTICLE_DEV', 'NEARDUP_DEV_DATASET', 'NEARDUP_EXTRACTION_DEV', 'NEARDUP_EXTRACTION_DRAGNET', 'NEARDUP_REPORT_SCREENSHOT',
]);

/** Levenshtein distance, for "did you mean" (names are short). */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/** A warning for each NEARDUP_ variable that is neither a setting nor one of OTHER_ENV_NAMES, with the nearest name. */
export function unknownEnvWarnings(env: Readonly<Record<string, string | undefined>>, settings: readonly EnvSetting[] = envSettings()): string[] {
  const known = new Set([...settings.map((s) => s.name), ...OTHER_ENV_NAMES]);
  const warnings: string[] = [];
  for (const name of Object.keys(env).sort()) {
    if (!name.startsWith('NEARDUP_') || known.has(name) || env[name] === undefined) continue;
    let best = '';
    let bestDistance = Infinity;
    for (const candidate of known) {
      const d = editDistance(name, candidate);
      if (d < bestDistance) [best, bestDistance] = [candidate, d];
    }
    const hint = bestDistance <= Math.max(2, Math.floor(name.length / 6)) ? ` (did you mean ${best}?)` : '';
    warnings.push(`ignoring unknown environment variable ${name.replace(/[^\x21-\x7e]/g, '?')}${hint}; settings are NEARDUP_<SECTION>_<KEY>, e.g. NEARDUP_CASCADE_GENERATED_ENABLED`);
  }
  return warnings;
}

/** The settings the environment gives, as a partial config, and which variable gave each path. */
function envOverrides(env: Readonly<Record<string, string | undefined>>, settings: readonly EnvSetting[]): { values: Record<string, unknown>; sources: Map<string, string> } {
  const values: Record<string, unknown> = {};
  const sources = new Map<string, string>();
  for (const setting of settings) {
    const raw = env[setting.name];
    if (raw === undefined) continue;
    let value: unknown = raw;
    if (setting.type === 'number') value = raw.trim() === '' ? raw : Number(raw);
    else if (setting.type === 'boolean') value = raw === 'true' || raw === '1' ? true : raw === 'false' || raw === '0' ? false : raw;
    let node = values;
    for (const key of setting.path.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
    node[setting.path.at(-1)!] = value;
    sources.set(setting.path.join('.'), setting.name);
  }
  return { values, sources };
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = root;
  for (const key of path) cur = isObject(cur) ? cur[key as string] : undefined;
  return cur;
}

/**
 * Validates a merged config object, with messages that say what was expected and what came.
 * `source` names where the values came from; a path in `sources` (a setting from an environment
 * variable) is named by its variable instead.
 */
export function parseConfig(input: unknown, source = 'config', sources: ReadonlyMap<string, string> = new Map()): Config {
  const result = v.safeParse(configSchema, input);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const path = pathOf(issue);
  if (issue.type === 'strict_object' && issue.expected === 'never') {
    // An unknown key: the issue's path ends with the key itself.
    const parent = path.slice(0, -1).join('.');
    throw new ConfigError(`Unknown setting${parent === '' ? '' : ` in \`${parent}\``} \`${path.at(-1)}\` (${source})`);
  }
  throw new ConfigError(`Expected \`${path.join('.')}\` to be ${issue.message}, got ${describeValue(valueAt(input, path))} (${sources.get(path.join('.')) ?? source})`);
}

function pathOf(issue: v.BaseIssue<unknown>): string[] {
  return (issue.path ?? []).map((step) => String(step.key));
}

/** Loads the configuration: defaults, user file, environment, overrides. */
export function loadConfig(options: LoadConfigOptions = {}): Config {
  const env = options.env ?? process.env;
  const defaults = readJson(defaultConfigPath, 'default config') as Record<string, unknown>;
  let merged = defaults;
  const file = options.file ?? env.NEARDUP_CONFIG;
  if (file !== undefined && file !== '') merged = overlay(merged, readJson(file, 'config file'));
  const settings = envSettings();
  const fromEnv = envOverrides(env, settings);
  merged = overlay(merged, fromEnv.values);
  if (options.overrides !== undefined) merged = overlay(merged, options.overrides);
  const config = parseConfig(merged, file === undefined || file === '' ? 'config' : file, fromEnv.sources);
  const warn = options.onWarning ?? ((message: string) => process.stderr.write(`neardup: warning: ${message}\n`));
  for (const warning of unknownEnvWarnings(env, settings)) warn(warning);
  return config;
}

/** The default configuration, validated. */
export function defaultConfig(): Config {
  return loadConfig({ env: {} });
}
