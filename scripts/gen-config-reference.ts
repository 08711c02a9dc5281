/**
 * Writes docs/configuration.md from the configuration schema (src/config.ts) and its defaults
 * (config/default.json): every key, its NEARDUP_* environment name, its default, what it accepts,
 * the CLI flag that sets it and what it means. test/docs/config-reference.test.ts checks that the
 * committed page equals what this script renders, so the page cannot drift from the schema.
 *
 *   npx tsx scripts/gen-config-reference.ts            # rewrite docs/configuration.md
 *   npx tsx scripts/gen-config-reference.ts --check    # exit 1 when the page is out of date
 *
 * The meanings live in MEANINGS below (the schema's JSDoc is not there at run time); a key added
 * to the schema without a meaning makes this script, and the test, fail.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configSchema, defaultConfig } from '../src/config.js';

export const configReferencePath = fileURLToPath(new URL('../docs/configuration.md', import.meta.url));

/** One leaf setting of the schema. */
export interface ConfigKey {
  /** Dotted path, e.g. `cascade.generated.enabled`. */
  readonly path: string;
  readonly segments: readonly string[];
  /** What the schema accepts, in its own words (e.g. `an integer 0–31`). */
  readonly accepts: string;
  /** Picklist options, when the key takes one of a few strings. */
  readonly options?: readonly string[];
  readonly default: unknown;
}

interface SchemaNode {
  readonly type: string;
  readonly message?: unknown;
  readonly entries?: Record<string, SchemaNode>;
  readonly options?: readonly string[];
}

/**
 * The environment variable of a setting: NEARDUP_ and each path segment in upper snake case,
 * joined by `_` (`cascade.generated.enabled` → NEARDUP_CASCADE_GENERATED_ENABLED,
 * `filter.classLevels.exact-phrase` → NEARDUP_FILTER_CLASS_LEVELS_EXACT_PHRASE). For
 * top-level sections this is src/config.ts's envName; nested keys follow issue 28 (item 14).
 */
export function envNameOf(segments: readonly string[]): string {
  const snake = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/-/g, '_').toUpperCase();
  return `NEARDUP_${segments.map(snake).join('_')}`;
}

/** Every leaf of the schema, in schema order, with its default from `defaults`. */
export function configKeys(defaults: unknown = defaultConfig()): ConfigKey[] {
  const out: ConfigKey[] = [];
  const walk = (node: SchemaNode, segments: string[], value: unknown) => {
    if (node.entries !== undefined) {
      for (const [key, child] of Object.entries(node.entries)) {
        walk(child, [...segments, key], (value as Record<string, unknown> | undefined)?.[key]);
      }
      return;
    }
    out.push({
      path: segments.join('.'),
      segments,
      accepts: typeof node.message === 'string' ? node.message : node.type,
      ...(node.options === undefined ? {} : { options: node.options }),
      default: value,
    });
  };
  walk(configSchema as unknown as SchemaNode, [], defaults);
  return out;
}

/** A key's meaning and the CLI flags that set it (`command --flag`). */
interface Meaning {
  readonly text: string;
  readonly flags?: readonly string[];
}

const QUERY_CLASS_NOTE = 'strictness level of this query class (docs/filter.md)';
const PRIMARY_WEIGHT = (what: string): Meaning => ({ text: `weight of ${what} in the primary choice (docs/report.md)` });
const LEVEL_THRESHOLD: Meaning = { text: 'Jaccard threshold of this strictness level; a stricter level must not have a higher one (checked, the level named)' };

/** Meanings, by dotted path; `*` stands for any last segment of that group. */
const MEANINGS: Record<string, Meaning> = {
  'fingerprint.distance': { text: 'near-duplicate threshold k: Hamming distance of two 64-bit simhashes at or under which a page is `near`', flags: ['crawl --distance', 'dedup --distance', 'compare --distance', 'eval --distance'] },
  'fingerprint.shingleSize': { text: 'words per shingle (feature)', flags: ['fingerprint --shingle-size', 'compare --shingle-size'] },
  'fingerprint.hash': { text: 'feature hash: `murmur`, or `rabin` (the seeds\' polynomial over GF(2)); recorded in the index', flags: ['fingerprint --hash', 'compare --hash'] },
  'fingerprint.weighting': { text: '`unit` (each feature weighs 1) or `count` (a feature weighs its count)' },
  'fingerprint.minTokens': { text: 'a text with fewer normalised tokens is skipped `too-short`, never fingerprinted' },
  'verify.enabled': { text: 'the verified second stage (`similar`); off gives k-only decisions', flags: ['crawl --verify', 'dedup --verify', 'compare --verify'] },
  'verify.maxDistance': { text: 'K: widest fingerprint distance at which a second-stage candidate may be accepted (a cap, not the candidate rule)' },
  'verify.sketchSize': { text: 'values in each document\'s bottom-k sketch (4 bytes each: 64 → 256 bytes)' },
  'verify.candidateKeys': { text: 'a document is filed and looked up under its this many smallest sketch values (at most `sketchSize`)' },
  'verify.minSharedKeys': { text: 'candidate keys a stored document must share to be compared (at most `candidateKeys`)' },
  'verify.jaccard': { text: 'accept a candidate at or above this estimated Jaccard similarity of the shingle sets' },
  'verify.containment': { text: 'accept a candidate at or above this containment (the larger of A-in-B and B-in-A); above 1 turns containment off' },
  'verify.minContainmentSamples': { text: 'sketch values a containment estimate must rest on' },
  'crawl.maxPages': { text: 'pages to fetch in all, earlier runs on the same `--data` included (a partition counts its own)', flags: ['crawl --max-pages'] },
  'crawl.maxDepth': { text: 'links followed from a seed, at most', flags: ['crawl --max-depth'] },
  'crawl.concurrency': { text: 'requests in flight', flags: ['crawl --concurrency'] },
  'crawl.scope': { text: '`host`: the seeds\' host names (any port, both schemes); `domain`: their registrable domains; `any`: everywhere', flags: ['crawl --scope'] },
  'crawl.followDuplicates': { text: 'follow the links of pages rejected as duplicates', flags: ['crawl --follow-duplicates'] },
  'crawl.respectRobots': { text: 'obey robots.txt (RFC 9309, Crawl-delay too)', flags: ['crawl --no-robots'] },
  'crawl.maxPageBytes': { text: 'a page larger than this (after decompression) is skipped `too-large`', flags: ['crawl --max-page-bytes'] },
  'crawl.requestTimeoutSecs': { text: 'per-request timeout, seconds', flags: ['crawl --timeout'] },
  'crawl.maxRequestsPerMinutePerHost': { text: 'politeness: requests a minute to one host, at most (a host\'s Crawl-delay can slow it further)', flags: ['crawl --host-rpm'] },
  'crawl.maxRedirects': { text: 'redirects followed per request' },
  'crawl.userAgent': { text: 'User-Agent header; its first word picks the robots.txt group', flags: ['crawl --user-agent'] },
  'crawl.maxLinksPerPage': { text: 'in-scope links of one page considered for the queue, in page order; the rest are counted as dropped', flags: ['crawl --max-links-per-page'] },
  'crawl.queueBudgetMultiple': { text: 'the queue holds at most this many times the pages `maxPages` has left; further links are counted as dropped', flags: ['crawl --queue-multiple'] },
  'dedup.workers': { text: 'worker threads for extraction and fingerprinting; 0 = one per core', flags: ['dedup --workers'] },
  'dedup.maxInFlight': { text: 'documents read but not yet committed, at most', flags: ['dedup --max-in-flight'] },
  'report.primaryWeights.canonical': PRIMARY_WEIGHT('`rel=canonical` votes of the members'),
  'report.primaryWeights.inLinks': PRIMARY_WEIGHT('in-links (citations) from other crawled pages'),
  'report.primaryWeights.earliestDate': PRIMARY_WEIGHT('the earliest publication or Last-Modified date'),
  'report.primaryWeights.completeness': PRIMARY_WEIGHT('the longest text'),
  'report.primaryWeights.shallowUrl': PRIMARY_WEIGHT('the shallowest URL path / crawl depth'),
  'report.mirrorThreshold': { text: 'share of a host\'s pages that must share a cluster with another host\'s to report it as a mirror' },
  'report.mirrorMinPages': { text: 'pages a host must share with another, at least, to be reported as its mirror' },
  'filter.thresholds.*': LEVEL_THRESHOLD,
  'filter.classLevels.*': { text: QUERY_CLASS_NOTE },
  'filter.criticalMargin': { text: 'relative margin: a pair whose plain Jaccard is in [t × (1 − m), t) is compared again with synonyms', flags: ['filter --margin'] },
  'filter.synonyms': { text: 'run the synonym pass on critical pairs', flags: ['filter --synonyms'] },
  'filter.synonymFile': { text: 'your synonym file (one class a line) added to the shipped tables; "" for none', flags: ['filter --synonym-file'] },
  'filter.language': { text: 'language of the annotations (ISO 639-3), or `auto` to detect it per list', flags: ['filter --language'] },
  // Added on the `cli` branch (issue 28 item 8); unused until that merge.
  'filter.maxResults': { text: 'results of one list compared, at most, in rank order; the rest are passed through unfiltered, with a message' },
  'cascade.homoglyph.enabled': { text: 'run the `homoglyph` flag stage (docs/flags.md)' },
  'cascade.homoglyph.minWords': { text: 'mixed-script words needed to flag' },
  'cascade.homoglyph.minShare': { text: 'share of the words that must be mixed-script to flag' },
  'cascade.generated.enabled': { text: 'run the `generated` flag stage' },
  'cascade.generated.minWords': { text: 'shorter texts are not judged' },
  'cascade.generated.minScore': { text: 'mean generated share of the trees\' leaves from which a page is flagged' },
  'cascade.synonymised.enabled': { text: 'run the `synonymised` flag stage' },
  'cascade.synonymised.action': { text: '`flag`: store the spun copy and flag it; `reject`: do not store it (skipped, reason `synonymised`)' },
  'cascade.synonymised.tagger': { text: 'the page\'s grammar: `shape` (function words kept, numbers as `#`, other words as `_`) or `pos` (wink-nlp tags, English only)' },
  'cascade.synonymised.minTagSimilarity': { text: 'grammar-sketch Jaccard from which a stored page is compared' },
  'cascade.synonymised.minExplained': { text: 'share of the page\'s content stems that must be the source\'s or synonyms of them' },
  'cascade.synonymised.minSubstituted': { text: 'share of the page\'s content stems that must be synonyms (not the same stem)' },
  'cascade.compiled.enabled': { text: 'run the `compiled` flag stage' },
  'cascade.compiled.test': { text: 'how a paragraph is attributed to a stored page: `containment` (half its shingles in the source) or `hypergeometric`' },
  'cascade.compiled.alpha': { text: 'significance level of the hypergeometric test (Bonferroni-corrected per page)' },
  'cascade.compiled.minSources': { text: 'sources needed to flag a compilation' },
  'cascade.compiled.minSourceShare': { text: 'a source covering less of the page than this is not counted' },
  'cascade.compiled.maxSingleShare': { text: 'one source covering this much alone: no flag (a copy, not a compilation)' },
  'cascade.compiled.minCovered': { text: 'share of the page the sources must cover together' },
  'index.url': { text: 'a PostgreSQL index shared by many processes and machines (`postgres://user:password@host:port/db`); "" = SQLite under `--data`', flags: ['crawl --index', 'dedup --index', 'clusters --index'] },
};

export function meaningOf(path: string): Meaning | undefined {
  return MEANINGS[path] ?? MEANINGS[path.replace(/\.[^.]+$/, '.*')];
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

function formatDefault(value: unknown): string {
  return `\`${JSON.stringify(value)}\``;
}

function formatAccepts(key: ConfigKey): string {
  return key.options === undefined ? key.accepts : key.options.map((o) => `\`${o}\``).join(', ');
}

const SECTION_TITLES: Record<string, string> = {
  fingerprint: 'how a text becomes a fingerprint, and the near-duplicate threshold',
  verify: 'the second, verified stage (`similar`)',
  crawl: '`neardup crawl` and the crawlee plug-in',
  dedup: '`neardup dedup`',
  report: '`neardup clusters`: the primary of a cluster, host mirrors',
  filter: '`neardup filter` (search results)',
  cascade: 'the flag stages: `homoglyph`, `generated`, `synonymised`, `compiled`',
  index: 'where the index lives',
};

/** The whole page. */
export function renderConfigReference(keys: readonly ConfigKey[] = configKeys()): string {
  const missing = keys.filter((k) => meaningOf(k.path) === undefined).map((k) => k.path);
  if (missing.length > 0) throw new Error(`no meaning for ${missing.join(', ')}: add them to MEANINGS in scripts/gen-config-reference.ts`);
  const lines: string[] = [
    '# Configuration reference',
    '',
    '<!-- GENERATED by `npx tsx scripts/gen-config-reference.ts` from the schema in src/config.ts and',
    '     config/default.json; do not edit by hand (test/docs/config-reference.test.ts checks it). -->',
    '',
    'Every setting, lowest priority first, comes from:',
    '',
    '1. `config/default.json` (the defaults below);',
    '2. a JSON file given with `--config <file>` (or `NEARDUP_CONFIG=<file>`), partial, overlaid key by key;',
    '3. the environment: one `NEARDUP_*` variable per setting, named in the table (numbers as numbers,',
    '   booleans as `true`/`false` or `1`/`0`);',
    '4. the command\'s flags (the last column), and the plug-in\'s `Deduplicator.open({ config })`.',
    '',
    'A value of the wrong type or out of range, or an unknown key, is refused with one line naming the',
    'key, what it expects and what came, and exit code 2. Example:',
    '',
    '```sh doctest',
    'printf \'{"fingerprint": {"shingleSize": 4}, "cascade": {"generated": {"enabled": false}}}\\n\' > my-config.json',
    'printf \'A short note about the weather in the hills above the town this week.\\n\' > note.txt',
    'neardup --config my-config.json fingerprint note.txt',
    'NEARDUP_FINGERPRINT_SHINGLE_SIZE=2 neardup fingerprint note.txt',
    '```',
    '',
    '```sh doctest exit=2',
    'NEARDUP_FINGERPRINT_SHINGLE_SIZE=99 neardup fingerprint note.txt',
    '```',
    '',
    '```text output',
    'neardup: Expected `fingerprint.shingleSize` to be an integer 1–16, got 99 (number)',
    '```',
    '',
  ];
  let section = '';
  for (const key of keys) {
    const top = key.segments[0]!;
    if (top !== section) {
      section = top;
      lines.push(`## \`${top}\` — ${SECTION_TITLES[top] ?? top}`, '');
      lines.push('| key | environment | default | accepts | flag | meaning |', '|---|---|---|---|---|---|');
    }
    const meaning = meaningOf(key.path)!;
    const flags = (meaning.flags ?? []).map((f) => `\`${f}\``).join(', ');
    lines.push(`| \`${key.path}\` | \`${envNameOf(key.segments)}\` | ${cell(formatDefault(key.default))} | ${cell(formatAccepts(key))} | ${cell(flags)} | ${cell(meaning.text)} |`);
    const next = keys[keys.indexOf(key) + 1];
    if (next === undefined || next.segments[0] !== section) lines.push('');
  }
  lines.push(
    'Other variables: `NEARDUP_CONFIG` (the config file, as `--config`). Why the defaults are what they',
    'are: docs/benchmarks.md (figures) and the pages on each stage.',
    '',
  );
  return lines.join('\n');
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const page = renderConfigReference();
  if (process.argv.includes('--check')) {
    const current = readFileSync(configReferencePath, 'utf8');
    if (current !== page) {
      process.stderr.write('docs/configuration.md is out of date: run npx tsx scripts/gen-config-reference.ts\n');
      process.exitCode = 1;
    }
  } else {
    writeFileSync(configReferencePath, page);
    process.stdout.write(`wrote ${configReferencePath}\n`);
  }
}
