/**
 * The page's own cascade costs — the record (as page-cascade.ts makes it, alone and encoded), the
 * `homoglyph` stage and the look-alike fold — against an earlier version of the code, in one process:
 *
 *   git archive <commit> src | tar -x -C .bench/base     # .bench/ is ignored by git
 *   npx tsx scripts/bench-record-ab.ts --base .bench/base [--jsonl <file>] [--limit 1000] [--pairs 100]
 *
 * `--base`: a folder holding that version's src/ (inside the repository, so that its imports find
 * node_modules). Texts: a JSONL file's `text` fields (default bench:dedup's generated documents,
 * /tmp/neardup-bench-dedup/docs-5000-seed7.jsonl, made by `npm run bench:dedup -- --cascade-ratio
 * --docs 5000`). First checks that both versions give the same outputs on every text (record fields,
 * encoded bytes, homoglyph counts, folds), then times many short pairs — base and new back to back
 * on the same 100 texts, in alternating order — on CPU time; the other helpers' load changes slowly
 * against a pair, so the median of the pairs' ratios is steadier than totals. Prints per case the
 * medians of CPU ms/page and of base/new with its quartiles.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { defaultConfig } from '../src/config.js';
import { analyzeText, fingerprintParamsFrom } from '../src/analyze/analyze-text.js';
import type { TokenTable } from '../src/text/token-table.js';
import type { TokenStems } from '../src/analyze/analyze-normalized-text.js';
import { StemCache } from '../src/text/stem-cache.js';
import type { CascadeRecord } from '../src/cascade/cascade-record.js';
import * as NR from '../src/cascade/cascade-record.js';
import * as NH from '../src/cascade/homoglyph-words.js';
import * as NF from '../src/text/fold-homoglyphs.js';
import * as NC from '../src/cascade/cascade-record-codec.js';

const { values: flags } = parseArgs({
  options: {
    base: { type: 'string' },
    jsonl: { type: 'string', default: '/tmp/neardup-bench-dedup/docs-5000-seed7.jsonl' },
    limit: { type: 'string', default: '1000' },
    pairs: { type: 'string', default: '100' },
  },
});
if (flags.base === undefined || !existsSync(resolve(flags.base, 'src/cascade/cascade-record.ts'))) {
  process.stderr.write(`bench-record-ab: expected --base <folder with an earlier src/>, got ${flags.base ?? 'none'}\n`);
  process.exit(2);
}
if (!existsSync(flags.jsonl)) {
  process.stderr.write(`bench-record-ab: the texts are missing: expected ${flags.jsonl} (npm run bench:dedup -- --cascade-ratio --docs 5000 makes it)\n`);
  process.exit(2);
}
const baseSrc = resolve(flags.base, 'src');
const BR = (await import(`${baseSrc}/cascade/cascade-record.ts`)) as typeof NR;
const BH = (await import(`${baseSrc}/cascade/homoglyph-words.ts`)) as typeof NH;
const BF = (await import(`${baseSrc}/text/fold-homoglyphs.ts`)) as typeof NF;
const BC = (await import(`${baseSrc}/cascade/cascade-record-codec.ts`)) as typeof NC;

const texts = readFileSync(flags.jsonl, 'utf8').split('\n').filter((l) => l.trim() !== '').slice(0, Number(flags.limit)).map((l) => (JSON.parse(l) as { text: string }).text);
const config = defaultConfig();
const params = fingerprintParamsFrom(config.fingerprint);
const stemCache = new StemCache();
// As page-cascade.ts: the analysis's token table and stems.
const pages = texts.map((text) => {
  let table: TokenTable | undefined;
  let tokenStems: TokenStems | undefined;
  const a = analyzeText(text, params, { stemCache, onTokens: (_n, t, s) => void ((table = t), (tokenStems = { stems: s.stems, stop: s.stop.slice() })) });
  return { text, language: a.language, table: table!, tokenStems: tokenStems! };
});
type Page = (typeof pages)[number];
const opts = (p: Page) => ({ tagger: 'shape' as const, stemCache, tokenStems: p.tokenStems });

// Same outputs, field by field (a record may carry more than its interface).
const fields = (r: CascadeRecord) => ({ ...r, paragraphs: r.paragraphs.map((p) => ({ ...p })), terms: r.terms, stems: r.stems });
let differ = 0;
for (const p of pages) {
  const a = BR.cascadeRecordOfTable(p.table, p.text, p.language, opts(p));
  const b = NR.cascadeRecordOfTable(p.table, p.text, p.language, opts(p));
  if (!isDeepStrictEqual(fields(a), fields(b))) differ++;
  if (!Buffer.from(BC.encodeCascadeRecord(a)).equals(Buffer.from(NC.encodeCascadeRecord(b)))) differ++;
  if (!isDeepStrictEqual(BH.countHomoglyphWords(p.text), NH.countHomoglyphWords(p.text))) differ++;
  if (BF.foldHomoglyphs(p.text) !== NF.foldHomoglyphs(p.text)) differ++;
}
console.log(`outputs compared on ${pages.length} texts: ${differ} differ`);

const kinds: Record<string, [(p: Page) => unknown, (p: Page) => unknown]> = {
  record: [(p) => BR.cascadeRecordOfTable(p.table, p.text, p.language, opts(p)), (p) => NR.cascadeRecordOfTable(p.table, p.text, p.language, opts(p))],
  record_encoded: [(p) => BC.encodeCascadeRecord(BR.cascadeRecordOfTable(p.table, p.text, p.language, opts(p))), (p) => NC.encodeCascadeRecord(NR.cascadeRecordOfTable(p.table, p.text, p.language, opts(p)))],
  homoglyph: [(p) => BH.homoglyphFlag(p.text, config.cascade.homoglyph), (p) => NH.homoglyphFlag(p.text, config.cascade.homoglyph)],
  fold: [(p) => BF.foldHomoglyphs(p.text), (p) => NF.foldHomoglyphs(p.text)],
};
const batch = Math.min(100, pages.length);
const timeBatch = (f: (p: Page) => unknown, from: number): number => {
  const start = process.cpuUsage();
  for (let i = from; i < from + batch; i++) f(pages[i % pages.length]!);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / batch;
};
for (const [base, neu] of Object.values(kinds)) for (let i = 0; i < pages.length; i += batch) timeBatch(base, i), timeBatch(neu, i); // warm-up
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const pairs = Number(flags.pairs);
for (const [kind, [base, neu]] of Object.entries(kinds)) {
  const b: number[] = [];
  const n: number[] = [];
  for (let r = 0; r < pairs; r++) {
    const from = (r * batch) % pages.length;
    if (r % 2 === 0) b.push(timeBatch(base, from)), n.push(timeBatch(neu, from));
    else n.push(timeBatch(neu, from)), b.push(timeBatch(base, from));
  }
  const ratios = sorted(b.map((x, i) => x / n[i]!));
  const median = (xs: number[]) => sorted(xs)[xs.length >> 1]!;
  console.log(`${kind.padEnd(15)} base ${median(b).toFixed(4)} new ${median(n).toFixed(4)} CPU ms/page  base/new ${ratios[pairs >> 1]!.toFixed(2)}× (quartiles ${ratios[pairs >> 2]!.toFixed(2)}–${ratios[(3 * pairs) >> 2]!.toFixed(2)})`);
}
