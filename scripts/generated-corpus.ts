/**
 * Natural texts of several genres for the `generated` stage's training and evaluation
 * (scripts/train-generated.ts, scripts/eval-generated.ts), read at run time from where they are
 * installed; none is copied into the repository. Each genre's texts are extracted as a crawl would
 * see them (HTML pages through neardup's own extraction; man pages as `man` renders them).
 *
 * | genre    | source                                                              | licence            |
 * |----------|---------------------------------------------------------------------|--------------------|
 * | news     | article-benchmark-dev hand-made texts (../shared/datasets)          | MIT                |
 * | pages    | the same pages' HTML through neardup's extraction (boilerplate and all, as crawled) | MIT |
 * | blogs    | dragnet-train hand-made texts (../shared/datasets): news and blogs  | AGPL-3.0 (run time only) |
 * | pydoc    | Debian python3-doc: /usr/share/doc/python3.11/html (library, reference, tutorial, howto) | PSF-2.0 |
 * | pgdoc    | Debian postgresql-doc-15: /usr/share/doc/postgresql-doc-15/html     | PostgreSQL         |
 * | handbook | Debian debian-handbook: /usr/share/doc/debian-handbook/html/en-US   | GPL-2+ / CC-BY-SA-3.0 |
 * | man      | Debian manpages, manpages-dev: /usr/share/man/man{2,3,5,7}          | various free (see the packages' copyright) |
 *
 * Install the Debian genres with
 * `apt-get install -y python3-doc postgresql-doc-15 debian-handbook manpages manpages-dev man-db`.
 * A genre whose files are missing is left out with a note on stderr.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { extractParsedPage, parsePage } from '../src/analyze/analyze-page.js';
import { detectLanguage } from '../src/text/detect-language.js';
import { normalizeText } from '../src/text/normalize-text.js';
import { shuffled } from './cascade-dataset.js';

export const GENRES = ['news', 'pages', 'blogs', 'pydoc', 'pgdoc', 'handbook', 'man'] as const;
export type Genre = (typeof GENRES)[number];

export interface GenreText {
  readonly genre: Genre;
  readonly id: string;
  readonly text: string;
  readonly language: string;
}

const here = new URL('.', import.meta.url).pathname;
const datasets = resolve(here, '../../shared/datasets');

/** Texts of at least this many whitespace words are kept (the stage judges 120+). */
const MIN_WORDS = 150;

function words(text: string): number {
  return text.split(/\s+/).filter((t) => t !== '').length;
}

function truthTexts(folder: string): { id: string; text: string }[] {
  const path = join(folder, 'ground-truth.json');
  if (!existsSync(path)) return [];
  const truth = JSON.parse(readFileSync(path, 'utf8')) as Record<string, { articleBody: string }>;
  return Object.keys(truth).sort().map((id) => ({ id, text: truth[id]!.articleBody.trim() }));
}

function htmlTexts(files: readonly string[]): { id: string; text: string }[] {
  return files.map((file) => {
    const html = readFileSync(file, 'utf8');
    const page = extractParsedPage(parsePage(html), { url: `file://${file}`, html });
    return { id: file, text: page.text };
  });
}

/** The texts of a folder's `*.html.gz` pages, through neardup's extraction; ids are the file names less `.html.gz`. */
function gzippedHtmlTexts(folder: string): { id: string; text: string }[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder).filter((f) => f.endsWith('.html.gz')).sort().map((f) => {
    const html = gunzipSync(readFileSync(join(folder, f))).toString('utf8');
    const page = extractParsedPage(parsePage(html), { url: `file://${join(folder, f)}`, html });
    return { id: f.replace(/\.html\.gz$/, ''), text: page.text };
  });
}

function htmlFiles(folder: string, filter: (name: string) => boolean = () => true): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder).filter((f) => f.endsWith('.html') && filter(f)).sort().map((f) => join(folder, f));
}

/** A man page as `man` renders it for a wide terminal, no hyphenation or justification: a paragraph a line. */
function manText(file: string): string {
  const out = execFileSync('man', ['-l', '--nh', '--nj', file], {
    env: { ...process.env, MANWIDTH: '2000', MAN_KEEP_FORMATTING: '0' }, stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 24,
  }).toString('utf8');
  // Overstrike (bold, underline) removed as `col -b` does; indentation dropped.
  return out.replace(/.\x08/g, '').split('\n').map((l) => l.trim()).filter((l) => l !== '').slice(1, -1).join('\n');
}

function manTexts(limit: number, random: () => number): { id: string; text: string }[] {
  const files = ['man2', 'man3', 'man5', 'man7'].flatMap((d) => {
    const folder = join('/usr/share/man', d);
    // Upper-case names in man7 are PostgreSQL's SQL command pages (postgresql-doc's text again): left out.
    return existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith('.gz') && !/^[A-Z]/.test(f)).sort().map((f) => join(folder, f)) : [];
  });
  const out: { id: string; text: string }[] = [];
  for (const file of shuffled(files, random)) {
    if (out.length >= limit) break;
    // A page that only points at another (".so") is too short anyway; skip it before rendering.
    if (gunzipSync(readFileSync(file)).length < 3000) continue;
    try {
      const text = manText(file);
      if (words(text) >= MIN_WORDS) out.push({ id: file, text });
    } catch {
      // An unrenderable page is left out.
    }
  }
  return out;
}

/**
 * Up to `perGenre` texts of each genre (a seeded sample of the long enough ones), English only
 * (the genres are English; a stray page in another language is dropped).
 */
export function loadGenreTexts(perGenre: number, random: () => number, only: readonly Genre[] = GENRES): GenreText[] {
  const out: GenreText[] = [];
  for (const genre of only) {
    let raw: { id: string; text: string }[];
    switch (genre) {
      case 'news':
        raw = truthTexts(join(datasets, 'article-benchmark-dev'));
        break;
      case 'pages':
        raw = gzippedHtmlTexts(join(datasets, 'article-benchmark-dev', 'html'));
        break;
      case 'blogs':
        raw = truthTexts(join(datasets, 'dragnet-train'));
        break;
      case 'pydoc': {
        const root = '/usr/share/doc/python3.11/html';
        raw = htmlTexts(shuffled(['library', 'reference', 'tutorial', 'howto'].flatMap((d) => htmlFiles(join(root, d))), random).slice(0, 3 * perGenre));
        break;
      }
      case 'pgdoc':
        raw = htmlTexts(shuffled(htmlFiles('/usr/share/doc/postgresql-doc-15/html'), random).slice(0, 3 * perGenre));
        break;
      case 'handbook':
        raw = htmlTexts(htmlFiles('/usr/share/doc/debian-handbook/html/en-US'));
        break;
      case 'man':
        raw = manTexts(perGenre, random);
        break;
    }
    const texts = shuffled(raw.filter((t) => words(t.text) >= MIN_WORDS), random)
      .map((t) => ({ genre, id: t.id, text: t.text, language: detectLanguage(normalizeText(t.text.slice(0, 4000))) }))
      .filter((t) => t.language === 'eng')
      .slice(0, perGenre);
    if (texts.length === 0) process.stderr.write(`generated-corpus: no texts of genre ${genre} (not installed?)\n`);
    out.push(...texts);
  }
  return out;
}

/**
 * The texts split as scripts/train-generated.ts splits them: every genre but `holdOut` shuffled and
 * cut 70/30 (train, test), `pages` as `news`; `holdOut`'s texts apart. Deterministic for `random`'s state.
 */
export function splitGenres(all: readonly GenreText[], holdOut: Genre, random: () => number): { train: GenreText[]; test: GenreText[]; held: GenreText[] } {
  const train: GenreText[] = [];
  const test: GenreText[] = [];
  for (const genre of GENRES) {
    if (genre === holdOut || genre === 'pages') continue;
    const mine = shuffled(all.filter((t) => t.genre === genre), random);
    const cut = Math.round(0.7 * mine.length);
    train.push(...mine.slice(0, cut));
    test.push(...mine.slice(cut));
  }
  // A page goes where its hand-made text (news, same id) went: no held-out text is seen as a page.
  const newsTrained = new Set(train.filter((t) => t.genre === 'news').map((t) => t.id));
  for (const page of all.filter((t) => t.genre === 'pages' && holdOut !== 'pages')) (newsTrained.has(page.id) ? train : test).push(page);
  return { train, test, held: all.filter((t) => t.genre === holdOut) };
}
