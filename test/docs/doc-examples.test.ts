/**
 * Doc-tests: the shell examples of README.md and docs/*.md marked ```sh doctest run against the CLI
 * from the sources (`neardup` on PATH runs scripts/neardup-from-source.js), each file's blocks in
 * order in one fresh temporary folder, offline. See test/docs/doc-blocks.ts for the marks.
 */
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startDemoSite } from '../helpers/demo-site/demo-site.js';
import { tempDir } from '../helpers/temp-dir.js';
import { neardupBin } from '../helpers/run-cli.js';
import { docBlocks, outputHas } from './doc-blocks.js';
import type { DocBlock } from './doc-blocks.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const docsDir = join(repo, 'docs');
const files = [join(repo, 'README.md'), ...readdirSync(docsDir).filter((f) => f.endsWith('.md')).sort().map((f) => join(docsDir, f))];
const byFile = files.map((path) => ({ path, blocks: docBlocks(readFileSync(path, 'utf8'), relative(repo, path)) }));

function runBlock(block: DocBlock, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  const script = block.exit === 0 ? `set -eo pipefail\n${block.script}` : block.script;
  return new Promise((done) => {
    execFile('bash', ['-c', script], { cwd, env, maxBuffer: 16 << 20, timeout: 120_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      done({ code, output: `${stdout}\n${stderr}` });
    });
  });
}

describe('doc-tests', () => {
  it('there are examples to run, in the README and in docs/', () => {
    const all = byFile.flatMap((f) => f.blocks);
    expect(all.filter((b) => b.file === 'README.md').length).toBeGreaterThanOrEqual(2);
    expect(all.length).toBeGreaterThanOrEqual(12);
  });

  const temp = tempDir('neardup-doctest-');
  afterAll(temp.remove);
  const bin = join(temp.dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'neardup'), `#!/bin/sh\nexec "${process.execPath}" "${neardupBin}" "$@"\n`);
  chmodSync(join(bin, 'neardup'), 0o755);
  // No NEARDUP_* settings from the caller; one dedup worker (tiny inputs: start-up is the cost).
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('NEARDUP_')));
  const env = { ...base, PATH: `${bin}:${process.env.PATH ?? ''}`, NEARDUP_DEDUP_WORKERS: '1', NO_COLOR: '1' };

  for (const { path, blocks } of byFile.filter((f) => f.blocks.length > 0)) {
    const name = relative(repo, path);
    it(`${name}: ${blocks.length} example(s) run as written`, { timeout: 300_000 }, async () => {
      const cwd = join(temp.dir, name.replace(/[/.]/g, '-'));
      mkdirSync(cwd);
      // The demo site for the blocks that crawl it, served by this test on 127.0.0.1 / localhost.
      const demo = blocks.some((b) => b.site) ? await startDemoSite() : null;
      try {
        for (const block of blocks) {
          const siteEnv = demo === null ? {} : { SITE: demo.manifest.mainHome, MIRROR: demo.manifest.mirrorHome };
          const { code, output } = await runBlock(block, cwd, { ...env, ...siteEnv, HOME: cwd });
          const where = `${block.file}:${block.line}\n${block.script}\n--- output ---\n${output}`;
          expect(code, where).toBe(block.exit);
          for (const line of block.expect) expect(outputHas(output, line), `expected «${line}» in ${where}`).toBe(true);
        }
      } finally {
        await demo?.site.close();
      }
    });
  }
});
