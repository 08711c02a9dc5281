import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import iconv from 'iconv-lite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerExtract } from '../../src/cli/extract-command.js';
import { runInProcess, spawnNeardup } from '../helpers/run-cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const run = (args: readonly string[]) => runInProcess(registerExtract, args);
const spawnCli = (args: readonly string[]) => spawnNeardup(args);

const first = [
  'The museum reopened its east wing on Saturday after a two-year restoration of the painted ceilings.',
  'Visitors queued around the block, and the first guided tours were fully booked within an hour of opening.',
];
const second = [
  'Heavy rain flooded several streets in the lower town overnight, and two schools stayed closed on Monday.',
  'The river authority said water levels were falling again and that the flood barriers had held as planned.',
];

function article(title: string, paragraphs: readonly string[]): string {
  return `<!doctype html><html lang="en"><head><title>${title}</title></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a></nav>
<div class="story">${paragraphs.map((p) => `<p>${p}</p>`).join('')}</div>
<footer>Contact the newsroom any time of day or night at the address below this line.</footer></body></html>`;
}

let dir: string;
let a: string;
let b: string;

beforeEach(() => {
  dir = makeTempDir('neardup-extract-');
  a = join(dir, 'museum.html');
  b = join(dir, 'flood.html.gz');
  writeFileSync(a, article('Museum reopens', first));
  writeFileSync(b, gzipSync(article('Flood in the lower town', second)));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('neardup extract', () => {
  it('prints the main text of one file', async () => {
    const r = await run(['extract', a]);
    expect(r).toEqual({ code: 0, stdout: `${first.join('\n\n')}\n`, stderr: '' });
  });

  it('reads gzipped files and separates several files with headers', async () => {
    const r = await run(['extract', a, b]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`==> ${a} <==\n${first.join('\n\n')}\n\n==> ${b} <==\n${second.join('\n\n')}\n`);
  });

  it('prints one JSON object a line with --jsonl', async () => {
    const r = await run(['extract', '--jsonl', a, b]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as unknown);
    expect(lines).toEqual([
      { file: a, title: 'Museum reopens', text: first.join('\n\n') },
      { file: b, title: 'Flood in the lower town', text: second.join('\n\n') },
    ]);
  });

  it('adds language, canonical URL, date and links with --meta, resolved against --url', async () => {
    const r = await run(['extract', '--jsonl', '--meta', '--url', 'https://news.example/museum', a]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      file: a, title: 'Museum reopens', text: first.join('\n\n'), language: 'en', canonicalUrl: null, publishedAt: null,
      links: ['https://news.example/', 'https://news.example/news'],
    });
  });

  it('decodes a page by its declared charset (windows-1251)', async () => {
    const cyrillic = 'Музей вновь открыл восточное крыло после двухлетней реставрации расписных потолков и залов.';
    const file = join(dir, 'ru.html');
    writeFileSync(file, iconv.encode(`<html><head><meta charset="windows-1251"><title>Музей</title></head><body><div class="text"><p>${cyrillic}</p></div></body></html>`, 'windows-1251'));
    const r = await run(['extract', '--jsonl', file]);
    expect(JSON.parse(r.stdout)).toEqual({ file, title: 'Музей', text: cyrillic });
  });

  it('prints nothing for a page without text', async () => {
    const file = join(dir, 'empty.html');
    writeFileSync(file, '<html><body></body></html>');
    expect(await run(['extract', file])).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('reports a missing file in one line, still extracts the others, and fails', async () => {
    const missing = join(dir, 'missing.html');
    const r = await run(['extract', a, missing]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`neardup: Cannot read \`${missing}\`: no such file\n`);
    expect(r.stdout).toContain(first[0]);
  });

  const bad: readonly [string, () => string[], RegExp, number][] = [
    ['a folder', () => { mkdirSync(join(dir, 'sub')); return ['extract', join(dir, 'sub')]; }, /^neardup: Cannot read `.*sub`: it is a folder, not a file\n$/, 1],
    ['a corrupt .gz', () => { const f = join(dir, 'bad.html.gz'); writeFileSync(f, Buffer.from([0x1f, 0x8b, 1, 2, 3])); return ['extract', f]; }, /^neardup: Cannot read `.*bad\.html\.gz`: not a valid gzip file/, 1],
    ['--meta without --jsonl', () => ['extract', '--meta', a], /^neardup: Expected `--meta` together with `--jsonl`\n$/, 2],
    ['a bad --url', () => ['extract', '--url', 'not a url', a], /Expected `url` to be an absolute http\(s\) URL, got `not a url`/, 2],
    ['no file', () => ['extract'], /missing required argument 'file'/, 2],
  ];
  for (const [name, args, message, code] of bad) {
    it(`fails on ${name}`, async () => {
      const r = await run(args());
      expect(r.code).toBe(code);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
    });
  }

  it('shows every flag with its default in --help', async () => {
    const r = await run(['extract', '--help']);
    expect(r.code).toBe(0);
    for (const flag of ['--jsonl', '--meta', '--url <url>']) expect(r.stdout).toContain(flag);
    expect(r.stdout.match(/\(default:\s+[^)]+\)/g)?.length).toBe(3);
  });

  it('exits non-zero from the real CLI on a missing file', async () => {
    const r = await spawnCli(['extract', join(dir, 'nope.html')]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('no such file');
  });
});
