/**
 * Builds a labelled near-duplicate pair set from the dev pages, so that anyone can reproduce the
 * `neardup eval` figures:
 *
 *   npm run make:pairs -- [--out /tmp/neardup-pairs] [--seed 1] [--dataset <dir>]
 *   neardup eval --pairs /tmp/neardup-pairs/pairs.tsv
 *
 * From ../shared/datasets/article-benchmark-dev (88 pages: html/<id>.html.gz + ground-truth
 * texts) it writes into --out:
 *   pages/<id>.html.gz     the original pages (copied)
 *   texts/<id>.txt         their hand-made main texts
 *   variants/<id>.<kind>.* the generated copies
 *   pairs.tsv              `a<TAB>b<TAB>label<TAB>kind`, paths relative to --out
 *
 * Positives (label 1):
 *   mirror         original page vs a mirror copy (same HTML, links rewritten to another host,
 *                  a "mirrored" comment added)
 *   light-edit     text vs the text with 3 edits (a word replaced, one deleted, one inserted)
 *   paragraph-swap text vs the text with two neighbouring paragraphs swapped
 *   homoglyph      text vs the text with ~1/3 of its a e o p c (and capitals) swapped for the
 *                  Cyrillic look-alikes а е о р с (Cyrillic → Latin for a Cyrillic text)
 *   retemplated    original page vs the same text in a different page template (another site's
 *                  header, menu, sidebar, footer)
 *   boilerplate    text vs the text with a newsletter / copyright / share footer appended
 * Negatives (label 0):
 *   different      text vs the text of another, randomly chosen article (2 per article)
 *   same-template  two different articles in the same page template: the dataset's pages from
 *                  the same host, and the re-templated copies of two different articles
 *   same-topic     text vs the other article closest in vocabulary (cosine of content-word
 *                  counts): the hardest real negatives the set has
 * Deterministic for a given --seed. Last line:
 *   `pairs: total=<n> positives=<n> negatives=<n> out=<dir>/pairs.tsv`
 */
import { mkdirSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';
import { seededRandom } from '../test/helpers/seeded-random.js';

const here = new URL('.', import.meta.url).pathname;
const { values: flags } = parseArgs({
  options: {
    out: { type: 'string', default: '/tmp/neardup-pairs' },
    seed: { type: 'string', default: '1' },
    dataset: { type: 'string', default: resolve(here, '../../shared/datasets/article-benchmark-dev') },
  },
});
const out = resolve(flags.out);
const seed = Number(flags.seed);
if (!Number.isInteger(seed)) {
  process.stderr.write(`make-pairs: Expected \`seed\` to be an integer, got \`${flags.seed}\` (string)\n`);
  process.exit(2);
}

const random = seededRandom(seed);
const pick = (n: number) => Math.floor(random() * n);

interface Article {
  readonly id: string;
  readonly url: string;
  readonly text: string;
  readonly htmlGzPath: string;
  readonly html: string;
}

const truth = JSON.parse(readFileSync(join(flags.dataset, 'ground-truth.json'), 'utf8')) as Record<string, { articleBody: string; url: string }>;
const articles: Article[] = Object.keys(truth).sort().map((id) => {
  const htmlGzPath = join(flags.dataset, 'html', `${id}.html.gz`);
  return { id, url: truth[id]!.url, text: truth[id]!.articleBody.trim(), htmlGzPath, html: gunzipSync(readFileSync(htmlGzPath)).toString('utf8') };
});

for (const sub of ['pages', 'texts', 'variants']) mkdirSync(join(out, sub), { recursive: true });

const rows: string[] = ['a\tb\tlabel\tkind'];
const counts = new Map<string, number>();
function pair(a: string, b: string, duplicate: boolean, kind: string): void {
  rows.push(`${a}\t${b}\t${duplicate ? 1 : 0}\t${kind}`);
  counts.set(kind, (counts.get(kind) ?? 0) + 1);
}
function write(rel: string, content: string): string {
  writeFileSync(join(out, rel), content);
  return rel;
}

const paragraphsOf = (text: string) => text.split(/\n\s*\n|\n/).map((p) => p.trim()).filter((p) => p !== '');
const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
function titleOf(a: Article): string {
  const m = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(a.html);
  const t = m === null ? '' : m[1]!.replace(/\s+/g, ' ').trim();
  return t === '' ? paragraphsOf(a.text)[0]!.split(/\s+/).slice(0, 8).join(' ') : t;
}

// ------------------------------------------------------------------ variants

/** Replaces one word, deletes one, inserts one (a "few words" edit), at random word positions. */
function lightEdit(text: string, donor: string): string {
  const donorWords = donor.split(/\s+/).filter((w) => /^\p{L}{3,}$/u.test(w));
  const tokens = text.split(/(\s+)/); // words at even indices, separators at odd ones
  const wordAt = () => 2 * pick(Math.ceil(tokens.length / 2));
  const donorWord = () => donorWords[pick(donorWords.length)] ?? 'lorem';
  tokens[wordAt()] = donorWord();
  tokens[wordAt()] = '';
  const i = wordAt();
  tokens[i] = `${tokens[i]} ${donorWord()}`;
  return tokens.join('').replace(/ {2,}/g, ' ');
}

function paragraphSwap(text: string): string | null {
  const paras = paragraphsOf(text);
  if (paras.length < 2) return null;
  const i = pick(paras.length - 1);
  [paras[i], paras[i + 1]] = [paras[i + 1]!, paras[i]!];
  return paras.join('\n\n');
}

const latinToCyrillic: Record<string, string> = { a: 'а', e: 'е', o: 'о', p: 'р', c: 'с', A: 'А', E: 'Е', O: 'О', P: 'Р', C: 'С' };
const cyrillicToLatin: Record<string, string> = Object.fromEntries(Object.entries(latinToCyrillic).map(([l, c]) => [c, l]));
function homoglyphs(text: string): string {
  const cyrillic = (text.match(/[\u0400-\u04ff]/g) ?? []).length;
  const latin = (text.match(/[A-Za-z]/g) ?? []).length;
  const table = cyrillic > latin ? cyrillicToLatin : latinToCyrillic;
  let outText = '';
  for (const ch of text) outText += table[ch] !== undefined && random() < 1 / 3 ? table[ch] : ch;
  return outText;
}

const boilerplateFooter = [
  'Subscribe to our newsletter to get the latest stories delivered to your inbox every morning.',
  'Share this article on Facebook, Twitter or by email. © 2024 Example Media Group. All rights reserved.',
].join('\n\n');

const sidebarHeadlines = [
  'City council approves new budget for public parks',
  'Ten recipes for a quick weeknight dinner',
  'Local team wins the regional championship after extra time',
  'How to choose a laptop for university',
  'Weather: a sunny weekend ahead across the region',
];

/** The one "other site" template every re-templated copy uses (so two of them are same-template negatives). */
function retemplate(a: Article): string {
  const nav = ['Home', 'News', 'World', 'Business', 'Technology', 'Science', 'Sport', 'Culture', 'Opinion', 'Contact']
    .map((n) => `<li><a href="/${n.toLowerCase()}">${n}</a></li>`).join('');
  const body = paragraphsOf(a.text).map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(titleOf(a))} | The Daily Mirror Site</title>
<link rel="stylesheet" href="/static/site.css"></head>
<body>
<div class="cookie-banner">We use cookies to improve your experience. <a href="/privacy">Learn more</a> <button>Accept</button></div>
<header class="site-header"><a class="logo" href="/">The Daily Mirror Site</a><nav><ul>${nav}</ul></nav></header>
<div class="layout">
<main><article class="story">
<h1>${escapeHtml(titleOf(a))}</h1>
<div class="byline">By Staff Writer · Updated today</div>
<div class="story-body">
${body}
</div>
<div class="share">Share: <a href="#">Facebook</a> <a href="#">Twitter</a> <a href="#">Email</a></div>
</article></main>
<aside class="sidebar"><h2>Most read</h2><ol>${sidebarHeadlines.map((h, i) => `<li><a href="/story/${i}">${h}</a></li>`).join('')}</ol>
<div class="newsletter"><h3>Newsletter</h3><p>Get our best stories every morning.</p><input placeholder="Email"><button>Sign up</button></div></aside>
</div>
<footer class="site-footer"><p>The Daily Mirror Site is an independent publication. <a href="/about">About us</a> · <a href="/terms">Terms</a> · <a href="/privacy">Privacy</a></p><p>© 2024 The Daily Mirror Site</p></footer>
</body></html>
`;
}

function mirror(a: Article): string {
  const host = new URL(a.url).host;
  const rewritten = a.html.split(`//${host}`).join('//mirror.example.net');
  return `<!-- mirrored from ${a.url} by an archiving bot -->\n${rewritten}`;
}

// ------------------------------------------------------------------ same-topic neighbours

function contentWords(text: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const w of text.toLowerCase().match(/\p{L}{5,}/gu) ?? []) m.set(w, (m.get(w) ?? 0) + 1);
  return m;
}
const vectors = articles.map((a) => contentWords(a.text));
const docFreq = new Map<string, number>();
for (const v of vectors) for (const w of v.keys()) docFreq.set(w, (docFreq.get(w) ?? 0) + 1);
const weighted = vectors.map((v) => {
  const w = new Map<string, number>();
  let norm = 0;
  for (const [word, count] of v) {
    const x = count * Math.log(articles.length / docFreq.get(word)!);
    w.set(word, x);
    norm += x * x;
  }
  return { w, norm: Math.sqrt(norm) };
});
function cosine(i: number, j: number): number {
  const a = weighted[i]!;
  const b = weighted[j]!;
  if (a.norm === 0 || b.norm === 0) return 0;
  let dot = 0;
  for (const [word, x] of a.w) dot += x * (b.w.get(word) ?? 0);
  return dot / (a.norm * b.norm);
}

// ------------------------------------------------------------------ write everything

const pagePath = (a: Article) => `pages/${a.id}.html.gz`;
const textPath = (a: Article) => `texts/${a.id}.txt`;

for (const a of articles) {
  copyFileSync(a.htmlGzPath, join(out, pagePath(a)));
  write(textPath(a), `${a.text}\n`);
}

articles.forEach((a, i) => {
  const donor = articles[(i + 1 + pick(articles.length - 1)) % articles.length]!;
  pair(pagePath(a), write(`variants/${a.id}.mirror.html`, mirror(a)), true, 'mirror');
  pair(textPath(a), write(`variants/${a.id}.edit.txt`, lightEdit(a.text, donor.text)), true, 'light-edit');
  const swapped = paragraphSwap(a.text);
  if (swapped !== null) pair(textPath(a), write(`variants/${a.id}.swap.txt`, swapped), true, 'paragraph-swap');
  pair(textPath(a), write(`variants/${a.id}.homoglyph.txt`, homoglyphs(a.text)), true, 'homoglyph');
  pair(pagePath(a), write(`variants/${a.id}.retemplated.html`, retemplate(a)), true, 'retemplated');
  pair(textPath(a), write(`variants/${a.id}.boilerplate.txt`, `${a.text}\n\n${boilerplateFooter}`), true, 'boilerplate');
});

const seen = new Set<string>();
const unordered = (i: number, j: number) => (i < j ? `${i}:${j}` : `${j}:${i}`);
articles.forEach((a, i) => {
  for (let n = 0; n < 2; n += 1) {
    let j = pick(articles.length);
    while (j === i || seen.has(unordered(i, j))) j = pick(articles.length);
    seen.add(unordered(i, j));
    pair(textPath(a), textPath(articles[j]!), false, 'different');
  }
});

const byHost = new Map<string, number[]>();
articles.forEach((a, i) => {
  const host = new URL(a.url).host;
  byHost.set(host, [...(byHost.get(host) ?? []), i]);
});
for (const group of byHost.values()) {
  for (let x = 0; x < group.length; x += 1) {
    for (let y = x + 1; y < group.length; y += 1) pair(pagePath(articles[group[x]!]!), pagePath(articles[group[y]!]!), false, 'same-template');
  }
}
articles.forEach((a, i) => {
  const b = articles[(i + 1) % articles.length]!;
  pair(`variants/${a.id}.retemplated.html`, `variants/${b.id}.retemplated.html`, false, 'same-template');
});

const topicPairs = new Set<string>();
articles.forEach((_, i) => {
  let best = -1;
  let bestScore = -1;
  for (let j = 0; j < articles.length; j += 1) {
    if (j === i) continue;
    const s = cosine(i, j);
    if (s > bestScore) {
      bestScore = s;
      best = j;
    }
  }
  const key = unordered(i, best);
  if (topicPairs.has(key) || seen.has(key)) return;
  topicPairs.add(key);
  pair(textPath(articles[i]!), textPath(articles[best]!), false, 'same-topic');
});

writeFileSync(join(out, 'pairs.tsv'), `${rows.join('\n')}\n`);
const positives = ['mirror', 'light-edit', 'paragraph-swap', 'homoglyph', 'retemplated', 'boilerplate'].reduce((s, k) => s + (counts.get(k) ?? 0), 0);
const total = rows.length - 1;
for (const [kind, n] of counts) process.stdout.write(`${kind.padEnd(15)} ${n}\n`);
process.stdout.write(`evaluate with: neardup eval --pairs ${join(out, 'pairs.tsv')}\n`);
process.stdout.write(`pairs: total=${total} positives=${positives} negatives=${total - positives} out=${join(out, 'pairs.tsv')}\n`);
