import { defaultConfig } from '../src/config.js';
import { cascadeRecord } from '../src/cascade/cascade-record.js';
import { MemoryCascadeStore } from '../src/cascade/cascade-store.js';
import { compiledFlag } from '../src/cascade/compiled-flag.js';
import { analyzeText, fingerprintParamsFrom } from '../src/pipeline.js';
import { defaultDatasetPath, loadDevTexts } from './cascade-dataset.js';
const config = defaultConfig();
const params = fingerprintParamsFrom(config.fingerprint);
const texts = loadDevTexts(defaultDatasetPath(), 'x');
const records = texts.map((t) => cascadeRecord(t.text, t.language));
const store = new MemoryCascadeStore();
records.forEach((record, id) => store.add({ id, url: texts[id]!.url, record }));
for (const test of ['hypergeometric', 'containment'] as const) {
  for (let i = 0; i < texts.length; i++) {
    store.delete(i);
    const f = compiledFlag(records[i]!, store, { ...config.cascade.compiled, test });
    store.add({ id: i, url: texts[i]!.url, record: records[i]! });
    if (f) console.log(test, i, texts[i]!.id.slice(0, 8), records[i]!.paragraphs.length, 'paras', JSON.stringify(f.sources.map(s => [s.id, texts[s.id]!.id.slice(0,8), s.share.toFixed(2), s.paragraphs.length])));
  }
}
