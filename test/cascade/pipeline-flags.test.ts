/**
 * The cascade wired into the pipeline (src/pipeline.ts, src/cascade/cascade-committer.ts): flags in
 * the database's flags table, on corpus lines, in the counters; records kept in the database and
 * loaded on open; a stage turned off in config gives no flag; `synonymised.action: reject`.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../src/config.js';
import { Pipeline } from '../../src/pipeline.js';
import { corpusFileName, databaseFileName } from '../../src/store/data-folder.js';
import { loadSynonymDictionary } from '../../src/synonyms/synonym-dictionary.js';
import { compilePage, homoglyphCopy, spinText } from '../../scripts/cascade-variants.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { devTexts } from './dev-texts.js';
import { flagOfRow } from '../../src/cascade/flag-row.js';
import type { CascadeFlagKind } from '../../src/types.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir('neardup-flags-');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const synonyms = loadSynonymDictionary();
/** Of a text never stored (a look-alike copy of a stored one is its exact duplicate: rejected, though flagged). */
const spoofed = homoglyphCopy(devTexts[9]!.text, 0.4, seededRandom(3));
const spun = spinText(devTexts[5]!.text, 'eng', synonyms, 0.3, seededRandom(4)).text;
const compiled = compilePage([devTexts[1]!.text, devTexts[4]!.text, devTexts[7]!.text], 600, seededRandom(8));

function configWith(cascade: Record<string, unknown> = {}): Config {
  return loadConfig({ env: {}, overrides: { cascade } as never });
}

interface FlagRowOut {
  url: string;
  kind: CascadeFlagKind;
  doc_id: number | null;
  evidence: string;
  /** The row's flag as the report reads it (flagOfRow, sources named by their documents' URLs). */
  flag: Record<string, unknown>;
}

function flagRows(): FlagRowOut[] {
  const db = new Database(join(dir, databaseFileName), { readonly: true });
  try {
    const urlOf = (id: number) => db.prepare('SELECT url FROM documents WHERE id = ?').pluck().get(id) as string | undefined;
    const rows = db.prepare('SELECT url, kind, doc_id, evidence FROM flags ORDER BY url, kind').all() as Omit<FlagRowOut, 'flag'>[];
    return rows.map((r) => ({ ...r, flag: flagOfRow(r, urlOf) as unknown as Record<string, unknown> }));
  } finally {
    db.close();
  }
}

function corpusFlags(): Map<string, string[]> {
  const lines = readFileSync(join(dir, corpusFileName), 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { url: string; flags?: string[] });
  return new Map(lines.map((l) => [l.url, l.flags ?? ['(no flags field)']]));
}

/** The dev texts, then the made pages, through one pipeline; `split`: in two runs (records loaded from the database on reopening). */
async function runAll(config: Config, split = false): Promise<Pipeline['counters'][]> {
  const originals = devTexts.slice(0, 9).map((t, i) => ({ url: `http://src.test/${i}`, text: t.text }));
  const made = [
    { url: 'http://made.test/spoofed', text: spoofed },
    { url: 'http://made.test/spun', text: spun },
    { url: 'http://made.test/compiled', text: compiled },
  ];
  const counters: Pipeline['counters'][] = [];
  let pipeline = await Pipeline.open({ dataDir: dir, config });
  for (const input of originals) await pipeline.process(input);
  if (split) {
    counters.push(structuredClone(pipeline.counters));
    await pipeline.close();
    pipeline = await Pipeline.open({ dataDir: dir, config });
  }
  for (const input of made) await pipeline.process(input);
  counters.push(structuredClone(pipeline.counters));
  await pipeline.close();
  return counters;
}

describe('the cascade in the pipeline', () => {
  it.each([false, true])('flags a spoofed, a spun and a compiled page in the database, on corpus lines and in the counters (reopened between: %s)', async (split) => {
    const counters = await runAll(configWith(), split);
    const rows = flagRows().filter((r) => r.url.startsWith('http://made.test/'));
    expect(rows.map((r) => `${r.url} ${r.kind}`)).toEqual([
      'http://made.test/compiled compiled',
      'http://made.test/spoofed homoglyph',
      'http://made.test/spun synonymised',
    ]);
    const byKind = Object.fromEntries(rows.map((r) => [r.kind, r.flag]));
    expect(byKind.homoglyph!.words as number).toBeGreaterThan(10);
    expect(byKind.synonymised!.sourceUrl).toBe('http://src.test/5');
    expect((byKind.compiled!.sources as { url: string }[]).map((s) => s.url).sort()).toEqual(['http://src.test/1', 'http://src.test/4', 'http://src.test/7']);
    expect(rows.every((r) => typeof r.doc_id === 'number')).toBe(true);
    // Natural texts get no flag.
    expect(flagRows().filter((r) => r.url.startsWith('http://src.test/'))).toEqual([]);
    const lines = corpusFlags();
    expect(lines.get('http://made.test/spoofed')).toEqual(['homoglyph']);
    expect(lines.get('http://made.test/spun')).toEqual(['synonymised']);
    expect(lines.get('http://made.test/compiled')).toEqual(['compiled']);
    expect(lines.get('http://src.test/0')).toEqual([]);
    expect(counters.at(-1)!.flagged).toEqual({ homoglyph: 1, synonymised: 1, compiled: 1 });
  });

  it('gives no flag of a stage turned off, and no flags field when every stage is off', async () => {
    await runAll(configWith({ homoglyph: { enabled: false }, compiled: { enabled: false } }));
    expect(flagRows().map((r) => r.kind)).toEqual(['synonymised']);
    expect(corpusFlags().get('http://made.test/spoofed')).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
    const off = { enabled: false };
    const counters = await runAll(configWith({ homoglyph: off, generated: off, synonymised: off, compiled: off }));
    expect(corpusFlags().get('http://made.test/spoofed')).toEqual(['(no flags field)']);
    expect(counters[0]!.flagged).toEqual({});
    const db = new Database(join(dir, databaseFileName), { readonly: true });
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name IN ('flags', 'cascade_records')").pluck().get()).toBe(0);
    db.close();
  });

  it('rejects a spun copy when synonymised.action is reject: a skip with reason synonymised, no corpus line, the flag kept', async () => {
    const counters = await runAll(configWith({ synonymised: { action: 'reject' } }), true);
    expect(counters.at(-1)!.skippedBy).toEqual({ synonymised: 1 });
    expect(corpusFlags().has('http://made.test/spun')).toBe(false);
    const row = flagRows().find((r) => r.url === 'http://made.test/spun')!;
    expect(row.kind).toBe('synonymised');
    expect(row.doc_id).toBeNull();
    const db = new Database(join(dir, databaseFileName), { readonly: true });
    expect(db.prepare("SELECT reason FROM skipped WHERE url = 'http://made.test/spun'").pluck().get()).toBe('synonymised');
    db.close();
  });
});
