/**
 * The import rules of the layout (README "Layout"), checked on every file of src/: which folder may
 * import which. Reads each file's static and dynamic relative imports as text.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const srcDir = resolve(import.meta.dirname, '..', 'src');

/** Every .ts/.mjs file under src/, relative to it (e.g. `crawl/crawl.ts`). */
function sourceFiles(dir = srcDir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [relative(srcDir, path)] : [];
  });
}

/** The src-relative targets of a file's relative imports (`../types.js` from crawl/x.ts → `types.ts`). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(srcDir, file), 'utf8');
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]!);
  return specs.map((spec) => relative(srcDir, resolve(srcDir, dirname(file), spec)).replace(/\.js$/, '.ts'));
}

/** The area of a src-relative path: its folder, or the file's name for top-level files (`types`, `pipeline`). */
function areaOf(path: string): string {
  const slash = path.indexOf('/');
  return slash === -1 ? path.replace(/\.(ts|mjs)$/, '') : path.slice(0, slash);
}

const files = sourceFiles();
const edges = files.flatMap((file) => importsOf(file).map((target) => ({ file, target, from: areaOf(file), to: areaOf(target) })));
const crossing = edges.filter((e) => e.from !== e.to);

/** The areas each area may import (besides itself). */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  types: [],
  errors: ['types'],
  url: [],
  primary: ['url'],
  store: ['errors', 'types'],
  text: ['errors', 'types'],
  fingerprint: ['errors', 'types'],
  extract: ['errors', 'types', 'url'],
  'fingerprint-index': ['errors', 'types', 'fingerprint'],
  analyze: ['errors', 'types', 'config', 'text', 'fingerprint', 'extract'],
  pipeline: ['errors', 'types', 'config', 'analyze', 'fingerprint', 'fingerprint-index', 'store', 'cascade', 'primary', 'url'],
  input: ['errors', 'types'],
  config: ['errors', 'types', 'fingerprint', 'filter'],
  synonyms: ['errors', 'types', 'text'],
  filter: ['errors', 'types', 'text', 'synonyms'],
  cascade: ['errors', 'types', 'config', 'text', 'fingerprint', 'synonyms', 'analyze'],
  crawl: ['errors', 'types', 'config', 'url', 'input', 'store', 'analyze', 'pipeline', 'primary'],
  batch: ['errors', 'types', 'config', 'input', 'analyze', 'pipeline', 'cascade'],
  crawlee: ['errors', 'types', 'config', 'input', 'analyze', 'pipeline', 'cascade'],
  report: ['errors', 'types', 'config', 'url', 'fingerprint', 'fingerprint-index', 'store', 'cascade', 'primary'],
  eval: ['errors', 'types', 'config', 'input', 'analyze', 'fingerprint'],
  cli: ['errors', 'types', 'config', 'input', 'analyze', 'extract', 'fingerprint', 'store', 'crawl', 'batch', 'report', 'eval', 'filter', 'synonyms', 'cascade'],
  cli_entry: ['cli'],
  index: [],
};

/**
 * Single files allowed across areas beyond ALLOWED: the shared crawl frontier of a partitioned crawl
 * (crawl/pg-frontier.ts) lives in the PostgreSQL index's database and talks to it through the
 * index's connection (its waits and retries when the server is lost) and URL parsing, nothing else.
 */
const FILE_EXCEPTIONS: ReadonlySet<string> = new Set([
  'crawl/pg-frontier.ts → fingerprint-index/postgres/pg-session.ts',
  'crawl/pg-frontier.ts → fingerprint-index/postgres/pg-errors.ts',
]);

describe('import rules of src/', () => {
  it('finds the files and their imports (the check below is not vacuous)', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(crossing.length).toBeGreaterThan(100);
    expect([...new Set(files.map(areaOf))].filter((area) => !(area in ALLOWED))).toEqual([]);
    expect(edges.map((e) => `${e.file} → ${e.target}`)).toEqual(expect.arrayContaining([
      'crawl/dedup-stage.ts → pipeline.ts', 'analyze/analyze-normalized-text.ts → text/token-table.ts', 'cli.ts → cli/shared.ts',
    ]));
  });

  it('every import crosses areas only where the layout allows', () => {
    const bad = crossing
      .filter((e) => e.from !== 'index') // the package entry re-exports from every area
      .filter((e) => !(ALLOWED[e.from === 'cli' && !e.file.includes('/') ? 'cli_entry' : e.from] ?? []).includes(e.to))
      .map((e) => `${e.file} → ${e.target}`)
      .filter((edge) => !FILE_EXCEPTIONS.has(edge));
    expect(bad).toEqual([]);
  });

  it('nothing imports the package entry (src/index.ts) or a CLI command but src/cli.ts', () => {
    const bad = edges.filter((e) => e.target === 'index.ts' || (e.to === 'cli' && e.from !== 'cli')).map((e) => `${e.file} → ${e.target}`);
    expect(bad).toEqual([]);
  });

  it('one CLI command never imports another', () => {
    // The entry (cli.ts) and its lazy registry of commands (cli/register-commands.ts) load them.
    const loaders = new Set(['cli.ts', 'cli/register-commands.ts']);
    const bad = edges.filter((e) => e.from === 'cli' && !loaders.has(e.file) && /-command\.ts$/.test(e.target)).map((e) => `${e.file} → ${e.target}`);
    expect(bad).toEqual([]);
  });

  // filter/ and synonyms/ normalise search-result annotations and dictionary words with the text
  // stages themselves (words, not documents); cascade/ reads a page's words, sentences and
  // paragraphs, which the document analysis does not keep.
  it('fingerprint/ does not import text/: only the analyses compose them', () => {
    const bad = crossing.filter((e) => e.to === 'text' && !['analyze', 'index', 'filter', 'synonyms', 'cascade'].includes(e.from)).map((e) => `${e.file} → ${e.target}`);
    expect(bad).toEqual([]);
  });
});
