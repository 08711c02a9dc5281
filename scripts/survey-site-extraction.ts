/**
 * Extracts every HTML page of a folder (a saved site, such as a documentation tree) and counts
 * the pages whose main text went wrong, measured against the page's own markup:
 * - reference: the text of the page's main element (`--main`, default `[role=main], main, article`:
 *   the first match); pages without one are counted apart and not judged;
 * - furniture: the text of its footer (`--footer`, default `footer, [role=contentinfo], .footer`);
 * - "mostly footer": more than half of the output's word 4-gram shingles are shingles of the footer;
 * - "short": the output holds less than `--share` (default 0.5) of the reference's shingles (recall);
 * - "shared text": the output is word for word the output of another page (those pages would be
 *   merged as exact duplicates), counted over the pages that have text;
 * - "outside": under half of the output's shingles are the reference's; "empty": no text.
 * It also prints the mean recall and precision of the output against the reference.
 *
 *   npx tsx scripts/survey-site-extraction.ts <folder> [--main <css>] [--footer <css>] [--share 0.5]
 *                                              [--list] [--base http://localhost/] [--readability]
 *
 * `--readability` counts the same for Readability.js (on linkedom) beside, for comparison.
 *
 * Pages are extracted as a crawl of `--base` would see them (relative links are the site's own).
 * The folder is an argument: nothing of it is copied into the repository.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { CheerioAPI } from 'cheerio';
import { readabilityText } from './readability-text.js';
import { decodeHtmlBytes } from '../src/input/decode-html-bytes.js';
import { extractPage, parseHtml } from '../src/extract/extract-page.js';
import { collapseWhitespace, textContent, type DomNode } from '../src/extract/dom-node.js';
import { pagePrecision, pageRecall, scorePage } from '../src/extract/extraction-score.js';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    main: { type: 'string', default: '[role=main], main, article' },
    footer: { type: 'string', default: 'footer, [role=contentinfo], .footer' },
    share: { type: 'string', default: '0.5' },
    base: { type: 'string', default: 'http://localhost/' },
    list: { type: 'boolean', default: false },
    readability: { type: 'boolean', default: false },
  },
});
const share = Number(args.share);
if (!(share > 0 && share <= 1)) throw new Error(`Expected \`share\` to be a number in (0, 1], got \`${args.share}\``);
if (positionals.length !== 1) {
  console.error('usage: survey-site-extraction <folder> [--main <css>] [--footer <css>] [--share 0.5] [--list] [--base <url>] [--readability]');
  process.exit(1);
}
const root = resolve(positionals[0]!);

function htmlFiles(dir: string): string[] {
  const out: string[] = [];
  const stack = [dir];
  while (stack.length > 0) {
    const current = stack.pop()!;
    for (const name of readdirSync(current).sort()) {
      const path = join(current, name);
      if (statSync(path).isDirectory()) stack.push(path);
      else if (/\.html?$/i.test(name)) out.push(path);
    }
  }
  return out.sort();
}

interface Row {
  readonly file: string;
  readonly chars: number;
  readonly referenceChars: number | null;
  readonly recall: number | null;
  /** Share of the output's shingles that are the main element's. */
  readonly precision: number | null;
  readonly footerShare: number;
  readonly text: string;
}

function surveyPage(path: string, extract: (html: string, $: CheerioAPI, url: string) => string): Row {
  const { html } = decodeHtmlBytes(readFileSync(path));
  const file = relative(root, path);
  const $ = parseHtml(html);
  const text = extract(html, $, new URL(file.split('\\').join('/'), args.base).href);
  const main = $(args.main).get(0) as unknown as DomNode | undefined;
  const reference = main === undefined ? null : collapseWhitespace(textContent(main));
  const footerText = $(args.footer).toArray().map((e) => textContent(e as unknown as DomNode)).join('\n');
  return {
    file,
    chars: text.length,
    referenceChars: reference === null ? null : reference.length,
    recall: reference === null ? null : pageRecall(scorePage(reference, text)),
    precision: reference === null || text === '' ? null : pagePrecision(scorePage(reference, text)),
    footerShare: text === '' || footerText.trim() === '' ? 0 : pagePrecision(scorePage(footerText, text)),
    text,
  };
}

function report(name: string, rows: readonly Row[]): void {
  const byText = new Map<string, number>();
  for (const row of rows) if (row.text !== '') byText.set(row.text, (byText.get(row.text) ?? 0) + 1);
  const judged = rows.filter((r) => r.recall !== null);
  const mostlyFooter = rows.filter((r) => r.footerShare > 0.5);
  const short = judged.filter((r) => r.recall! < share);
  const shared = rows.filter((r) => r.text !== '' && byText.get(r.text)! > 1);
  const empty = rows.filter((r) => r.text === '');
  const outside = rows.filter((r) => r.precision !== null && r.precision < 0.5);
  const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
  const meanRecall = mean(judged.map((r) => r.recall!));
  const meanPrecision = mean(rows.filter((r) => r.precision !== null).map((r) => r.precision!));
  const groups = [...byText.values()].filter((n) => n > 1);

  if (args.list) {
    for (const r of rows) {
      const flags = [
        r.footerShare > 0.5 ? 'FOOTER' : '', r.recall !== null && r.recall < share ? 'SHORT' : '',
        r.text !== '' && byText.get(r.text)! > 1 ? 'SHARED' : '', r.text === '' ? 'EMPTY' : '',
        r.precision !== null && r.precision < 0.5 ? 'OUTSIDE' : '',
      ].filter((f) => f !== '').join(',');
      if (flags === '') continue;
      const recall = r.recall === null ? '-' : r.recall.toFixed(2);
      const precision = r.precision === null ? '-' : r.precision.toFixed(2);
      console.log(`${flags.padEnd(28)} recall=${recall} precision=${precision} footer=${r.footerShare.toFixed(2)} chars=${r.chars}/${r.referenceChars ?? '-'} ${r.file}`);
    }
  }
  console.log(`${name}: pages: ${rows.length} (${judged.length} with a main element matching \`${args.main}\`)`);
  console.log(`mostly footer (over half the output's shingles are the footer's): ${mostlyFooter.length}`);
  console.log(`short (output holds under ${share} of the main element's shingles): ${short.length} of ${judged.length}`);
  console.log(`shared text (output equal to another page's): ${shared.length} pages in ${groups.length} groups`);
  console.log(`outside (under half the output's shingles are the main element's): ${outside.length}`);
  console.log(`empty output: ${empty.length}`);
  console.log(`mean recall of the main element's shingles: ${meanRecall.toFixed(3)}; mean precision: ${meanPrecision.toFixed(3)}`);
}

const files = htmlFiles(root);
report('neardup', files.map((f) => surveyPage(f, (_, $, url) => extractPage($, url).text)));
if (args.readability) report('readability.js', files.map((f) => surveyPage(f, (html) => readabilityText(html))));
