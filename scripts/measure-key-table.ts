/**
 * Recall against cost of the second stage's candidate table (SketchKeyTable) on a corpus from
 * scripts/make-corpus.ts (issue 25):
 *
 *   npx tsx scripts/measure-key-table.ts --corpus /tmp/corpus.jsonl [--labels <corpus>.labels.jsonl] [--limit 20000]
 *
 * Every document is analysed (defaults, sketch of 64) and, in corpus order, first looked up and then
 * filed (every document, as if all were stored: the worst case for crowded keys). A planted copy counts
 * as found when its source is among its candidates (fingerprints ignored: this measures the table, not
 * K). Printed per scheme: copies whose source was found, candidates per lookup (mean), lookup µs (mean,
 * CPU of this process), table bytes per document. Schemes: single keys with the old cut at the 32 newest
 * documents of a key (the table before issue 25, re-implemented here), single keys read whole
 * (minShared 1 and 2), and pairs of the m smallest values (minShared 2) for m = 4, 6, 8, 10, 12.
 *
 * With --walk: the second stage's own use instead (defaults: 8 keys, 2 shared, K and the bound of
 * config `verify`), each document looked up with its fingerprint, then filed; printed: candidates
 * listed, a hash of the ids in the order listed (equal hashes: the same lists), candidates the bound
 * dropped, lookup and filing µs a document (CPU of this process), table bytes per document.
 */
import { createReadStream, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { analyzeText, fingerprintParamsFrom } from '../src/analyze/analyze-text.js';
import { defaultConfig } from '../src/config.js';
import { IdList } from '../src/fingerprint-index/id-list.js';
import { SketchKeyTable } from '../src/fingerprint-index/sketch-key-table.js';
import { StemCache } from '../src/text/stem-cache.js';

const { values: flags } = parseArgs({
  options: {
    corpus: { type: 'string', default: '/tmp/corpus.jsonl' },
    labels: { type: 'string' },
    limit: { type: 'string', default: '20000' },
    walk: { type: 'boolean', default: false },
  },
});
const corpus = resolve(flags.corpus);
const labelsFile = resolve(flags.labels ?? corpus.replace(/\.jsonl$/u, '') + '.labels.jsonl');
for (const f of [corpus, labelsFile]) {
  if (!existsSync(f)) {
    process.stderr.write(`measure-key-table: ${f} does not exist (make it with scripts/make-corpus.ts)\n`);
    process.exit(2);
  }
}
const limit = Number(flags.limit);

const config = defaultConfig();
const params = fingerprintParamsFrom(config.fingerprint);
const stemCache = new StemCache();
const sketches: Uint32Array[] = [];
const fingerprints: number[] = [];
const index = new Map<string, number>();
for await (const line of createInterface({ input: createReadStream(corpus) })) {
  if (line === '' || sketches.length >= limit) continue;
  const { url, text } = JSON.parse(line) as { url: string; text: string };
  index.set(url, sketches.length);
  const analysis = analyzeText(text, params, { sketchSize: config.verify.sketchSize, stemCache });
  sketches.push(analysis.sketch ?? new Uint32Array(0));
  fingerprints.push(analysis.fingerprint?.hi ?? 0, analysis.fingerprint?.lo ?? 0);
}
if (flags.walk) {
  const v = config.verify;
  const table = new SketchKeyTable({ keys: v.candidateKeys, minShared: v.minSharedKeys, verify: v });
  const list = new IdList();
  let lookup = 0;
  let filing = 0;
  let listed = 0;
  let hash = 0;
  for (let i = 0; i < sketches.length; i++) {
    const hi = fingerprints[2 * i]!;
    const lo = fingerprints[2 * i + 1]!;
    list.clear();
    const before = process.cpuUsage();
    table.candidates(sketches[i]!, list, v.minSharedKeys, hi, lo, v.maxDistance);
    const between = process.cpuUsage();
    table.add(i + 1, sketches[i]!, hi, lo);
    const after = process.cpuUsage(between);
    const used = process.cpuUsage(before);
    lookup += used.user + used.system - (after.user + after.system);
    filing += after.user + after.system;
    listed += list.count;
    for (let k = 0; k < list.count; k++) hash = (Math.imul(hash, 31) + list.ids[k]!) | 0;
  }
  process.stdout.write(`walk: docs=${sketches.length} listed=${listed} order_hash=${hash >>> 0} dropped=${table.dropped} lookup_us=${(lookup / sketches.length).toFixed(2)} `
    + `add_us=${(filing / sketches.length).toFixed(2)} bytes_per_doc=${(table.byteLength / sketches.length).toFixed(1)}\n`);
  process.exit(0);
}
const sourceOf = new Int32Array(sketches.length).fill(-1);
for await (const line of createInterface({ input: createReadStream(labelsFile) })) {
  if (line === '') continue;
  const label = JSON.parse(line) as { url: string; source?: string };
  const at = index.get(label.url);
  if (at !== undefined && label.source !== undefined) sourceOf[at] = index.get(label.source) ?? -1;
}
const copies = [...sourceOf].filter((s) => s >= 0).length;

/** The table before issue 25: single keys, each key's 32 newest documents read, 2 of 8 keys shared. */
class CutTable {
  readonly #lists = new Map<number, number[]>();
  readonly #counts = new Map<number, number>();
  add(id: number, sketch: Uint32Array): void {
    for (let i = 0; i < Math.min(8, sketch.length); i++) {
      const list = this.#lists.get(sketch[i]!);
      if (list === undefined) this.#lists.set(sketch[i]!, [id]);
      else list.push(id);
    }
  }
  candidates(sketch: Uint32Array, out: IdList): void {
    const n = Math.min(8, sketch.length);
    const need = Math.min(2, n);
    this.#counts.clear();
    for (let i = 0; i < n; i++) {
      const list = this.#lists.get(sketch[i]!) ?? [];
      for (let k = list.length - 1; k >= Math.max(0, list.length - 32); k--) {
        const c = (this.#counts.get(list[k]!) ?? 0) + 1;
        this.#counts.set(list[k]!, c);
        if (c === need) out.push(list[k]!);
      }
    }
  }
}

interface Scheme { readonly name: string; readonly make: () => { add(id: number, s: Uint32Array): void; candidates(s: Uint32Array, out: IdList): void; byteLength?: number } }
const schemes: Scheme[] = [
  { name: 'single keys, 8, 2 shared, 32 newest per key (before)', make: () => new CutTable() },
  { name: 'single keys, 8, 1 shared, read whole', make: () => new SketchKeyTable({ keys: 8, minShared: 1 }) },
  ...[4, 6, 8, 10, 12].map((m) => ({ name: `pairs of the ${m} smallest (${(m * (m - 1)) / 2} keys), 2 shared`, make: () => new SketchKeyTable({ keys: m, minShared: 2 }) })),
];

process.stdout.write(`corpus ${corpus}: ${sketches.length} documents, ${copies} planted copies\n`);
process.stdout.write('scheme                                                   found/copies   recall   cand/lookup   µs/lookup   bytes/doc\n');
const out = new IdList();
for (const scheme of schemes) {
  const table = scheme.make();
  let found = 0;
  let candidates = 0;
  let cpu = 0;
  for (let i = 0; i < sketches.length; i++) {
    out.clear();
    const before = process.cpuUsage();
    table.candidates(sketches[i]!, out);
    const used = process.cpuUsage(before);
    cpu += used.user + used.system;
    candidates += out.count;
    if (sourceOf[i]! >= 0 && out.ids.subarray(0, out.count).includes(sourceOf[i]! + 1)) found++;
    table.add(i + 1, sketches[i]!);
  }
  const bytes = table.byteLength === undefined ? NaN : table.byteLength / sketches.length;
  process.stdout.write(`${scheme.name.padEnd(56)} ${`${found}/${copies}`.padStart(12)} ${(found / copies).toFixed(4).padStart(8)} `
    + `${(candidates / sketches.length).toFixed(2).padStart(13)} ${(cpu / sketches.length).toFixed(2).padStart(11)} ${Number.isNaN(bytes) ? '          -' : Math.round(bytes).toString().padStart(11)}\n`);
}
