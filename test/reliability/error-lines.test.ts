/**
 * Issue 29 (errors): every error line starts with `neardup:`, commander's own included (unknown
 * option or command, missing argument, a flag's bad value), on one line; a seed without a scheme
 * gets the `http://` it lacks suggested.
 */
import { describe, expect, it } from 'vitest';
import { createCrawlScope } from '../../src/crawl/crawl-scope.js';
import { spawnNeardup } from '../helpers/run-cli.js';

describe('error lines', () => {
  it.each([
    [['crawl', '--bogus', 'http://a.example/'], /^neardup: unknown option '--bogus'/],
    [['bogus'], /^neardup: unknown command 'bogus'/],
    [['filter'], /^neardup: missing required argument 'input'/],
    [['dedup', 'x', '--workers', 'many'], /^neardup: option '--workers <n>' argument 'many' is invalid\. Expected `workers` to be an integer/],
    [['clusters', '--data', '/nonexistent/neardup-data'], /^neardup: No data folder/],
    [['crawl', '127.0.0.1:38101/', '--data', '/nonexistent/neardup-data'], /^neardup: Expected a seed to be an http\(s\) URL, got `127\.0\.0\.1:38101\/` — did you mean `http:\/\/127\.0\.0\.1:38101\/`\?$/m],
  ])('%j: one line, neardup: first', async (args, message) => {
    const r = await spawnNeardup(args);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
  });

  it.each([
    ['localhost:8080/', 'http://localhost:8080/'],
    ['example.com/news', 'http://example.com/news'],
  ])('suggests http:// for the seed %s', (seed, suggestion) => {
    expect(() => createCrawlScope([seed], 'host')).toThrow(`did you mean \`${suggestion}\`?`);
  });

  it.each(['mailto:a@b.example', 'ftp://b.example/', 'javascript:alert(1)', 'not a url', 'not-a-url'])('suggests nothing for %s', (seed) => {
    expect(() => createCrawlScope([seed], 'host')).toThrow(/^Expected a seed to be an http\(s\) URL, got `.*` \(string\)$/);
  });
});
