/**
 * Measures the choices of the second stage (issue 11) on a labelled pairs file (`npm run make:pairs`):
 *
 *   npx tsx scripts/measure-second-stage.ts --pairs /tmp/neardup-pairs/pairs.tsv
 *
 * 1. Sketch accuracy vs bytes and speed: bottom-k (shingle-sketch.ts) at several sizes, beside
 *    one-permutation b-bit MinHash (densified), against the exact Jaccard and containment of each
 *    pair's feature sets.
 * 2. Candidate generation: which positive pairs each way of finding candidates reaches
 *    (query multi-probe over the k = 3 table's lookup, sharing an exact 16-bit block, sharing one of
 *    the sketches' smallest values), by kind.
 * 3. The decision: for each K and sketch size, the Jaccard / containment thresholds, recall and the
 *    margin to the closest negative, per kind.
 * 4. A grid over sketch size, candidate keys, K and thresholds: the most recall with no negative merged.
 * 5. Lookup cost at 1M random documents: the k = 3 block table, 65-probe multi-probing of it, and
 *    the sketch-key table (µs and candidates per lookup, bytes per document).
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultConfig } from '../src/config.js';
import { loadPairDocuments } from '../src/eval/load-pair-documents.js';
import { parsePairs } from '../src/eval/parse-pairs.js';
import { hammingDistance } from '../src/fingerprint/fingerprint-codec.js';
import { hashFeatures } from '../src/fingerprint/fingerprint-words.js';
import { fmix32 } from '../src/fingerprint/murmur-hash.js';
import { shingleSketch, sketchValue } from '../src/fingerprint/shingle-sketch.js';
import { sketchSimilarity } from '../src/fingerprint/sketch-similarity.js';
import { verifySimilar } from '../src/fingerprint/verify-similar.js';
import { simhashFromHashes } from '../src/fingerprint/simhash.js';
import { analyzePage } from '../src/analyze/analyze-page.js';
import { detectTokenLanguage } from '../src/text/detect-language.js';
import { normalizeText } from '../src/text/normalize-text.js';
import { removeStopWordsAndStemParagraphs } from '../src/text/remove-stop-words-and-stem.js';
import { StemCache } from '../src/text/stem-cache.js';
import { tokenizeParagraphs } from '../src/text/tokenize.js';
import type { Fingerprint } from '../src/types.js';
import { blockLayout } from '../src/fingerprint-index/block-layout.js';
import { IdList } from '../src/fingerprint-index/id-list.js';
import { PairedBlockTable } from '../src/fingerprint-index/paired-block-table.js';
import { SketchKeyTable } from '../src/fingerprint-index/sketch-key-table.js';
import { seededRandom } from '../test/helpers/seeded-random.js';

const { values: flags } = parseArgs({ options: { pairs: { type: 'string', default: '/tmp/neardup-pairs/pairs.tsv' } } });
const pairsFile = resolve(flags.pairs);
const config = defaultConfig();

interface Doc {
  readonly fingerprint: Fingerprint | null;
  readonly textHash: string;
  readonly hi: Uint32Array;
  readonly lo: Uint32Array;
  readonly set: Set<string>;
}

async function loadDocs(): Promise<{ docs: Map<string, Doc>; pairs: ReturnType<typeof parsePairs> }> {
  const pairs = parsePairs(readFileSync(pairsFile, 'utf8'), pairsFile);
  const inputs = await loadPairDocuments(pairs.flatMap((p) => [p.a, p.b]), dirname(pairsFile), config.crawl.maxPageBytes);
  const docs = new Map<string, Doc>();
  const stemCache = new StemCache();
  let mismatches = 0;
  for (const [ref, input] of inputs) {
    const analysed = analyzePage(input, config, { stemCache });
    const text = analysed.page?.text ?? analysed.text;
    const paragraphs = tokenizeParagraphs(normalizeText(text));
    const language = detectTokenLanguage(paragraphs.flat());
    const words = removeStopWordsAndStemParagraphs(paragraphs, language, {});
    const { hi, lo } = hashFeatures(words, config.fingerprint.shingleSize, config.fingerprint.hash);
    const fp = simhashFromHashes(hi, lo, hi.length, config.fingerprint.weighting);
    const ok = analysed.analysis !== null && analysed.skip === null;
    if (ok && (fp === null || analysed.analysis!.fingerprint === null || hammingDistance(fp, analysed.analysis!.fingerprint) !== 0)) mismatches++;
    const set = new Set<string>();
    for (let i = 0; i < hi.length; i++) set.add(`${hi[i]}:${lo[i]}`);
    docs.set(ref, { fingerprint: ok ? analysed.analysis!.fingerprint : null, textHash: analysed.analysis?.textHash ?? '', hi, lo, set });
  }
  process.stdout.write(`documents: ${docs.size}, reference features vs analysis fingerprint mismatches: ${mismatches}\n`);
  return { docs, pairs };
}

function exact(a: Doc, b: Doc): { jaccard: number; containment: number } {
  let both = 0;
  for (const x of a.set) if (b.set.has(x)) both++;
  const union = a.set.size + b.set.size - both;
  const containment = Math.max(a.set.size === 0 ? 0 : both / a.set.size, b.set.size === 0 ? 0 : both / b.set.size);
  return { jaccard: union === 0 ? 0 : both / union, containment };
}

/** One-permutation MinHash with `bins` bins, densified by rotation, keeping `bits` low bits. */
function ophSketch(doc: Doc, bins: number, bits: number): Uint32Array {
  const shift = 32 - Math.log2(bins);
  const mins = new Uint32Array(bins).fill(0xffffffff);
  const filled = new Uint8Array(bins);
  for (let i = 0; i < doc.hi.length; i++) {
    const v = sketchValue(doc.hi[i]!, doc.lo[i]!);
    const bin = v >>> shift;
    const w = fmix32((v ^ 0x27d4eb2f) >>> 0);
    if (w <= mins[bin]!) mins[bin] = w;
    filled[bin] = 1;
  }
  const out = new Uint32Array(bins);
  for (let b = 0; b < bins; b++) {
    let src = b;
    for (let attempt = 1; filled[src] === 0 && attempt < 4 * bins; attempt++) src = fmix32((b * 0x9e3779b1 + attempt) >>> 0) & (bins - 1);
    out[b] = filled[src] === 0 ? 0 : (mins[src]! + src * 0) & (bits === 32 ? 0xffffffff : (1 << bits) - 1);
  }
  return out;
}

function ophJaccard(a: Uint32Array, b: Uint32Array, bits: number): number {
  let same = 0;
  for (let i = 0; i < a.length; i++) if (a[i] === b[i]) same++;
  const p = same / a.length;
  const c = bits >= 32 ? 0 : 2 ** -bits;
  return Math.max(0, (p - c) / (1 - c));
}

function rmse(errors: number[]): number {
  return Math.sqrt(errors.reduce((s, e) => s + e * e, 0) / Math.max(1, errors.length));
}

function timeIt(run: () => void): number {
  const start = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const { docs, pairs } = await loadDocs();
const docList = [...docs.values()];
const totalFeatures = docList.reduce((s, d) => s + d.hi.length, 0);
const measured = pairs.map((p) => {
  const a = docs.get(p.a)!;
  const b = docs.get(p.b)!;
  const distance = a.fingerprint === null || b.fingerprint === null ? null : a.textHash === b.textHash ? 0 : hammingDistance(a.fingerprint, b.fingerprint);
  return { ...p, a: p.a, b: p.b, docA: a, docB: b, distance, exact: exact(a, b) };
});

// ------------------------------------------------------------------ 1. sketch accuracy
process.stdout.write('\n1. sketch accuracy (RMSE vs exact over all pairs) and speed\n');
process.stdout.write('sketch                 bytes/doc  jaccard-rmse  containment-rmse  ms/1M-features\n');
for (const size of [16, 32, 64, 128, 256]) {
  const sketches = new Map<Doc, Uint32Array>();
  const ms = timeIt(() => { for (let r = 0; r < 5; r++) for (const d of docList) sketches.set(d, shingleSketch(d.hi, d.lo, d.hi.length, size)); }) / 5;
  const jErr: number[] = [];
  const cErr: number[] = [];
  for (const m of measured) {
    const s = sketchSimilarity(sketches.get(m.docA)!, sketches.get(m.docB)!, size);
    jErr.push(s.jaccard - m.exact.jaccard);
    cErr.push(s.containment - m.exact.containment);
  }
  process.stdout.write(`bottom-k k=${String(size).padEnd(10)} ${String(4 * size).padStart(9)}  ${rmse(jErr).toFixed(4).padStart(12)}  ${rmse(cErr).toFixed(4).padStart(16)}  ${(ms / totalFeatures * 1e6).toFixed(1).padStart(14)}\n`);
}
for (const [bins, bits] of [[64, 8], [128, 8], [256, 8], [64, 16], [128, 16], [64, 32]] as const) {
  const sketches = new Map<Doc, Uint32Array>();
  const ms = timeIt(() => { for (let r = 0; r < 5; r++) for (const d of docList) sketches.set(d, ophSketch(d, bins, bits)); }) / 5;
  const jErr = measured.map((m) => ophJaccard(sketches.get(m.docA)!, sketches.get(m.docB)!, bits) - m.exact.jaccard);
  process.stdout.write(`oph b=${String(bits).padEnd(2)} bins=${String(bins).padEnd(6)} ${String(bins * bits / 8).padStart(9)}  ${rmse(jErr).toFixed(4).padStart(12)}  ${'(none)'.padStart(16)}  ${(ms / totalFeatures * 1e6).toFixed(1).padStart(14)}\n`);
}

// ------------------------------------------------------------------ 2. candidate generation
/** Pairs sharing an exact 16-bit block of the fingerprint. */
function shareBlock(a: Fingerprint, b: Fingerprint): boolean {
  return (a.hi >>> 16) === (b.hi >>> 16) || (a.hi & 0xffff) === (b.hi & 0xffff) || (a.lo >>> 16) === (b.lo >>> 16) || (a.lo & 0xffff) === (b.lo & 0xffff);
}
/** Sharing at least `need` of the `m` smallest sketch values (m key tables). */
function shareMin(a: Uint32Array, b: Uint32Array, m: number, need = 1): boolean {
  let shared = 0;
  for (let i = 0; i < Math.min(m, a.length); i++) for (let j = 0; j < Math.min(m, b.length); j++) if (a[i] === b[j]) shared++;
  return shared >= need;
}
const kinds = [...new Set(measured.map((m) => `${m.kind ?? ''}\t${m.duplicate ? 1 : 0}`))].sort();
const sketch64 = new Map<Doc, Uint32Array>(docList.map((d) => [d, shingleSketch(d.hi, d.lo, d.hi.length, 64)]));
process.stdout.write('\n2. candidate generation: pairs reached (positives: more is better; negatives: candidates the verifier must reject)\n');
const schemes: [string, (m: (typeof measured)[number]) => boolean][] = [
  ['k=3 only', (m) => m.distance !== null && m.distance <= 3],
  ['multi-probe r=1 (65 lookups, d<=4)', (m) => m.distance !== null && m.distance <= 4],
  ['multi-probe r=2 (2081 lookups, d<=5)', (m) => m.distance !== null && m.distance <= 5],
  ['exact 16-bit block, d<=10', (m) => m.distance !== null && m.distance <= 10 && shareBlock(m.docA.fingerprint!, m.docB.fingerprint!)],
  ['exact 16-bit block, any d', (m) => m.distance !== null && shareBlock(m.docA.fingerprint!, m.docB.fingerprint!)],
  ['d<=10 (ideal K=10)', (m) => m.distance !== null && m.distance <= 10],
  ['sketch min value shared (1 table)', (m) => shareMin(sketch64.get(m.docA)!, sketch64.get(m.docB)!, 1)],
  ['sketch 2 smallest (2 tables)', (m) => shareMin(sketch64.get(m.docA)!, sketch64.get(m.docB)!, 2)],
  ['sketch 4 smallest (4 tables)', (m) => shareMin(sketch64.get(m.docA)!, sketch64.get(m.docB)!, 4)],
  ['sketch 8 smallest (8 tables)', (m) => shareMin(sketch64.get(m.docA)!, sketch64.get(m.docB)!, 8)],
  ['sketch 8 smallest, 2 shared',  (m) => shareMin(sketch64.get(m.docA)!, sketch64.get(m.docB)!, 8, 2)],
  ['sketch 16 smallest, 2 shared',  (m) => shareMin(sketch64.get(m.docA)!, sketch64.get(m.docB)!, 16, 2)],
  ['sketch 4 smallest or exact block', (m) => shareMin(sketch64.get(m.docA)!, sketch64.get(m.docB)!, 4) || (m.distance !== null && shareBlock(m.docA.fingerprint!, m.docB.fingerprint!))],
];
process.stdout.write(`${'scheme'.padEnd(38)}${kinds.map((k) => k.split('\t')[0]!.slice(0, 11).padStart(12)).join('')}\n`);
for (const [name, reached] of schemes) {
  const cells = kinds.map((k) => {
    const group = measured.filter((m) => `${m.kind ?? ''}\t${m.duplicate ? 1 : 0}` === k);
    return `${group.filter(reached).length}/${group.length}`.padStart(12);
  });
  process.stdout.write(`${name.padEnd(38)}${cells.join('')}\n`);
}

// ------------------------------------------------------------------ 3. thresholds
process.stdout.write('\n3. decision: near (d<=3) or [candidate and (J>=tJ or C>=tC with >= minSamples values)]\n');
for (const size of [32, 64, 128]) {
  const sk = new Map<Doc, Uint32Array>(docList.map((d) => [d, shingleSketch(d.hi, d.lo, d.hi.length, size)]));
  const est = measured.map((m) => ({ m, s: sketchSimilarity(sk.get(m.docA)!, sk.get(m.docB)!, size) }));
  const negatives = est.filter((e) => !e.m.duplicate);
  const maxNegJ = Math.max(...negatives.map((e) => e.s.jaccard));
  const maxNegC = Math.max(...negatives.map((e) => e.s.containment));
  process.stdout.write(`size ${size}: closest negative J=${maxNegJ.toFixed(3)} C=${maxNegC.toFixed(3)}; positives below J 0.5: ${est.filter((e) => e.m.duplicate && e.s.jaccard < 0.5).length}\n`);
  for (const e of est.filter((x) => x.m.duplicate && (x.m.distance === null || x.m.distance > 3)).sort((x, y) => x.s.jaccard - y.s.jaccard).slice(0, 8)) {
    process.stdout.write(`   weakest positive ${e.m.kind} d=${e.m.distance} J=${e.s.jaccard.toFixed(3)} (exact ${e.m.exact.jaccard.toFixed(3)}) C=${e.s.containment.toFixed(3)} (exact ${e.m.exact.containment.toFixed(3)}) n=${e.s.containmentSamples} ${e.m.b}\n`);
  }
  for (const e of negatives.sort((x, y) => y.s.jaccard - x.s.jaccard).slice(0, 3)) {
    process.stdout.write(`   closest negative ${e.m.kind} d=${e.m.distance} J=${e.s.jaccard.toFixed(3)} C=${e.s.containment.toFixed(3)} n=${e.s.containmentSamples} ${e.m.a} ${e.m.b}\n`);
  }
  for (const e of negatives.sort((x, y) => y.s.containment - x.s.containment).slice(0, 3)) {
    process.stdout.write(`   most-contained negative ${e.m.kind} d=${e.m.distance} J=${e.s.jaccard.toFixed(3)} C=${e.s.containment.toFixed(3)} n=${e.s.containmentSamples} ${e.m.a} ${e.m.b}\n`);
  }
}

// ------------------------------------------------------------------ 4. threshold grid
process.stdout.write('\n4. grid: near (d<=3) or [shares 2 of the m smallest sketch values and verifySimilar]; best = most recall with no negative merged, then widest margin\n');
interface GridRow { size: number; m: number; K: number; tJ: number; tC: number; minS: number; tp: number; fp: number; margin: number }
const rowsOut: GridRow[] = [];
for (const size of [32, 64, 128]) {
  const sk = new Map<Doc, Uint32Array>(docList.map((d) => [d, shingleSketch(d.hi, d.lo, d.hi.length, size)]));
  for (const m of [4, 8]) {
    const est = measured.map((x) => ({ x, a: sk.get(x.docA)!, b: sk.get(x.docB)!, cand: shareMin(sk.get(x.docA)!, sk.get(x.docB)!, m, 2) }));
    for (const K of [12, 16, 20, 24, 64]) for (const minS of [16, 32]) for (const tC of [0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 2]) for (const tJ of [0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7]) {
      let tp = 0;
      let fp = 0;
      let margin = Infinity;
      for (const e of est) {
        const d = e.x.distance;
        let dup = d !== null && d <= 3;
        if (!dup && d !== null && e.cand) {
          const v = verifySimilar(d, e.a, e.b, { maxDistance: K, sketchSize: size, jaccard: tJ, containment: tC, minContainmentSamples: minS });
          dup = v.similar;
          if (!e.x.duplicate && d <= K) margin = Math.min(margin, tJ - v.jaccard, v.containmentSamples >= minS ? tC - v.containment : Infinity);
        }
        if (dup && e.x.duplicate) tp++;
        if (dup && !e.x.duplicate) fp++;
      }
      rowsOut.push({ size, m, K, tJ, tC, minS, tp, fp, margin });
    }
  }
}
const positivesTotal = measured.filter((x) => x.duplicate).length;
for (const size of [32, 64, 128]) {
  const best = rowsOut.filter((r) => r.size === size && r.fp === 0).sort((x, y) => y.tp - x.tp || y.margin - x.margin)[0]!;
  process.stdout.write(`size ${size}: m=${best.m} K=${best.K} J>=${best.tJ} C>=${best.tC} (samples>=${best.minS}): recall ${(best.tp / positivesTotal).toFixed(3)} (${best.tp}/${positivesTotal}), margin ${best.margin.toFixed(3)}\n`);
}
process.stdout.write('\nsize 64, m=8: best per K (no negative merged)\n');
for (const K of [12, 16, 20, 24, 64]) {
  const best = rowsOut.filter((r) => r.size === 64 && r.m === 8 && r.K === K && r.fp === 0).sort((x, y) => y.tp - x.tp || y.margin - x.margin)[0]!;
  process.stdout.write(`K=${K}: J>=${best.tJ} C>=${best.tC} (samples>=${best.minS}): recall ${(best.tp / positivesTotal).toFixed(3)}, margin ${best.margin.toFixed(3)}\n`);
}

// ------------------------------------------------------------------ 5. lookup cost at N documents
{
  const N = 1_000_000;
  const lookups = 20_000;
  const rand = seededRandom(5);
  const u32 = () => Math.floor(rand() * 2 ** 32) >>> 0;
  const blocks = new PairedBlockTable(blockLayout(3));
  const keysTable = new SketchKeyTable({ keys: 8 });
  const his = new Uint32Array(N);
  const los = new Uint32Array(N);
  for (let id = 1; id <= N; id++) {
    his[id - 1] = u32();
    los[id - 1] = u32();
    blocks.add(id, his[id - 1]!, los[id - 1]!);
    keysTable.add(id, Uint32Array.from({ length: 64 }, u32).sort());
  }
  const out = new IdList();
  const queries = Array.from({ length: lookups }, () => ({ hi: u32(), lo: u32(), sketch: Uint32Array.from({ length: 64 }, u32).sort() }));
  let found = 0;
  const tBlocks = timeIt(() => { for (const q of queries) { out.clear(); blocks.candidates(q.hi, q.lo, out); found += out.count; } });
  const foundBlocks = found;
  found = 0;
  const tProbe = timeIt(() => {
    for (const q of queries.slice(0, lookups / 10)) {
      out.clear();
      blocks.candidates(q.hi, q.lo, out);
      for (let bit = 0; bit < 64; bit++) blocks.candidates(bit < 32 ? (q.hi ^ (1 << bit)) >>> 0 : q.hi, bit < 32 ? q.lo : (q.lo ^ (1 << (bit - 32))) >>> 0, out);
      found += out.count;
    }
  }) * 10;
  const foundProbe = found * 10;
  found = 0;
  const tKeys = timeIt(() => { for (const q of queries) { out.clear(); keysTable.candidates(q.sketch, out); found += out.count; } });
  const foundKeys1 = found;
  found = 0;
  const tKeys2 = timeIt(() => { for (const q of queries) { out.clear(); keysTable.candidates(q.sketch, out, 2); found += out.count; } });
  process.stdout.write(`\n5. lookup cost at N=${N} random documents (${lookups} lookups; in-memory tables only)\n`);
  process.stdout.write(`   k=3 block table:              ${(tBlocks * 1000 / lookups).toFixed(2)} µs/lookup, ${(foundBlocks / lookups).toFixed(3)} candidates/lookup\n`);
  process.stdout.write(`   multi-probe r=1 (65 lookups): ${(tProbe * 1000 / lookups).toFixed(2)} µs/lookup, ${(foundProbe / lookups).toFixed(3)} candidates/lookup\n`);
  process.stdout.write(`   8 sketch keys, 1 shared:      ${(tKeys * 1000 / lookups).toFixed(2)} µs/lookup, ${(foundKeys1 / lookups).toFixed(3)} candidates/lookup\n`);
  process.stdout.write(`   8 sketch keys, 2 shared:      ${(tKeys2 * 1000 / lookups).toFixed(2)} µs/lookup, ${(found / lookups).toFixed(3)} candidates/lookup; table ${(keysTable.byteLength / N).toFixed(0)} bytes/document\n`);
}
