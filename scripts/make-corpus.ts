/**
 * Builds the corpus-dedup case of issue 25: a JSONL corpus of N documents ({"url","text"}) made from
 * real article texts, 80% distinct and 20% planted copies, with a labels file saying which document
 * is a copy of which, and how it was made.
 *
 *   npx tsx scripts/make-corpus.ts [--out /tmp/corpus.jsonl] [--labels <out>.labels.jsonl] [--n 20000]
 *       [--seed 25] [--dataset ../shared/datasets/article-benchmark-dev] [--extra ../shared/datasets/dragnet-train]
 *   npm run bench:corpus -- --corpus /tmp/corpus.jsonl
 *
 * Distinct documents (80%): whole articles (each article of the data sets at most once, spread over
 * the file) and mixes of sentence runs from 6–12 articles (15–40 sentences, shuffled runs, 1–4
 * sentences a paragraph). Copies (20%, one in every block of five documents, after its source in the
 * file): a quarter each of
 *   exact    the source's text unchanged;
 *   edit     1–5% of the words replaced, deleted or a word inserted (words drawn from the texts);
 *   shuffle  the paragraphs in another order (the sentences, for a one-paragraph source);
 *   append   1–4 boilerplate paragraphs (cookie notice, newsletter, copyright…) added at the end.
 * A copy's source is any earlier document, copies included (a variant of a variant is a copy of the
 * base); `base` in the labels is the distinct document at the root of that chain.
 * Paragraphs are separated by a single "\n", as in most text corpora.
 *
 * Streaming: documents are written as they are made, nothing of the corpus is held; every document
 * is a pure function of (seed, position), so a copy regenerates its source instead of remembering it.
 * Memory is the source texts plus a write buffer, whatever --n.
 *
 * Labels (one JSON object a line, in corpus order):
 *   {"url","kind":"whole"|"mix","article"?:<id>,"contains"?:[<id>...]}  (contains: articles whose every sentence the mix holds)
 *   {"url","kind":"exact"|"edit"|"shuffle"|"append","source":<url>,"base":<url>}
 * Last line on stdout: `corpus: documents=<n> distinct=<n> copies=<n> exact=<n> edit=<n> shuffle=<n> append=<n> mb=<..> out=<file> labels=<file>`.
 */
import { closeSync, existsSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { seededRandom } from '../test/helpers/seeded-random.js';

const { values: flags } = parseArgs({
  options: {
    out: { type: 'string', default: '/tmp/corpus.jsonl' },
    labels: { type: 'string' },
    n: { type: 'string', default: '20000' },
    seed: { type: 'string', default: '25' },
    dataset: { type: 'string', default: '../shared/datasets/article-benchmark-dev' },
    extra: { type: 'string' },
  },
});

function fail(message: string): never {
  process.stderr.write(`make-corpus: ${message}\n`);
  process.exit(2);
}
const n = Number(flags.n);
const seed = Number(flags.seed);
if (!Number.isInteger(n) || n < 5) fail(`Expected \`n\` to be an integer ≥ 5, got \`${flags.n}\``);
if (!Number.isInteger(seed) || seed < 0) fail(`Expected \`seed\` to be a non-negative integer, got \`${flags.seed}\``);

// ------------------------------------------------------------------ source texts

interface Article {
  readonly id: string;
  /** Paragraphs, each a list of sentences. */
  readonly paragraphs: readonly (readonly string[])[];
  readonly sentences: readonly string[];
}

const SENTENCE_END = /(?<=[.!?。！？])\s+(?=\S)/u;

function readArticles(dir: string, prefix: string): Article[] {
  const file = join(dir, 'ground-truth.json');
  if (!existsSync(file)) fail(`Expected a data set folder holding ground-truth.json, got \`${dir}\` (${file} does not exist)`);
  const truth = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { articleBody: string }>;
  const articles: Article[] = [];
  for (const id of Object.keys(truth).sort()) {
    const paragraphs = truth[id]!.articleBody.split(/\n/u)
      .map((p) => p.replace(/\s+/gu, ' ').trim())
      .filter((p) => p.length > 0)
      .map((p) => p.split(SENTENCE_END).map((s) => s.trim()).filter((s) => s.length > 0));
    const sentences = paragraphs.flat();
    if (sentences.join(' ').split(' ').length < 20) continue; // too little text to be a document
    articles.push({ id: `${prefix}${id}`, paragraphs, sentences });
  }
  return articles;
}

const articles = readArticles(resolve(flags.dataset), 'dev:');
if (flags.extra !== undefined) articles.push(...readArticles(resolve(flags.extra), 'extra:'));
const vocabulary = [...new Set(articles.flatMap((a) => a.sentences.join(' ').split(' ')))].filter((w) => /\p{L}/u.test(w));

const BOILERPLATE = [
  'We use cookies to improve your experience on our site. By continuing to browse you agree to our use of cookies. Read our cookie policy to learn more.',
  'Sign up for our newsletter and get the best stories delivered to your inbox every morning. You can unsubscribe at any time.',
  'Copyright © 2024 The Daily Example Media Group. All rights reserved. This material may not be published, broadcast, rewritten or redistributed.',
  'Share this article on Facebook, Twitter, LinkedIn or by email. Follow us on social media for the latest updates.',
  'Advertisement. Continue reading the main story below.',
  'Have a news tip? Contact our newsroom by email or call us. We read every message and respond to as many as we can.',
  'Related articles: more stories from this section, the most read of the week, and what our editors recommend next.',
  'This article was originally published by our partners and is republished here under licence.',
  'Comments are closed for this story. Please read our community guidelines before posting on other articles.',
  'Subscribe now for unlimited access to our journalism. Support independent reporting for less than a coffee a week.',
  'Terms of use | Privacy policy | Accessibility | Contact us | About us | Careers | Advertise with us',
  'Download our app for iOS and Android to get breaking news alerts wherever you are.',
];

// ------------------------------------------------------------------ documents as functions of position

type Kind = 'whole' | 'mix' | 'exact' | 'edit' | 'shuffle' | 'append';
const COPY_KINDS = ['exact', 'edit', 'shuffle', 'append'] as const;

/** A document's own generator: a pure function of (seed, position, purpose). */
function rngFor(i: number, salt: number): () => number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(i + 1, 0xc2b2ae35) ^ Math.imul(salt + 7, 0x27d4eb2f);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  return seededRandom(h >>> 0);
}
const int = (random: () => number, lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));

/** Blocks of five documents; in block b one position holds a copy (never position 0 of the file). */
function copyPositionOfBlock(b: number): number {
  const r = rngFor(b, 1)();
  return b === 0 ? 1 + Math.floor(r * 4) : Math.floor(r * 5);
}
const isCopy = (i: number) => copyPositionOfBlock(Math.floor(i / 5)) === i % 5;
/** The rank of a distinct document among the distinct ones. */
const distinctRank = (i: number) => Math.floor(i / 5) * 4 + (i % 5) - (copyPositionOfBlock(Math.floor(i / 5)) < i % 5 ? 1 : 0);
const expectedDistinct = Math.floor(n / 5) * 4 + Math.max(0, (n % 5) - 1);
/** Whole articles sit at evenly spread distinct ranks, each article once. */
const wholeStride = Math.max(1, Math.floor(expectedDistinct / articles.length));
function wholeArticleAt(i: number): number | undefined {
  const rank = distinctRank(i);
  if (rank % wholeStride !== 0) return undefined;
  const a = rank / wholeStride;
  return a < articles.length ? a : undefined;
}

interface Doc {
  readonly kind: Kind;
  /** Paragraphs, each a list of sentences (kept apart so a one-paragraph document can be shuffled). */
  readonly paragraphs: string[][];
  readonly article?: string;
  readonly contains?: string[];
  readonly source?: number;
  readonly base?: number;
}

function distinctDoc(i: number): Doc {
  const whole = wholeArticleAt(i);
  if (whole !== undefined) {
    const a = articles[whole]!;
    return { kind: 'whole', paragraphs: a.paragraphs.map((p) => [...p]), article: a.id };
  }
  const random = rngFor(i, 2);
  const m = int(random, 6, 12);
  const target = int(random, 15, 40);
  const chosen = new Set<number>();
  while (chosen.size < Math.min(m, articles.length)) chosen.add(Math.floor(random() * articles.length));
  const runs: string[][] = [];
  const contains: string[] = [];
  let left = target;
  let k = chosen.size;
  for (const a of chosen) {
    const { sentences } = articles[a]!;
    const len = Math.max(1, Math.min(sentences.length, Math.round(left / k) + int(random, -1, 1)));
    const start = Math.floor(random() * (sentences.length - len + 1));
    runs.push(sentences.slice(start, start + len));
    if (len === sentences.length) contains.push(articles[a]!.id);
    left -= len;
    k -= 1;
  }
  for (let r = runs.length - 1; r > 0; r--) {
    const s = Math.floor(random() * (r + 1));
    [runs[r], runs[s]] = [runs[s]!, runs[r]!];
  }
  const flat = runs.flat();
  const paragraphs: string[][] = [];
  for (let s = 0; s < flat.length;) {
    const len = int(random, 1, 4);
    paragraphs.push(flat.slice(s, s + len));
    s += len;
  }
  return { kind: 'mix', paragraphs, ...(contains.length > 0 ? { contains } : {}) };
}

function editWords(paragraphs: string[][], random: () => number): string[][] {
  const words = paragraphs.map((p) => p.join(' ').split(' '));
  const total = words.reduce((s, w) => s + w.length, 0);
  const edits = Math.max(1, Math.round(total * (0.01 + random() * 0.04)));
  for (let e = 0; e < edits; e++) {
    const p = Math.floor(random() * words.length);
    const ws = words[p]!;
    const at = Math.floor(random() * ws.length);
    const op = Math.floor(random() * 3);
    const word = vocabulary[Math.floor(random() * vocabulary.length)]!;
    if (op === 0) ws[at] = word;
    else if (op === 1 && ws.length > 1) ws.splice(at, 1);
    else ws.splice(at, 0, word);
  }
  return words.map((ws) => [ws.join(' ')]);
}

function shuffled<T>(xs: readonly T[], random: () => number): T[] {
  const out = [...xs];
  if (out.length < 2) return out;
  for (;;) {
    for (let r = out.length - 1; r > 0; r--) {
      const s = Math.floor(random() * (r + 1));
      [out[r], out[s]] = [out[s]!, out[r]!];
    }
    if (out.some((x, k) => x !== xs[k])) return out;
  }
}

/** Sources of recent copies, regenerated on demand (a small cache: chains are short). */
const cache = new Map<number, Doc>();
function doc(i: number): Doc {
  const hit = cache.get(i);
  if (hit !== undefined) return hit;
  let d: Doc;
  if (!isCopy(i)) {
    d = distinctDoc(i);
  } else {
    const random = rngFor(i, 3);
    const kind = COPY_KINDS[Math.floor(i / 5) % 4]!;
    const source = Math.floor(random() * i);
    const from = doc(source);
    let paragraphs: string[][];
    if (kind === 'exact') paragraphs = from.paragraphs;
    else if (kind === 'edit') paragraphs = editWords(from.paragraphs, random);
    else if (kind === 'shuffle') {
      paragraphs = from.paragraphs.length > 1 ? shuffled(from.paragraphs, random) : [shuffled(from.paragraphs[0]!, random)];
    } else {
      const extra = shuffled(BOILERPLATE, random).slice(0, int(random, 1, 4));
      paragraphs = [...from.paragraphs, ...extra.map((b) => [b])];
    }
    d = { kind, paragraphs, source, base: from.base ?? source };
  }
  if (cache.size > 4096) cache.clear();
  cache.set(i, d);
  return d;
}

// ------------------------------------------------------------------ writing

const out = resolve(flags.out);
const labelsOut = resolve(flags.labels ?? out.replace(/\.jsonl$/u, '') + '.labels.jsonl');
const corpusFd = openSync(out, 'w');
const labelsFd = openSync(labelsOut, 'w');
const url = (i: number) => `https://corpus.example/doc/${i}`;
let corpusChunk = '';
let labelsChunk = '';
let bytes = 0;
const counts: Record<Kind, number> = { whole: 0, mix: 0, exact: 0, edit: 0, shuffle: 0, append: 0 };
for (let i = 0; i < n; i++) {
  const d = doc(i);
  counts[d.kind] += 1;
  corpusChunk += `${JSON.stringify({ url: url(i), text: d.paragraphs.map((p) => p.join(' ')).join('\n') })}\n`;
  labelsChunk += `${JSON.stringify({
    url: url(i), kind: d.kind,
    ...(d.article === undefined ? {} : { article: d.article }),
    ...(d.contains === undefined ? {} : { contains: d.contains }),
    ...(d.source === undefined ? {} : { source: url(d.source), base: url(d.base!) }),
  })}\n`;
  if (corpusChunk.length > 1 << 20 || i === n - 1) {
    bytes += writeSync(corpusFd, corpusChunk);
    writeSync(labelsFd, labelsChunk);
    corpusChunk = '';
    labelsChunk = '';
  }
}
closeSync(corpusFd);
closeSync(labelsFd);
const copies = counts.exact + counts.edit + counts.shuffle + counts.append;
process.stdout.write(`corpus: documents=${n} distinct=${n - copies} copies=${copies} whole=${counts.whole} mix=${counts.mix} `
  + `exact=${counts.exact} edit=${counts.edit} shuffle=${counts.shuffle} append=${counts.append} `
  + `mb=${(bytes / 1e6).toFixed(1)} out=${out} labels=${labelsOut}\n`);
