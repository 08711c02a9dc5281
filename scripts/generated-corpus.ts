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
 * | blogpages | the same blogs' HTML through neardup's extraction (the pages of the blogs texts loaded) | AGPL-3.0 (run time only) |
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
import { seededRandom } from '../test/helpers/seeded-random.js';

export const GENRES = ['news', 'pages', 'blogs', 'blogpages', 'pydoc', 'pgdoc', 'handbook', 'man'] as const;
export type Genre = (typeof GENRES)[number];

/**
 * Texts loaded per genre by default (train and eval alike): 120 each, but more of dragnet-train
 * (966 pages, the genre whose pages were flagged most): blogs and their pages, 360 each, leaving
 * ~600 of its pages never trained on for the real-page measure.
 */
export const DEFAULT_GENRE_TEXTS: Readonly<Record<Genre, number>> = {
  news: 120, pages: 120, blogs: 360, blogpages: 360, pydoc: 120, pgdoc: 120, handbook: 120, man: 120,
};

/** `perGenre` over the defaults: a number for every genre, or `genre=n,genre=n` for some. */
export function genreTextCounts(perGenre: string | undefined): Record<Genre, number> {
  const counts = { ...DEFAULT_GENRE_TEXTS };
  if (perGenre === undefined || perGenre === '') return counts;
  if (/^\d+$/.test(perGenre)) {
    for (const g of GENRES) counts[g] = Number(perGenre);
    return counts;
  }
  for (const part of perGenre.split(',')) {
    const [g, n] = part.split('=');
    if (!GENRES.includes(g as Genre) || !/^\d+$/.test(n ?? '')) throw new Error(`Expected --per-genre to be a number or genre=n,... (genres ${GENRES.join('|')}), got \`${perGenre}\``);
    counts[g as Genre] = Number(n);
  }
  return counts;
}

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
function gzippedHtmlTexts(folder: string, keep: (id: string) => boolean = () => true): { id: string; text: string }[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder).filter((f) => f.endsWith('.html.gz') && keep(f.replace(/\.html\.gz$/, ''))).sort().map((f) => {
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
 * Up to `perGenre[genre]` texts of each genre (a seeded sample of the long enough ones), English only
 * (the genres are English; a stray page in another language is dropped). Each genre draws from its
 * own seeded stream (one number of `random` a genre, whatever is installed), so that a genre with
 * more or fewer files here than elsewhere (man pages differ between installations) changes no
 * other genre's sample or split.
 */
export function loadGenreTexts(perGenre: Readonly<Record<Genre, number>>, random: () => number, only: readonly Genre[] = GENRES): GenreText[] {
  const out: GenreText[] = [];
  const streams = new Map(GENRES.map((g) => [g, seededRandom(Math.floor(random() * 2 ** 32))]));
  for (const genre of only) {
    const limit = perGenre[genre];
    const random = streams.get(genre)!;
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
      case 'blogpages': {
        // The pages of the blogs texts loaded (as `pages` are news's): split with them (splitGenres).
        const blogs = new Set(out.filter((t) => t.genre === 'blogs').map((t) => t.id));
        raw = gzippedHtmlTexts(join(datasets, 'dragnet-train', 'html'), (id) => blogs.has(id));
        break;
      }
      case 'pydoc': {
        const root = '/usr/share/doc/python3.11/html';
        raw = htmlTexts(shuffled(['library', 'reference', 'tutorial', 'howto'].flatMap((d) => htmlFiles(join(root, d))), random).slice(0, 3 * limit));
        break;
      }
      case 'pgdoc':
        raw = htmlTexts(shuffled(htmlFiles('/usr/share/doc/postgresql-doc-15/html'), random).slice(0, 3 * limit));
        break;
      case 'handbook':
        raw = htmlTexts(htmlFiles('/usr/share/doc/debian-handbook/html/en-US'));
        break;
      case 'man':
        raw = manTexts(limit, random);
        break;
    }
    const texts = shuffled(raw.filter((t) => words(t.text) >= MIN_WORDS), random)
      .map((t) => ({ genre, id: t.id, text: t.text, language: detectLanguage(normalizeText(t.text.slice(0, 4000))) }))
      .filter((t) => t.language === 'eng')
      .slice(0, limit);
    if (texts.length === 0) process.stderr.write(`generated-corpus: no texts of genre ${genre} (not installed?)\n`);
    out.push(...texts);
  }
  return out;
}

/**
 * The texts split as scripts/train-generated.ts splits them: every genre but `holdOut` shuffled and
 * cut 70/30 (train, test), `pages` as `news` and `blogpages` as `blogs`; `holdOut`'s texts apart.
 * Deterministic for `random`'s state.
 */
export function splitGenres(all: readonly GenreText[], holdOut: Genre, random: () => number): { train: GenreText[]; test: GenreText[]; held: GenreText[] } {
  const train: GenreText[] = [];
  const test: GenreText[] = [];
  for (const genre of GENRES) {
    if (genre === holdOut || genre === 'pages' || genre === 'blogpages') continue;
    const mine = shuffled(all.filter((t) => t.genre === genre), random);
    const cut = Math.round(0.7 * mine.length);
    train.push(...mine.slice(0, cut));
    test.push(...mine.slice(cut));
  }
  // A page goes where its hand-made text (news or blogs, same id) went: no held-out text is seen as a page.
  for (const [pages, texts] of [['pages', 'news'], ['blogpages', 'blogs']] as const) {
    const trained = new Set(train.filter((t) => t.genre === texts).map((t) => t.id));
    for (const page of all.filter((t) => t.genre === pages && holdOut !== pages)) (trained.has(page.id) ? train : test).push(page);
  }
  return { train, test, held: all.filter((t) => t.genre === holdOut) };
}
