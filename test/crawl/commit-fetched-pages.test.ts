/**
 * The dedup stage's work on fetched pages: HTML in, parsed and extracted there, committed
 * together, verdicts (with the pages' links) out in input order.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { Pipeline } from '../../src/pipeline.js';
import { commitFetchedPages } from '../../src/crawl/commit-fetched-pages.js';
import { tempDir } from '../helpers/temp-dir.js';

const config = loadConfig({ env: {}, overrides: {} });

const article = (title: string, body: string, links: readonly string[]) => `<!doctype html><html lang="en"><head><title>${title}</title></head><body>
<nav>${links.map((href) => `<a href="${href}">more</a>`).join(' ')}</nav>
<article><h1>${title}</h1><p>${body}</p></article></body></html>`;

const story = 'The river authority said on Tuesday that the northern dam would be rebuilt by the spring, '
  + 'after engineers found cracks in the spillway that had widened during the floods of the last winter. '
  + 'Residents of the valley were told that water supplies would not be interrupted while the work goes on.';
const other = 'A small bakery in the old town has won the regional prize for its rye bread, baked in a wood oven '
  + 'that the family has kept running for four generations, and it now plans to open a second shop by the market square.';

let pipeline: Pipeline;
let remove: () => void;

beforeEach(async () => {
  const temp = tempDir('neardup-commit-fetched-');
  remove = temp.remove;
  pipeline = await Pipeline.open({ dataDir: temp.dir, config });
});

afterEach(async () => {
  await pipeline.close();
  remove();
});

describe('commitFetchedPages', () => {
  it('parses, extracts and commits pages in order, answering each with its verdict and links', async () => {
    const input = (url: string) => ({ url, finalUrl: url, fetchedAt: 0, lastModified: null, depth: 1 });
    const results = await commitFetchedPages(pipeline, [
      { input: input('http://a.test/river'), html: article('Dam to be rebuilt', story, ['/bakery', 'http://b.test/x']) },
      { input: input('http://a.test/bakery'), html: article('Bread prize', other, ['/river']) },
      { input: input('http://copy.test/river'), html: article('Dam to be rebuilt', story, ['/elsewhere']) },
    ]);
    expect(results.map((r) => r.decision.kind)).toEqual(['stored', 'stored', 'exact']);
    // Links resolve against the page's URL and come back with the verdict.
    expect(results[0]!.links).toEqual(['http://a.test/bakery', 'http://b.test/x']);
    expect(results[2]!.links).toEqual(['http://copy.test/elsewhere']);
    expect(results[1]!.title).toBe('Bread prize');
    expect(pipeline.counters.stored).toBe(2);
  });

  it('records a page without main text as a skip, and still returns its links', async () => {
    const [result] = await commitFetchedPages(pipeline, [
      { input: { url: 'http://a.test/list', finalUrl: 'http://a.test/list' }, html: '<html><body><a href="/one">one</a></body></html>' },
    ]);
    expect(result!.decision.kind).toBe('skipped');
    expect(result!.links).toEqual(['http://a.test/one']);
  });
});
