/**
 * Issue 28 item 12: escape sequences that come with the input are never sent to the terminal raw.
 * `filter --format text` printed titles and URLs as they came, and problem lines of `dedup` and
 * `filter` echoed the bad line (clear screen, window title, OSC 8 links). Every printing path goes
 * through src/cli/terminal-text.ts; here the real CLI runs on hostile input and no stream may hold
 * an ESC, BEL, CR or C1 byte, while the escapes show what was there.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnNeardup } from '../helpers/run-cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const clear = '\x1b[2J\x1b[H';
const title = '\x1b]0;pwned\x07';
const link = '\x1b]8;;http://evil.example/\x1b\\click\x1b]8;;\x1b\\';
const raw = /[\x00-\x08\x0b-\x1f\x7f\u0080-\u009f]/;

function expectEscaped(text: string): void {
  expect(text).not.toMatch(raw);
}

describe('terminal escape sequences from input', () => {
  const work = makeTempDir('neardup-terminal-escapes-');

  it('filter --format text shows them as escapes; --format json keeps them as JSON escapes', async () => {
    const input = join(work, 'results.jsonl');
    const results = [
      { url: `http://a.example/${clear}`, title: `Cheap flights ${title}`, snippet: 'Book cheap flights to Rome today with our deals.' },
      { url: 'http://b.example/', title: `Cheap flights ${link}`, snippet: 'Book cheap flights to Rome today with our deals.' },
    ];
    writeFileSync(input, `${JSON.stringify({ query: `flights ${clear}`, results })}\n`);
    const text = await spawnNeardup(['filter', input, '--format', 'text']);
    expect(text.code).toBe(0);
    expectEscaped(text.stdout);
    expectEscaped(text.stderr);
    expect(text.stdout).toContain('\\x1b[2J\\x1b[H');
    expect(text.stdout).toContain('\\x1b]0;pwned\\x07');
    const json = await spawnNeardup(['filter', input]);
    expectEscaped(json.stdout);
    expect(JSON.parse(json.stdout).results[0].title).toBe(`Cheap flights ${title}`);
  });

  it('filter: a bad line is reported with its controls escaped', async () => {
    const input = join(work, 'bad.jsonl');
    writeFileSync(input, `${clear}not json${title}\n{"query":"${'\\u001b'}]0;x","results":7}\n`);
    const r = await spawnNeardup(['filter', input, '--format', 'text']);
    expectEscaped(r.stderr);
    expect(r.stderr).toMatch(/^neardup: line 1: .*\n/);
    expect(r.stderr).toContain('\\x1b');
  });

  it('dedup: problem lines are escaped', async () => {
    const input = join(work, 'docs.jsonl');
    const words = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu';
    writeFileSync(input, [
      JSON.stringify({ url: 'http://a.example/1', text: words }),
      `${clear}{"url": broken ${title}`,
      JSON.stringify({ url: `http://a.example/${link}`, text: 5 }),
      JSON.stringify({ url: 7, text: `${clear}` }),
    ].join('\n'));
    const r = await spawnNeardup(['dedup', input, '--data', join(work, 'data'), '--no-progress']);
    expectEscaped(r.stderr);
    expectEscaped(r.stdout);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('neardup: ')).length).toBeGreaterThanOrEqual(2);
  });

  it("commander's own errors echo the argument escaped, on one line starting with neardup:", async () => {
    const r = await spawnNeardup(['clusters', '--format', `x${title}`]);
    expect(r.code).toBe(2);
    expectEscaped(r.stderr);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^neardup: .*x\\x1b\]0;pwned\\x07/);
  });
});
