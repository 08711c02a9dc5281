/**
 * The `compiled` flag does not depend on the order pages come in (a crawl's order follows its
 * fetches' timing): a compiled page stored before its sources is flagged when they come
 * (CascadeCommitter re-judges it from its stored record), with the same sources.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { Pipeline } from '../../src/pipeline.js';
import { databaseFileName } from '../../src/store/data-folder.js';
import { flagOfRow } from '../../src/cascade/flag-row.js';
import type { CompiledFlag } from '../../src/types.js';
import { compilePage } from '../../scripts/cascade-variants.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { devTexts } from './dev-texts.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const half = (text: string) => {
  const paragraphs = text.split(/\n\s*\n/);
  return paragraphs.slice(0, Math.ceil(paragraphs.length / 2)).join('\n\n');
};
const defaultPages = [
  ...[1, 4, 7].map((i) => ({ url: `http://src.test/${i}`, text: devTexts[i]!.text })),
  { url: 'http://made.test/a', text: compilePage([devTexts[1]!.text, devTexts[4]!.text, devTexts[7]!.text], 600, seededRandom(8)) },
  { url: 'http://src.test/2', text: devTexts[2]!.text },
  { url: 'http://src.test/3', text: devTexts[3]!.text },
  { url: 'http://made.test/b', text: `${half(devTexts[2]!.text)}\n\n${half(devTexts[3]!.text)}` },
];

/** The compiled flags (url → source urls) after committing `order` of `pages`, and the counter. */
async function compiledAfter(order: readonly number[], pages: readonly { url: string; text: string }[] = defaultPages): Promise<{ rows: Map<string, string[]>; counted: number }> {
  const dir = makeTempDir('neardup-compiled-order-');
  dirs.push(dir);
  const pipeline = await Pipeline.open({ dataDir: dir, config: loadConfig({ env: {} }) });
  for (const i of order) await pipeline.process(pages[i]!);
  const counted = pipeline.counters.flagged?.compiled ?? 0;
  await pipeline.close();
  const db = new Database(join(dir, databaseFileName), { readonly: true });
  try {
    const rows = db.prepare("SELECT url, kind, evidence FROM flags WHERE kind = 'compiled' ORDER BY url").all() as { url: string; kind: 'compiled'; evidence: string }[];
    // Read as the report reads them: a source is named by its document's URL.
    const urlOf = (id: number) => db.prepare('SELECT url FROM documents WHERE id = ?').pluck().get(id) as string | undefined;
    return { rows: new Map(rows.map((r) => [r.url, (flagOfRow(r, urlOf) as CompiledFlag).sources.map((s) => s.url).sort()])), counted };
  } finally {
    db.close();
  }
}

describe('compiled flags whatever the order', () => {
  it('flags the same pages with the same sources when the compiled pages come first, between or last', async () => {
    const last = await compiledAfter([0, 1, 2, 3, 4, 5, 6]);
    expect([...last.rows.keys()]).toEqual(['http://made.test/a', 'http://made.test/b']);
    expect(last.rows.get('http://made.test/b')).toEqual(['http://src.test/2', 'http://src.test/3']);
    expect(last.counted).toBe(2);
    for (const order of [[3, 6, 0, 1, 2, 4, 5], [0, 3, 1, 4, 6, 2, 5], [6, 5, 4, 3, 2, 1, 0]]) {
      expect(await compiledAfter(order)).toEqual(last);
    }
  });
});

describe('a compiled flag taken back', () => {
  it('is removed when a later page becomes the page\'s one main source, as if that page had come first', async () => {
    const paragraphs = (text: string) => text.split(/\n\s*\n/);
    const made = `${half(devTexts[1]!.text)}\n\n${half(devTexts[4]!.text)}`;
    const most = paragraphs(made).slice(0, Math.ceil(0.9 * paragraphs(made).length)).join('\n\n');
    const pages = [
      { url: 'http://src.test/1', text: devTexts[1]!.text },
      { url: 'http://src.test/4', text: devTexts[4]!.text },
      { url: 'http://made.test/p', text: made },
      // Most of the made page, within two other whole texts: not a copy of it, but its main source.
      { url: 'http://big.test/c', text: `${devTexts[2]!.text}\n\n${most}\n\n${devTexts[3]!.text}` },
    ];
    const withoutBig = await compiledAfter([0, 1, 2], pages);
    expect([...withoutBig.rows.keys()]).toEqual(['http://made.test/p']);
    const bigLast = await compiledAfter([0, 1, 2, 3], pages);
    expect(bigLast.rows.has('http://made.test/p')).toBe(false);
    expect(bigLast).toEqual(await compiledAfter([3, 0, 1, 2], pages));
  });
});
