/**
 * `neardup extract <file...>`: the main text of HTML files (.html, or gzipped .html.gz; `-` reads
 * standard input). Plain output is the text itself, with a `==> file <==` header before each file
 * when there are several; `--jsonl` prints one {"file","title","text"} object a line, and `--meta`
 * adds language, canonical URL, publication date and links to each line.
 */
import type { Command } from 'commander';
import { ValidationError } from '../errors.js';
import { extractHtml } from '../extract/extract-page.js';
import { readHtmlInput } from '../input/read-input-file.js';
import type { ExtractedPage } from '../types.js';
import { reportError } from './shared.js';
import { forStdout } from './terminal-text.js';

interface ExtractFlags {
  readonly jsonl: boolean;
  readonly meta: boolean;
  readonly url?: string;
}

function parseUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.href;
  } catch {
    // reported below
  }
  throw new ValidationError(`Expected \`url\` to be an absolute http(s) URL, got \`${raw}\` (string)`);
}

function jsonLine(file: string, page: ExtractedPage, meta: boolean): string {
  const record = meta
    ? {
      file,
      title: page.title,
      text: page.text,
      language: page.declaredLanguage,
      canonicalUrl: page.canonicalUrl,
      publishedAt: page.publishedAt,
      links: page.links,
    }
    : { file, title: page.title, text: page.text };
  return `${JSON.stringify(record)}\n`;
}

export function registerExtract(program: Command): void {
  program
    .command('extract')
    .description('print the main text of HTML files (.html or .html.gz; - for standard input)')
    .argument('<file...>', 'HTML files to read')
    .option('--jsonl', 'print one {"file","title","text"} JSON object a line', false)
    .option('--meta', 'with --jsonl: add language, canonicalUrl, publishedAt and links', false)
    .option('--url <url>', 'the pages\' URL, for resolving relative links and the canonical URL (default: none)', parseUrl)
    .action((files: string[], flags: ExtractFlags) => {
      if (flags.meta && !flags.jsonl) throw new ValidationError('Expected `--meta` together with `--jsonl`');
      const failures: unknown[] = [];
      let printed = 0;
      for (const file of files) {
        let page: ExtractedPage;
        try {
          page = extractHtml(readHtmlInput(file), flags.url);
        } catch (error) {
          // The other files are still extracted; each failure is one line at the end.
          failures.push(error);
          continue;
        }
        if (flags.jsonl) {
          process.stdout.write(jsonLine(file, page, flags.meta));
        } else if (files.length === 1) {
          process.stdout.write(forStdout(page.text === '' ? '' : `${page.text}\n`));
        } else {
          process.stdout.write(forStdout(`${printed > 0 ? '\n' : ''}==> ${file} <==\n${page.text === '' ? '' : `${page.text}\n`}`));
        }
        printed++;
      }
      const last = failures.pop();
      for (const error of failures) reportError(error);
      if (last !== undefined) throw last;
    });
}
