/**
 * The stored cascade record's size and the codec's cost, against an earlier version of the codec,
 * in one process:
 *
 *   git archive <commit> src | tar -x -C .bench/base     # .bench/ is ignored by git
 *   npx tsx scripts/measure-record-codec.ts --base .bench/base [--texts <file>]… [--limit 2000] [--pairs 60]
 *
 * Texts: `text` fields of a JSONL file, or `articleBody` fields of a ground-truth JSON object (default:
 * the two ground-truth files of /work/shared/datasets). Each text's record is made as page-cascade.ts
 * makes it (the analysis's language, tokens and stems). Prints the stored part's mean bytes in both
 * versions and, for the new one, the bits of each coded array against the best Rice parameter and
 * against LEB128 varints of the same gaps; checks that both versions decode to the same values (and
 * the new one reads the old one's bytes); then times encoding and decoding on CPU time in short pairs,
 * base and new back to back in alternating order, and prints the medians in µs per record.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultConfig } from '../src/config.js';
import { analyzeText, fingerprintParamsFrom } from '../src/analyze/analyze-text.js';
import type { TokenTable } from '../src/text/token-table.js';
import type { TokenStems } from '../src/analyze/analyze-normalized-text.js';
import { StemCache } from '../src/text/stem-cache.js';
import * as NR from '../src/cascade/cascade-record.js';
import type { CascadeRecord } from '../src/cascade/cascade-record.js';
import * as NC from '../src/cascade/cascade-record-codec.js';
import { riceBits, riceParameter } from '../src/cascade/sorted-codes.js';

const DEFAULT_TEXTS = ['/work/shared/datasets/article-benchmark-dev/ground-truth.json', '/work/shared/datasets/dragnet-train/ground-truth.json'];
const { values: flags } = parseArgs({
  options: {
    base: { type: 'string' },
    texts: { type: 'string', multiple: true },
    limit: { type: 'string', default: '2000' },
    pairs: { type: 'string', default: '60' },
  },
});
if (flags.base === undefined || !existsSync(resolve(flags.base, 'src/cascade/cascade-record-codec.ts'))) {
  process.stderr.write(`measure-record-codec: expected --base <folder with an earlier src/>, got ${flags.base ?? 'none'}\n`);
  process.exit(2);
}
const baseSrc = resolve(flags.base, 'src');
const BC = (await import(`${baseSrc}/cascade/cascade-record-codec.ts`)) as typeof NC;
// Records made by each version's own module: the codec copies the paragraph section a record of its
// module has ready (packedRecordOf), and encodes it afresh for any other record.
const BR = (await import(`${baseSrc}/cascade/cascade-record.ts`)) as typeof NR;

/** Texts of a JSONL file (`text`) or a ground-truth JSON object (`articleBody`). */
function textsOf(file: string): string[] {
  const content = readFileSync(file, 'utf8');
  if (file.endsWith('.jsonl')) return content.split('\n').filter((l) => l.trim() !== '').map((l) => (JSON.parse(l) as { text: string }).text);
  return Object.values(JSON.parse(content) as Record<string, { articleBody: string }>).map((v) => v.articleBody);
}
const texts = (flags.texts ?? DEFAULT_TEXTS).flatMap(textsOf).filter((t) => t.trim() !== '').slice(0, Number(flags.limit));

const config = defaultConfig();
const params = fingerprintParamsFrom(config.fingerprint);
const stemCache = new StemCache();
const records: CascadeRecord[] = [];
const baseRecords: CascadeRecord[] = [];
for (const text of texts) {
  let table: TokenTable | undefined;
  let tokenStems: TokenStems | undefined;
  let analysis;
  try {
    analysis = analyzeText(text, params, { stemCache, onTokens: (_n, t, s) => void ((table = t), (tokenStems = { stems: s.stems, stop: s.stop.slice() })) });
  } catch {
    continue; // too short for a fingerprint: no record either
  }
  records.push(NR.cascadeRecordOfTable(table!, text, analysis.language, { tagger: 'shape', stemCache, tokenStems }));
  baseRecords.push(BR.cascadeRecordOfTable(table!, text, analysis.language, { tagger: 'shape', stemCache, tokenStems }));
}
const n = records.length;
const mean = (f: (r: CascadeRecord, i: number) => number) => records.reduce((sum, r, i) => sum + f(r, i), 0) / n;

const baseFull = baseRecords.map((r) => BC.encodeCascadeRecord(r));
const newFull = records.map((r) => NC.encodeCascadeRecord(r));
const baseStored = baseFull.map((b) => BC.storedPart(b).slice());
const newStored = newFull.map((b) => NC.storedPart(b).slice());

// Same values, whichever version wrote or reads the bytes.
const plain = (r: CascadeRecord) => JSON.stringify({
  language: r.language, words: r.words, stems: r.stems, shingles: [...r.shingles], tag: r.tagSketch && [...r.tagSketch], terms: [...r.terms], wordSketch: [...r.wordSketch],
  paragraphs: r.paragraphs.map((p) => [p.words, [...p.shingles], [...p.terms]]),
});
let differ = 0;
for (let i = 0; i < n; i++) {
  const expected = plain(BC.decodeCascadeRecord(baseStored[i]!));
  if (plain(NC.decodeCascadeRecord(newStored[i]!)) !== expected || plain(NC.decodeCascadeRecord(baseStored[i]!)) !== expected) differ++;
  if (plain(NC.decodeCascadeRecord(newFull[i]!)) !== plain(BC.decodeCascadeRecord(baseFull[i]!))) differ++;
  if (newStored[i]!.length % 4 !== 0) differ++;
}
console.log(`${n} records (${texts.length} texts); decoded values differ on ${differ}`);
console.log(`mean words ${mean((r) => r.words).toFixed(0)}, shingles ${mean((r) => r.shingles.length).toFixed(1)}, tag sketch ${mean((r) => r.tagSketch?.length ?? 0).toFixed(1)}, terms ${mean((r) => r.terms.length).toFixed(1)}`);
const baseBytes = mean((_r, i) => baseStored[i]!.length);
const newBytes = mean((_r, i) => newStored[i]!.length);
console.log(`stored bytes: base ${baseBytes.toFixed(1)}, new ${newBytes.toFixed(1)} (${((100 * newBytes) / baseBytes).toFixed(1)}%)`);

/** LEB128 bytes of the gaps (first value, then value − previous − 1). */
function varintBytes(values: Uint32Array, shift: number): number {
  let bytes = 0;
  let prev = -1;
  for (const v of values) {
    const x = v / 2 ** shift;
    const gap = x - prev - 1;
    bytes += gap < 2 ** 7 ? 1 : gap < 2 ** 14 ? 2 : gap < 2 ** 21 ? 3 : gap < 2 ** 28 ? 4 : 5;
    prev = x;
  }
  return bytes;
}
const arrays: [string, (r: CascadeRecord) => Uint32Array, number, number][] = [
  ['shingles', (r) => r.shingles, 3, 32],
  ['tag sketch', (r) => r.tagSketch ?? new Uint32Array(0), 0, 32],
  ['terms', (r) => r.terms, 0, 16],
];
for (const [name, of, shift, width] of arrays) {
  const count = mean((r) => of(r).length);
  const chosen = mean((r) => riceBits(of(r), riceParameter(of(r), shift), shift));
  const best = mean((r) => Math.min(...Array.from({ length: 32 }, (_, k) => riceBits(of(r), k, shift))));
  const varint = mean((r) => 8 * varintBytes(of(r), shift));
  const per = (bits: number) => (count === 0 ? 0 : bits / count).toFixed(2);
  console.log(`  ${name.padEnd(10)} bits/value: Rice ${per(chosen)} (best k ${per(best)}), LEB128 ${per(varint)}, plain ${width}; bytes ${(chosen / 8).toFixed(1)} (plain ${((count * width) / 8).toFixed(1)})`);
}

// Times, µs per record on CPU time: batches of up to 200 records, base and new back to back.
const cases: Record<string, [(i: number) => unknown, (i: number) => unknown]> = {
  'encode (whole)': [(i) => BC.encodeCascadeRecord(baseRecords[i]!), (i) => NC.encodeCascadeRecord(records[i]!)],
  'encode (stored)': [(i) => BC.encodeCascadeRecord(baseRecords[i]!, false), (i) => NC.encodeCascadeRecord(records[i]!, false)],
  'decode (stored)': [(i) => BC.decodeCascadeRecord(baseStored[i]!), (i) => NC.decodeCascadeRecord(newStored[i]!)],
  'decode hashes': [(i) => BC.decodeCascadeHashes(baseStored[i]!), (i) => NC.decodeCascadeHashes(newStored[i]!)],
  'decode (whole)': [(i) => BC.decodeCascadeRecord(baseFull[i]!), (i) => NC.decodeCascadeRecord(newFull[i]!)],
};
const batch = Math.min(200, n);
const timeBatch = (f: (i: number) => unknown, from: number): number => {
  const start = process.cpuUsage();
  for (let r = 0; r < 5; r++) for (let i = from; i < from + batch; i++) f(i % n);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / (5 * batch);
};
for (const [base, neu] of Object.values(cases)) for (let i = 0; i < n; i += batch) timeBatch(base, i), timeBatch(neu, i); // warm-up
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const pairs = Number(flags.pairs);
for (const [name, [base, neu]] of Object.entries(cases)) {
  const b: number[] = [];
  const m: number[] = [];
  for (let r = 0; r < pairs; r++) {
    const from = (r * batch) % n;
    if (r % 2 === 0) b.push(timeBatch(base, from)), m.push(timeBatch(neu, from));
    else m.push(timeBatch(neu, from)), b.push(timeBatch(base, from));
  }
  console.log(`${name.padEnd(16)} base ${median(b).toFixed(2)} µs, new ${median(m).toFixed(2)} µs per record (new/base ${median(m.map((x, i) => x / b[i]!)).toFixed(2)}×)`);
}
