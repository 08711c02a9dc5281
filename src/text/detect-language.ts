/**
 * Language detection: franc-min (./franc-min.ts) on a bounded sample, plus Catalan (which
 * franc-min, limited to languages with 8M+ speakers, lacks) and a check of Russian against the
 * Cyrillic languages franc-min mistakes it for on short samples.
 */
import stopwordsIso from 'stopwords-iso' with { type: 'json' };
import { francMin, francMinMargin } from './franc-min.js';
import { tokenString, type TokenTable } from './token-table.js';
import { tokenize } from './tokenize.js';

export { francMin, francMinMargin };

export interface DetectLanguageOptions {
  /** Characters of the token sample (tokens joined by one space) that are examined (bounded for speed). @default 256 */
  readonly maxChars?: number;
  /** Texts shorter than this (after slicing) are 'und', as in franc. @default 10 */
  readonly minLength?: number;
}

// ---------------------------------------------------------------- refinements

/**
 * Languages franc-min confuses with a language we handle: Catalan (absent from franc-min) is read
 * as another Romance language, and short Russian samples often as Bulgarian or Ukrainian.
 * target → { language franc may report → that language's stopwords-iso code }
 */
const CONFUSIONS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  cat: { spa: 'es', por: 'pt', ita: 'it', fra: 'fr', ron: 'ro' },
  rus: { bul: 'bg', ukr: 'uk' },
};
const TARGET_CODES: Readonly<Record<string, string>> = { cat: 'ca', rus: 'ru' };

function stopSet(code: string): Set<string> {
  const words = (stopwordsIso as Record<string, string[]>)[code] ?? [];
  return new Set(words.filter((w) => tokenize(w).length === 1 && tokenize(w)[0] === w));
}

type Evidence = readonly [target: string, targetOnly: ReadonlySet<string>, otherOnly: ReadonlySet<string>];

/**
 * franc's answer → [target, target-only stop words, answer-only stop words], built on the first
 * answer that needs it (an English text never does). At most one entry per language of
 * CONFUSIONS, each immutable once built.
 */
const EVIDENCE = new Map<string, Evidence>();

function evidenceFor(lang: string): Evidence | undefined {
  let evidence = EVIDENCE.get(lang);
  if (evidence !== undefined) return evidence;
  for (const [target, confusions] of Object.entries(CONFUSIONS)) {
    const code = Object.hasOwn(confusions, lang) ? confusions[lang] : undefined;
    if (code === undefined) continue;
    const own = stopSet(TARGET_CODES[target]!);
    const other = stopSet(code);
    evidence = [target, new Set([...own].filter((w) => !other.has(w))), new Set([...other].filter((w) => !own.has(w)))];
    EVIDENCE.set(lang, evidence);
    return evidence;
  }
  return undefined;
}

/**
 * The target language against the one franc chose: whichever has more of its own stop words (the
 * ones the other's stopwords-iso list lacks) among the sample's words.
 */
function refine(lang: string, sample: string): string {
  const evidence = evidenceFor(lang);
  if (evidence === undefined) return lang;
  const [target, targetOnly, otherOnly] = evidence;
  let forTarget = 0;
  let forOther = 0;
  for (const token of tokenize(sample.toLowerCase())) {
    if (targetOnly.has(token)) forTarget++;
    else if (otherOnly.has(token)) forOther++;
  }
  return forTarget > forOther ? target : lang;
}

/**
 * The sample language detection reads: the tokens joined by one space, up to `maxChars` characters
 * (a token cut at the limit is cut, not dropped). It depends on the token sequence alone, so texts
 * that differ only in spacing, punctuation, case or line breaks give the same sample — and so the
 * same language, stop words, stems and fingerprint (the normaliser's invariant).
 */
export function languageSample(tokens: ArrayLike<string>, maxChars = 256): string {
  let sample = '';
  for (let i = 0; i < tokens.length && sample.length < maxChars; i++) sample += i === 0 ? tokens[i]! : ` ${tokens[i]!}`;
  if (sample.length > maxChars) sample = sample.slice(0, maxChars);
  // Never end the sample on half a surrogate pair.
  const last = sample.charCodeAt(sample.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) sample = sample.slice(0, -1);
  return sample;
}

/**
 * ISO 639-3 code of the language of a token sequence ('und' when unknown or too short): franc-min on
 * languageSample(tokens), with Catalan told apart from Spanish, Portuguese, Italian, French and
 * Romanian, and Russian from Bulgarian and Ukrainian, by distinctive stop words.
 */
export function detectTokenLanguage(tokens: ArrayLike<string>, options: DetectLanguageOptions = {}): string {
  const sample = languageSample(tokens, options.maxChars ?? 256);
  return refine(francMin(sample, options.minLength ?? 10), sample);
}

/**
 * A sample spread over the whole text, which reordering cannot change: short runs of running text
 * (an anchor token and the next SAMPLE_WINDOW − 1 tokens of its paragraph) at the anchors whose token
 * hash (FNV-1a of the token's characters, unseeded) is smallest, ordered by
 * the hashes of their tokens, joined until `maxChars` characters. A run never crosses a paragraph
 * end, so the runs, and their order, are the same whatever the order of the paragraphs; an appended
 * block or an edit changes the sample only by the share of anchors it brings. Runs of running text,
 * not distinct words, because franc's trigram models are built on running text (frequent words
 * weigh): a bag of distinct words read English pages of dragnet-train as French 30 times in 966.
 * Issue 25: the first 256 characters flipped the language of 54 in 4,000 shuffled or appended
 * copies of multilingual documents, and with it their stop words and stems.
 *
 * Cost: one pass over the token positions, then a sort of the few anchors below a threshold (hashes
 * are uniform, so the m smallest of n lie below ~m/n · 2³²; the threshold doubles when too few do).
 */
export function spreadTokenSample(table: TokenTable, maxChars = 256): string[] {
  const { count, ids, spans, paragraphEnds, distinct, text } = table;
  // A fixed hash of each distinct token (the table's own span hash is seeded per thread, and the
  // sample must be the same in every thread and run).
  const tokenHash = new Uint32Array(distinct);
  for (let id = 0; id < distinct; id++) {
    let h = 0x811c9dc5;
    for (let i = spans[id * 3]!, end = spans[id * 3 + 1]!; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    tokenHash[id] = (h ^ (h >>> 12)) >>> 0;
  }
  const hashOf = (position: number) => tokenHash[ids[position]!]!;
  const want = Math.ceil(maxChars / (3 * SAMPLE_WINDOW)) + 4;
  let threshold = count <= 2 * want ? TWO_32 : Math.ceil((2 * want / count) * TWO_32);
  const anchors: number[] = [];
  const ends: number[] = [];
  for (;;) {
    anchors.length = 0;
    ends.length = 0;
    let paragraph = 0;
    for (let k = 0; k < count; k++) {
      while (paragraphEnds[paragraph]! <= k) paragraph++;
      if (hashOf(k) < threshold) {
        anchors.push(k);
        ends.push(Math.min(paragraphEnds[paragraph]!, k + SAMPLE_WINDOW));
      }
    }
    const order = anchorOrder(table, tokenHash, anchors, ends);
    const out: string[] = [];
    let chars = 0;
    for (let a = 0; a < order.length && chars < maxChars; a++) {
      for (let k = anchors[order[a]!]!; k < ends[order[a]!]!; k++) {
        const token = tokenString(table, ids[k]!);
        out.push(token);
        chars += token.length + 1;
      }
    }
    if (chars >= maxChars || threshold >= TWO_32) return out;
    threshold = Math.min(TWO_32, 2 * threshold);
  }
}

/**
 * The anchors' runs in spreadTokenSample's order: by the hashes of their tokens, position by position
 * (a hash collision by the tokens' characters), a shorter run before its extensions, equal runs in
 * anchor order (a stable sort). Sorted first natively on (first token's hash, anchor index) packed in
 * one exact double — the first position decides almost every comparison — then only the runs of
 * anchors sharing a first hash by the full comparison, which gives the same order as the full
 * comparison sort of the whole list (its first key is that hash, and both sorts are stable).
 */
function anchorOrder(table: TokenTable, tokenHash: Uint32Array, anchors: readonly number[], ends: readonly number[]): number[] {
  const { ids } = table;
  const hashOf = (position: number) => tokenHash[ids[position]!]!;
  const n = anchors.length;
  const compare = (x: number, y: number): number => {
    const px = anchors[x]!;
    const py = anchors[y]!;
    const lx = ends[x]! - px;
    const ly = ends[y]! - py;
    for (let j = 0; j < lx && j < ly; j++) {
      const d = hashOf(px + j) - hashOf(py + j);
      if (d !== 0) return d;
      const ix = ids[px + j]!;
      const iy = ids[py + j]!;
      if (ix !== iy) return tokenString(table, ix) < tokenString(table, iy) ? -1 : 1; // a hash collision: by the characters
    }
    return lx - ly;
  };
  if (n >= ANCHOR_SLOTS) return anchors.map((_, a) => a).sort(compare);
  const keys = new Float64Array(n);
  for (let a = 0; a < n; a++) keys[a] = hashOf(anchors[a]!) * ANCHOR_SLOTS + a; // < 2^52: exact
  keys.sort();
  const order = Array.from(keys, (key) => key % ANCHOR_SLOTS);
  for (let from = 0; from < n;) {
    const first = Math.floor(keys[from]! / ANCHOR_SLOTS);
    let to = from + 1;
    while (to < n && Math.floor(keys[to]! / ANCHOR_SLOTS) === first) to++;
    if (to - from > 1) {
      const run = order.slice(from, to).sort(compare);
      for (let i = 0; i < run.length; i++) order[from + i] = run[i]!;
    }
    from = to;
  }
  return order;
}

/** Anchor indices packed below a token hash in anchorOrder's keys (more anchors: the full comparison sort alone). */
const ANCHOR_SLOTS = 2 ** 20;

/** Tokens of running text per anchor in spreadTokenSample. */
const SAMPLE_WINDOW = 4;
const TWO_32 = 2 ** 32;

/**
 * Characters of a document's spread sample. Measured on issue 25's corpus (3,000 edited, shuffled or
 * appended copies of documents mixing 6–12 articles, several languages): copies whose language
 * differed from their base's at 256 / 512 / 1,024 / 2,048 characters: 32 / 12 / 7 / 3, at 0.079 /
 * 0.106 / 0.185 / 0.328 ms a document (sample and franc). 512: most of the gain for a third more time.
 */
const DOCUMENT_SAMPLE_CHARS = 512;
/**
 * A margin below which detectDocumentLanguage decides again on a 4× sample. On issue 25's corpus
 * (3,000 edited, shuffled or appended copies of multilingual documents; language differing from the
 * base's / ms a document for sample and franc): never 12 / 0.111–0.123; below 0.01 13 / 0.119; 0.02
 * 5 / 0.126; 0.03 4 / 0.137; 0.05 3 / 0.188; 0.1 3 / 0.420. A clear text (one language) never rechecks.
 */
const RECHECK_BELOW = 0.03;

/**
 * The language of a whole document (the analysis's): detectTokenLanguage of spreadTokenSample(table)
 * (512 characters unless `maxChars` says otherwise),
 * so that a shuffle of its paragraphs, an appended block or a moved first paragraph keeps it.
 */
export function detectDocumentLanguage(table: TokenTable, options: DocumentLanguageOptions = {}): string {
  if (table.count === 0) return 'und';
  const maxChars = options.maxChars ?? DOCUMENT_SAMPLE_CHARS;
  const minLength = options.minLength ?? 10;
  let sample = languageSample(spreadTokenSample(table, maxChars), maxChars);
  let { language, margin } = francMinMargin(sample, minLength);
  // A close call (a document of several languages or scripts): decide on a sample four times larger,
  // where a few words more or less (an edit, an appended block) move the scores far less.
  if (margin < (options.recheckBelow ?? RECHECK_BELOW) && table.count > 0) {
    const wider = languageSample(spreadTokenSample(table, 4 * maxChars), 4 * maxChars);
    if (wider.length > sample.length) {
      sample = wider;
      language = francMin(sample, minLength);
    }
  }
  return refine(SAME_ANALYSIS[language] ?? language, sample);
}

/**
 * Languages a document is analysed as another's: franc-min tells Standard Malay from Indonesian by a
 * hair on most texts (the dev set's two Indonesian pages flipped between them with the sample), and
 * a flip changed every stop word and so every feature of a copy. Both are analysed as Indonesian.
 */
const SAME_ANALYSIS: Readonly<Record<string, string>> = { zlm: 'ind' };

/** Options of detectDocumentLanguage. */
export interface DocumentLanguageOptions extends DetectLanguageOptions {
  /** A margin (francMinMargin) below this decides again on a sample four times larger. @default RECHECK_BELOW */
  readonly recheckBelow?: number;
}

/**
 * The language of a text's beginning (search results' snippets: filter/), decided from its leading
 * tokens (detectTokenLanguage of tokenize(text)), never from
 * its characters: extra spaces or commas do not change the answer.
 */
export function detectLanguage(text: string, options: DetectLanguageOptions = {}): string {
  return detectTokenLanguage(leadingTokensOf(text, options.maxChars ?? 256), options);
}

/**
 * Enough of the text's first tokens for languageSample(…, maxChars): tokenises growing prefixes
 * rather than the whole text (a prefix's last token may be cut, so it is dropped unless the prefix
 * is the whole text).
 */
function leadingTokensOf(text: string, maxChars: number): string[] {
  for (let length = 4 * maxChars + 64; ; length *= 4) {
    if (length >= text.length) return tokenize(text);
    const tokens = tokenize(text.slice(0, length));
    tokens.pop();
    let chars = 0;
    for (const token of tokens) chars += token.length + 1;
    if (chars > maxChars) return tokens;
  }
}
