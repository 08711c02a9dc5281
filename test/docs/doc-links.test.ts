/**
 * Every relative Markdown link of README.md and docs/*.md points at a file of the repository, and
 * every page of docs/ is linked from the README or from another page (none is orphaned).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { relativeLinks } from './doc-blocks.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const pages = ['README.md', ...readdirSync(join(repo, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

describe('the README', () => {
  it('stays short (at most 250 lines: details go to docs/)', () => {
    expect(readFileSync(join(repo, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(250);
  });
});

describe('links between the docs', () => {
  it('finds relative links only, outside code', () => {
    expect(relativeLinks('[a](docs/x.md#y) [b](https://e.example/) [c](#top)\n```md\n[d](gone.md)\n```\n')).toEqual(['docs/x.md']);
  });

  it.each(pages)('%s links only to files that exist', (page) => {
    const text = readFileSync(join(repo, page), 'utf8');
    for (const target of relativeLinks(text)) expect(existsSync(join(repo, dirname(page), target)), `${page} → ${target}`).toBe(true);
  });

  it('links every page of docs/ from the README or another page', () => {
    const linked = new Set<string>();
    for (const page of pages) {
      const text = readFileSync(join(repo, page), 'utf8');
      for (const target of relativeLinks(text)) linked.add(relative(repo, join(repo, dirname(page), target)));
      // Plain mentions such as docs/report.md count too (pages name each other in prose).
      for (const m of text.matchAll(/\b(docs\/[a-z-]+\.md)\b/g)) linked.add(m[1]!);
    }
    expect(pages.filter((p) => p.startsWith('docs/') && !linked.has(p))).toEqual([]);
  });
});
