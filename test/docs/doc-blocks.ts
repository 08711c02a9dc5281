/**
 * The shell examples of the docs that run as tests (test/docs/doc-examples.test.ts). A block runs
 * when its fence's info string is `sh doctest`, optionally with `exit=N` (the exit code the block's
 * last command must end with; otherwise every command must succeed). A ```text output block right
 * after it (blank lines between allowed) lists lines that must appear in what the block printed
 * (stdout and stderr); `…` in a line stands for anything within that line.
 * With the word `site`, the bundled demo site (a news site on 127.0.0.1 and its mirror on
 * localhost, as `npm start` serves them) is served for the block, its home pages in `$SITE` and
 * `$MIRROR`: the test's own local server, so such a crawl stays offline.
 * Blocks without `doctest` (crawls of real sites, PostgreSQL, installs) are not run.
 */

export interface DocBlock {
  /** File the block is in, relative to the repository. */
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly script: string;
  /** Exit code the block must end with. @default 0 (and every command must succeed) */
  readonly exit: number;
  /** Lines that must appear in the block's output. */
  readonly expect: readonly string[];
  /** Whether the block crawls the demo site ($SITE, $MIRROR). */
  readonly site: boolean;
}

const FENCE = /^(`{3,}|~{3,})\s*(.*)$/;

/** The doctest blocks of one Markdown text, in order. */
export function docBlocks(markdown: string, file: string): DocBlock[] {
  const lines = markdown.split('\n');
  const blocks: { line: number; info: string; body: string[] }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (open === null) continue;
    const fence = open[1]!;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !(lines[j]!.startsWith(fence) && lines[j]!.slice(fence.length).trim() === '')) body.push(lines[j++]!);
    blocks.push({ line: i + 1, info: open[2]!.trim(), body });
    i = j;
  }
  const out: DocBlock[] = [];
  blocks.forEach((block, k) => {
    const words = block.info.split(/\s+/);
    if (words[0] !== 'sh' || !words.includes('doctest')) return;
    const exitWord = words.find((w) => w.startsWith('exit='));
    const exit = exitWord === undefined ? 0 : Number(exitWord.slice('exit='.length));
    if (!Number.isInteger(exit)) throw new Error(`${file}:${block.line}: bad ${exitWord}`);
    const next = blocks[k + 1];
    const between = next === undefined ? [] : lines.slice(block.line + block.body.length + 1, next.line - 1);
    const expect = next !== undefined && next.info === 'text output' && between.every((l) => l.trim() === '')
      ? next.body.filter((l) => l.trim() !== '')
      : [];
    out.push({ file, line: block.line, script: block.body.join('\n'), exit, expect, site: words.includes('site') });
  });
  return out;
}

/** Whether `output` holds `line`, where `…` in it stands for anything within one line. */
export function outputHas(output: string, line: string): boolean {
  const parts = line.split('…').map((p) => p.trim()).filter((p) => p !== '');
  return output.split('\n').some((have) => {
    let at = 0;
    for (const part of parts) {
      const found = have.indexOf(part, at);
      if (found < 0) return false;
      at = found + part.length;
    }
    return true;
  });
}

/** Relative link targets of a Markdown text (outside code blocks), without their #anchor. */
export function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1\s*$/gm, '');
  const out: string[] = [];
  for (const m of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1]!.split('#')[0]!;
    if (target === '' || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    out.push(target);
  }
  return out;
}
