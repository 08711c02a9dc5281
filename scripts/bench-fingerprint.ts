/**
 * Fingerprinting benchmark (a script, not a test): the dev pages' main texts (their committed
 * copy in test/fixtures/article-benchmark-dev, or `--dataset <folder>` with a ground-truth.json), repeated to ~10 MB, fingerprinted
 * one text at a time on one core. Compares, in one run:
 *   - the full pipeline, analyzeText (normalise → tokens → language → stop words/stems → shingles
 *     → hashes → simhash), with each call memoising its own stems (the default);
 *   - the same stages composed one by one from their reference functions (tokenizeParagraphs,
 *     removeStopWordsAndStemParagraphs, fingerprintParagraphs, textHash), which analyzeText must
 *     equal (checked on every text before timing): what the one-pass path saves;
 *   - the same with a StemCache kept across calls (emptied after each pass over the distinct texts,
 *     so repeats of the same text never hit it; it serves the snowball-stemmers languages only);
 *   - the simhash alone, over feature hashes computed beforehand;
 *   - a baseline: a naive string-concatenating JS simhash (regex words, shingle strings joined,
 *     MD5 per shingle as the leading Python simhash library does, 64 counters in a loop), run in
 *     turn with the full pipeline, pass by pass, so that the ratio between them holds on a busy machine.
 * It also measures, per feature hash, how well distances separate near-duplicates (edited,
 * reordered, homoglyph copies of a page) from different pages, to choose the default hash.
 *
 * Usage: npm run bench:fingerprint [-- --mb 10 --hash rabin|murmur --dataset <dir> --quality]
 * It also times the analysis with the second stage's sketch (verify.sketchSize) beside the one without.
 * Last line: fingerprint: MB/s=<full pipeline> simhash_only_MB/s=<..> baseline_MB/s=<..>
 */
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { defaultConfig } from '../src/config.js';
import { hammingDistance } from '../src/fingerprint/fingerprint-codec.js';
import { analyzeNormalizedText } from '../src/analyze/analyze-normalized-text.js';
import { fingerprintToHex } from '../src/fingerprint/fingerprint-codec.js';
import { fingerprintParagraphs, hashFeatures } from '../src/fingerprint/fingerprint-words.js';
import { textHash } from '../src/fingerprint/text-hash.js';
import { simhashFromHashes } from '../src/fingerprint/simhash.js';
import { analyzeText, fingerprintParamsFrom } from '../src/analyze/analyze-text.js';
import { detectLanguage } from '../src/text/detect-language.js';
import { normalizeText } from '../src/text/normalize-text.js';
import { removeStopWordsAndStemParagraphs } from '../src/text/remove-stop-words-and-stem.js';
import { StemCache } from '../src/text/stem-cache.js';
import { tokenTable } from '../src/text/token-table.js';
import { tokenizeParagraphs } from '../src/text/tokenize.js';
import { loadDevTruth } from '../test/helpers/dev-texts.js';
import type { FingerprintParams, HashName } from '../src/types.js';
import { lcgRandom } from '../test/helpers/seeded-random.js';

const { values: args } = parseArgs({
  options: {
    mb: { type: 'string', default: '10' },
    hash: { type: 'string' },
    /** Only the quality figures (separation, bit bias): no speed runs. */
    quality: { type: 'boolean', default: false },
    /** A folder holding the data set's ground-truth.json. @default the committed copy in test/fixtures */
    dataset: { type: 'string' },
  },
});

const targetBytes = Number(args.mb) * 1e6;
const truth = loadDevTruth(args.dataset);
const distinct = Object.values(truth).map((t) => t.articleBody).filter((t) => t.trim() !== '');
const distinctBytes = distinct.reduce((sum, t) => sum + Buffer.byteLength(t), 0);
const passes = Math.max(1, Math.round(targetBytes / distinctBytes));
const totalBytes = distinctBytes * passes;
const MB = totalBytes / 1e6;

const baseParams = fingerprintParamsFrom(defaultConfig().fingerprint);
const defaultHash = (args.hash ?? baseParams.hash) as HashName;

// A full collection before every timed pass, so that no path pays for another's garbage
// (the baseline makes a lot of it).
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

function time(run: () => void): number {
  collectGarbage();
  const start = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/**
 * Runs `perText` over every text, `passes` times; MB/s of the fastest pass scaled to the whole run.
 * The machine is shared, so the fastest of many short passes is the steadiest figure of what one
 * core does (every path is measured the same way, so ratios between them hold).
 */
function throughput(perText: (text: string, index: number) => void, onPass?: () => void, rounds = 1): number {
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    for (let p = 0; p < passes; p++) {
      onPass?.();
      const seconds = time(() => {
        for (let i = 0; i < distinct.length; i++) perText(distinct[i]!, i);
      });
      best = Math.min(best, seconds);
    }
  }
  return distinctBytes / 1e6 / best;
}

// ---------------------------------------------------------------- baseline

function naiveSimhash(text: string): string {
  const words = text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');
  const counters = new Array<number>(64).fill(0);
  for (let i = 0; i + 3 <= words.length; i++) {
    const feature = words[i] + ' ' + words[i + 1] + ' ' + words[i + 2];
    const digest = createHash('md5').update(feature).digest();
    let bits = BigInt('0x' + digest.subarray(0, 8).toString('hex'));
    for (let b = 0; b < 64; b++) {
      counters[b] += (bits & 1n) === 1n ? 1 : -1;
      bits >>= 1n;
    }
  }
  return counters.map((c) => (c > 0 ? '1' : '0')).join('');
}

// ---------------------------------------------------------------- separation

/** Near-duplicate variants of a text: a few words edited, paragraphs reordered, look-alike letters. */
function variants(text: string, seed: number): string[] {
  const rand = lcgRandom(seed);
  const words = text.split(/(\s+)/);
  const edit = (fraction: number) =>
    words.map((w) => (w.trim() !== '' && rand() < fraction ? `x${Math.floor(rand() * 1e6)}` : w)).join('');
  const paragraphs = text.split(/\n\s*\n/);
  const swapped = paragraphs.length > 2 ? [paragraphs[1], paragraphs[0], ...paragraphs.slice(2)].join('\n\n') : text;
  const homoglyph = text.replace(/[aeopc]/g, (ch) => (rand() < 0.5 ? ({ a: 'а', e: 'е', o: 'о', p: 'р', c: 'с' } as Record<string, string>)[ch]! : ch));
  return [edit(0.01), edit(0.03), swapped, homoglyph];
}

/**
 * How far the fingerprints' bits are from fair coins, over the dev pages (whole texts) and over
 * short texts (the first 1–2 words of each page, which are fingerprinted from single words):
 * the largest |share of ones − 0.5| over the 64 bits.
 */
function bitBias(params: FingerprintParams): { pages: number; shortTexts: number } {
  const bias = (texts: readonly string[]) => {
    const ones = new Array<number>(64).fill(0);
    let n = 0;
    for (const text of texts) {
      const fp = analyzeText(text, params).fingerprint;
      if (fp === null) continue;
      n++;
      for (let b = 0; b < 32; b++) {
        ones[b]! += (fp.lo >>> b) & 1;
        ones[32 + b]! += (fp.hi >>> b) & 1;
      }
    }
    return Math.max(...ones.map((o) => Math.abs(o / n - 0.5)));
  };
  const shortTexts = distinct.flatMap((t) => {
    const words = t.split(/\s+/).filter((w) => /\p{L}{3,}/u.test(w));
    return [words.slice(0, 1).join(' '), words.slice(1, 3).join(' '), words.slice(5, 6).join(' ')];
  });
  return { pages: bias(distinct), shortTexts: bias(shortTexts) };
}

function separation(params: FingerprintParams): { dupWithinK: number; nonDupWithinK: number; dupMean: number; nonDupMean: number; nonDupMin: number } {
  const long = distinct.filter((t) => t.length >= 1000);
  const prints = long.map((t) => analyzeText(t, params).fingerprint!);
  let dupWithin = 0;
  let dupTotal = 0;
  let dupSum = 0;
  long.forEach((text, i) => {
    for (const v of variants(text, i + 1)) {
      const fp = analyzeText(v, params).fingerprint!;
      const d = hammingDistance(prints[i]!, fp);
      dupSum += d;
      dupTotal++;
      if (d <= params.distance) dupWithin++;
    }
  });
  let nonWithin = 0;
  let nonTotal = 0;
  let nonSum = 0;
  let nonMin = 64;
  for (let i = 0; i < prints.length; i++) {
    for (let j = i + 1; j < prints.length; j++) {
      const d = hammingDistance(prints[i]!, prints[j]!);
      nonSum += d;
      nonTotal++;
      nonMin = Math.min(nonMin, d);
      if (d <= params.distance) nonWithin++;
    }
  }
  return { dupWithinK: dupWithin / dupTotal, nonDupWithinK: nonWithin / nonTotal, dupMean: dupSum / dupTotal, nonDupMean: nonSum / nonTotal, nonDupMin: nonMin };
}

// ---------------------------------------------------------------- run

console.log(`texts: ${distinct.length} distinct, ${(distinctBytes / 1e6).toFixed(2)} MB, ×${passes} passes = ${MB.toFixed(2)} MB (UTF-8)`);

for (const hash of ['rabin', 'murmur'] as const) {
  const s = separation({ ...baseParams, hash });
  console.log(
    `separation hash=${hash} k=${baseParams.distance}: near-duplicates within k ${(100 * s.dupWithinK).toFixed(1)}% (mean distance ${s.dupMean.toFixed(2)}), ` +
      `different pages within k ${(100 * s.nonDupWithinK).toFixed(2)}% (mean ${s.nonDupMean.toFixed(2)}, min ${s.nonDupMin})`,
  );
  const bias = bitBias({ ...baseParams, hash });
  console.log(`bit bias hash=${hash}: max |P(bit=1) − 0.5| pages ${bias.pages.toFixed(3)}, one-or-two-word texts ${bias.shortTexts.toFixed(3)}`);
}


if (args.quality) process.exit(0);

// Warm-up: one untimed pass of each path, so that the JIT has compiled the hot loops.
for (const t of distinct) {
  analyzeText(t, { ...baseParams, hash: 'rabin' });
  analyzeText(t, { ...baseParams, hash: 'murmur' });
  naiveSimhash(t);
}

/** The pipeline composed from the reference stages, one by one (what analyzeText must equal). */
function composedStages(text: string, params: FingerprintParams): string {
  const normalized = normalizeText(text);
  const paragraphs = tokenizeParagraphs(normalized);
  const tokens = paragraphs.flat();
  const language = tokens.length === 0 ? 'und' : detectLanguage(normalized);
  const words = removeStopWordsAndStemParagraphs(paragraphs, language);
  const { fingerprint, featureCount } = fingerprintParagraphs(words, params);
  return `${fingerprint === null ? 'null' : fingerprintToHex(fingerprint)} ${textHash(tokens)} ${language} ${tokens.length} ${featureCount}`;
}

for (const hash of ['rabin', 'murmur'] as const) {
  const params: FingerprintParams = { ...baseParams, hash };
  for (const t of distinct) {
    const a = analyzeText(t, params);
    const fast = `${a.fingerprint === null ? 'null' : fingerprintToHex(a.fingerprint)} ${a.textHash} ${a.language} ${a.tokenCount} ${a.featureCount}`;
    if (fast !== composedStages(t, params)) throw new Error(`analyzeText differs from the composed stages (hash=${hash}): ${fast} vs ${composedStages(t, params)}`);
  }
}
console.log('check: analyzeText equals the composed reference stages on every text (rabin and murmur)');

const stages = (() => {
  const out: Record<string, number> = {};
  const params: FingerprintParams = { ...baseParams, hash: defaultHash };
  out.normalize = throughput((t) => normalizeText(t));
  const normalized = distinct.map((t) => normalizeText(t));
  out.tokens = throughput((_t, i) => tokenTable(normalized[i]!));
  out.language = throughput((_t, i) => detectLanguage(normalized[i]!));
  out.after_normalize = throughput((_t, i) => analyzeNormalizedText(normalized[i]!, params));
  out.composed_reference_stages = throughput((t) => composedStages(t, params));
  return out;
})();
console.log(`stages (MB/s of input text, hash=${defaultHash}): ${Object.entries(stages).map(([k, v]) => `${k}=${v.toFixed(1)}`).join(' ')}`);

/**
 * The headline paths run pass by pass in turn (baseline, rabin, murmur, ...), so that load from
 * other processes hits them alike; each path's figure is its fastest pass, and each ratio is the
 * median over passes of (baseline pass time / path pass time).
 */
function interleaved(paths: Record<string, (text: string) => void>): { best: Record<string, number>; ratio: Record<string, number>; cpuRatio: Record<string, number> } {
  const names = Object.keys(paths);
  const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const cpu: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let p = 0; p < passes; p++) {
    for (const name of names) {
      const run = paths[name]!;
      const before = process.cpuUsage();
      times[name]!.push(time(() => { for (const text of distinct) run(text); }));
      const used = process.cpuUsage(before);
      cpu[name]!.push((used.user + used.system) / 1e6);
    }
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  const best = Object.fromEntries(names.map((n) => [n, distinctBytes / 1e6 / Math.min(...times[n]!)]));
  const ratio = Object.fromEntries(names.map((n) => [n, median(times.baseline!.map((t, i) => t / times[n]![i]!))]));
  // The same ratios from CPU time (on a loaded machine a pass's wall time also counts waiting for a core).
  const cpuRatio = Object.fromEntries(names.map((n) => [n, median(cpu.baseline!.map((t, i) => t / cpu[n]![i]!))]));
  return { best, ratio, cpuRatio };
}

const results: Record<string, { full: number; ratio: number; cached: number; simhashOnly: number; features: number }> = {};
let cacheRabin = new StemCache();
let cacheMurmur = new StemCache();
const sketchOptions = { sketchSize: defaultConfig().verify.sketchSize };
const headline = interleaved({
  baseline: (t) => naiveSimhash(t),
  rabin: (t) => analyzeText(t, { ...baseParams, hash: 'rabin' }),
  murmur: (t) => analyzeText(t, { ...baseParams, hash: 'murmur' }),
  // The analysis the pipeline runs with the second stage on: the same plus the feature-set sketch.
  // (the options built once: defaultConfig() reads and checks config/default.json on every call)
  [`${defaultHash}_with_sketch`]: (t) => analyzeText(t, { ...baseParams, hash: defaultHash }, sketchOptions),
});
for (const hash of ['rabin', 'murmur'] as const) {
  const params: FingerprintParams = { ...baseParams, hash };
  const cached = hash === 'rabin'
    ? throughput((t) => analyzeText(t, params, { stemCache: cacheRabin }), () => { cacheRabin = new StemCache(); })
    : throughput((t) => analyzeText(t, params, { stemCache: cacheMurmur }), () => { cacheMurmur = new StemCache(); });
  const words = distinct.map((t) => {
    const normalized = normalizeText(t);
    return removeStopWordsAndStemParagraphs(tokenizeParagraphs(normalized), detectLanguage(normalized));
  });
  const features = throughput((_t, i) => hashFeatures(words[i]!, params.shingleSize, hash));
  const hashed = words.map((w) => hashFeatures(w, params.shingleSize, hash));
  const simhashOnly = throughput((_t, i) => simhashFromHashes(hashed[i]!.hi, hashed[i]!.lo, hashed[i]!.hi.length, params.weighting));
  results[hash] = { full: headline.best[hash]!, ratio: headline.ratio[hash]!, cached, simhashOnly, features };
  console.log(
    `hash=${hash}: full_MB/s=${headline.best[hash]!.toFixed(1)} (×${headline.ratio[hash]!.toFixed(1)} baseline, median of passes) `
      + `full_with_stem_cache_MB/s=${cached.toFixed(1)} feature_hashing_MB/s=${features.toFixed(1)} simhash_only_MB/s=${simhashOnly.toFixed(1)}`,
  );
}

const withSketch = `${defaultHash}_with_sketch`;
console.log(`sketch (verify.sketchSize=${defaultConfig().verify.sketchSize}): full_with_sketch_MB/s=${headline.best[withSketch]!.toFixed(1)} `
  + `(×${(headline.ratio[withSketch]! / headline.ratio[defaultHash]!).toFixed(3)} of the path without it, median of interleaved passes; `
  + `×${(headline.cpuRatio[withSketch]! / headline.cpuRatio[defaultHash]!).toFixed(3)} in CPU time)`);
const baseline = headline.best.baseline!;
console.log(`baseline (naive JS, MD5 per shingle string): ${baseline.toFixed(1)} MB/s`);

const chosen = results[defaultHash]!;
console.log(`ratios vs baseline (hash=${defaultHash}): full=${chosen.ratio.toFixed(1)}× (median of interleaved passes; best-pass ratio ${(chosen.full / baseline).toFixed(1)}×) with_stem_cache=${(chosen.cached / baseline).toFixed(1)}× simhash_only=${(chosen.simhashOnly / baseline).toFixed(1)}×`);
console.log(`fingerprint: MB/s=${chosen.full.toFixed(1)} simhash_only_MB/s=${chosen.simhashOnly.toFixed(1)} baseline_MB/s=${baseline.toFixed(1)}`);
