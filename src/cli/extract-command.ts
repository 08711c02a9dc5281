/**
 * `neardup extract <file...>`: the main text of HTML files (.html, or gzipped .html.gz; `-` reads
 * standard input). Plain output is the text itself, with a `==> file <==` header before each file
 * when there are several; `--jsonl` prints one {"file","title","text"} object a line, and `--meta`
 * adds language, canonical URL, publication date and links to each line.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Command } from 'commander';
import { decodeHtmlBytes } from '../batch/decode-html-bytes.js';
import { InputError, ValidationError } from '../errors.js';
import { extractHtml } from '../extract/extract-page.js';
import type { ExtractedPage } from '../types.js';
import { reportError } from './shared.js';

interface ExtractFlags {
  readonly jsonl: boolean;
  readonly meta: boolean;
  readonly url?: string;
}

const readErrors: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a folder, not a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
};

function describePath(path: string): string {
  return path === '-' ? 'standard input' : `\`${path}\``;
}

/** The file's HTML: gunzipped when it starts with the gzip magic bytes, decoded by its declared or sniffed charset. */
export function readHtmlFile(path: string): string {
  if (path === '') throw new ValidationError('Expected a file path or `-` for standard input, got an empty string');
  let bytes: Buffer;
  try {
    bytes = readFileSync(path === '-' ? 0 : path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === undefined ? (error as Error).message : (readErrors[code] ?? code);
    throw new InputError(`Cannot read ${describePath(path)}: ${reason}`, { cause: error });
  }
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes);
    } catch (error) {
      throw new InputError(`Cannot read ${describePath(path)}: not a valid gzip file (${(error as Error).message})`, { cause: error });
    }
  }
  return decodeHtmlBytes(bytes).html;
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
          page = extractHtml(readHtmlFile(file), flags.url);
        } catch (error) {
          // The other files are still extracted; each failure is one line at the end.
          failures.push(error);
          continue;
        }
        if (flags.jsonl) {
          process.stdout.write(jsonLine(file, page, flags.meta));
        } else if (files.length === 1) {
          process.stdout.write(page.text === '' ? '' : `${page.text}\n`);
        } else {
          process.stdout.write(`${printed > 0 ? '\n' : ''}==> ${file} <==\n${page.text === '' ? '' : `${page.text}\n`}`);
        }
        printed++;
      }
      const last = failures.pop();
      for (const error of failures) reportError(error);
      if (last !== undefined) throw last;
    });
}
