import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../src/config.js';
import type { BatchEntry, BatchProblem } from '../../src/input/batch-entry.js';
import { analyzeBatch, dedupBatch, dedupEntries, type Analyzer, type BatchSummary } from '../../src/batch/dedup-batch.js';
import { WorkerCrashError } from '../../src/errors.js';
import { readInputs, resolveInputs } from '../../src/input/read-inputs.js';
import type { PageInput } from '../../src/types.js';
import { InputError } from '../../src/errors.js';
import { writeWarc } from '../input/warc-fixture.js';
import { devTextsById } from '../helpers/dev-texts.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const texts = devTextsById().filter((t) => t.length > 1500);

let dir: string;
let config: Config;
beforeEach(async () => {
  dir = makeTempDir('neardup-dedup-');
  config = loadConfig({ env: {} });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function storedUrls(dataDir: string): Promise<string[]> {
  const corpus = await readFile(join(dataDir, 'corpus.jsonl'), 'utf8');
  return corpus.split('\n').filter((l) => l !== '').map((l) => (JSON.parse(l) as { url: string }).url);
}

/** Near-duplicate chains (~150-word texts) whose stored members depend on the order of commits. */
function clusteredDocs(count: number): string[] {
  const random = seededRandom(3);
  const lines: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const base = texts[i % 20]!.split(' ').slice(0, 150).join(' ');
    const words = base.split(' ');
    const variant = random() < 0.3 ? base : words.map((w) => (random() < 0.01 * (i % 4) ? 'edited' : w)).join(' ');
    lines.push(JSON.stringify({ url: `http://docs.example/${i}`, text: variant }));
  }
  return lines;
}

describe('dedupBatch', () => {
  it('dedups mixed inputs (folder, JSONL, WARC) into the same outputs as a crawl', async () => {
    const [t1, t2, t3] = texts as [string, string, string];
    const html = (t: string) => `<!doctype html><html><head><title>T</title></head><body><article>${t.split('\n').filter((p) => p.trim() !== '').map((p) => `<p>${p}</p>`).join('')}</article></body></html>`;
    await mkdir(join(dir, 'site', 'sub'), { recursive: true });
    await writeFile(join(dir, 'site', 'a.html'), html(t1));
    await writeFile(join(dir, 'site', 'sub', 'b.html.gz'), gzipSync(html(t2)));
    await writeFile(join(dir, 'site', 'sub', 'c.txt'), t3);
    await writeFile(join(dir, 'docs.jsonl'), [
      JSON.stringify({ url: 'http://j.example/copy-of-c', text: t3 }),
      '{not json',
      JSON.stringify({ url: 'http://j.example/short', text: 'Too short.' }),
    ].join('\n'));
    await writeWarc(join(dir, 'crawl.warc.gz'), [
      { type: 'request', url: 'http://w.example/a', body: '' },
      { type: 'response', url: 'http://w.example/a', httpHeaders: { 'Content-Type': 'text/html; charset=utf-8' }, body: html(t1) },
      { type: 'response', url: 'http://w.example/img', httpHeaders: { 'Content-Type': 'image/png' }, body: 'PNG' },
    ], true);

    const problems: BatchProblem[] = [];
    const data = join(dir, 'data');
    const summary = await dedupBatch({
      inputs: [join(dir, 'site'), join(dir, 'docs.jsonl'), join(dir, 'crawl.warc.gz')],
      dataDir: data,
      config,
      workers: 2,
      onProblem: (p) => problems.push(p),
    });
    expect(await storedUrls(data)).toEqual([join(dir, 'site', 'a.html'), join(dir, 'site', 'sub', 'b.html.gz'), join(dir, 'site', 'sub', 'c.txt')]);
    expect(summary).toMatchObject({ documents: 6, stored: 3, skipped: 1, skippedBy: { 'too-short': 1 }, errors: 1, workers: 2, interrupted: false });
    expect(summary.exact + summary.near).toBe(2); // the JSONL copy of c.txt and the WARC copy of a.html
    expect(summary.ignored).toBe(3); // warcinfo, request, image
    expect(problems).toEqual([{ position: `${join(dir, 'docs.jsonl')}:2`, message: expect.stringMatching(/^invalid JSON/) }]);
    expect(summary.problems).toEqual(problems);
    // The corpus keeps each stored document's main text (a text input's own string, an HTML page's extraction).
    const corpus = (await readFile(join(data, 'corpus.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { url: string; text: string });
    expect(corpus[2]!.text).toBe(t3);
    expect(corpus[0]!.text.length).toBeGreaterThan(t1.length * 0.9);
  });

  it('stores the same set on every run and with any number of workers or batch size', async () => {
    const path = join(dir, 'clusters.jsonl');
    await writeFile(path, `${clusteredDocs(120).join('\n')}\n`);
    const runs: Array<{ name: string; options: object }> = [
      { name: 'in-process', options: { inProcess: true } },
      { name: '1 worker', options: { workers: 1 } },
      { name: '2 workers', options: { workers: 2 } },
      { name: '2 workers, tiny batches', options: { workers: 2, batchSize: 1, maxInFlight: 5 } },
    ];
    const results: Array<{ name: string; stored: string[]; summary: BatchSummary; corpus: string[] }> = [];
    // corpus.jsonl without fetchedAt (the time of each run).
    const corpusOf = async (data: string) => (await readFile(join(data, 'corpus.jsonl'), 'utf8')).split('\n').map((l) => l.replace(/,"fetchedAt":"[^"]*"}$/, '}'));
    for (const run of runs) {
      const data = join(dir, `data-${results.length}`);
      const summary = await dedupBatch({ inputs: [path], dataDir: data, config, ...run.options });
      results.push({ name: run.name, stored: await storedUrls(data), summary, corpus: await corpusOf(data) });
    }
    // The same lines parsed on this thread (not in the workers) give the same outputs, byte for byte.
    const parsedData = join(dir, 'data-parsed');
    const parsed = await dedupEntries(readInputs(await resolveInputs([path])), { dataDir: parsedData, config, workers: 2 });
    results.push({ name: 'parsed before the workers', stored: await storedUrls(parsedData), summary: parsed, corpus: await corpusOf(parsedData) });
    const first = results[0]!;
    expect(first.summary.workerUtilization).toBeNull();
    for (const r of results.slice(1)) expect(r.summary.workerUtilization, r.name).toSatisfy((u: number | null) => u !== null && u > 0 && u <= 1);
    // The chains make the outcome order-dependent: far fewer stored than read, exact and near both met.
    expect(first.stored.length).toBeLessThan(80);
    expect(first.summary.exact).toBeGreaterThan(0);
    expect(first.summary.near).toBeGreaterThan(0);
    for (const r of results.slice(1)) {
      expect(r.stored, r.name).toEqual(first.stored);
      expect(r.corpus, r.name).toEqual(first.corpus);
      expect([r.summary.stored, r.summary.exact, r.summary.near, r.summary.skipped], r.name)
        .toEqual([first.summary.stored, first.summary.exact, first.summary.near, first.summary.skipped]);
    }
  });

  it('never reads more than maxInFlight documents (plus one batch) ahead of the commits', async () => {
    const lines = clusteredDocs(120);
    let read = 0;
    let committed = 0;
    let maxAhead = 0;
    async function* source(): AsyncGenerator<BatchEntry> {
      for (let i = 0; i < lines.length; i += 1) {
        const { url, text } = JSON.parse(lines[i]!) as { url: string; text: string };
        read += 1;
        maxAhead = Math.max(maxAhead, read - committed);
        yield { kind: 'page', position: `gen:${i + 1}`, input: { url, text }, size: text.length };
      }
    }
    const summary = await dedupEntries(source(), {
      dataDir: join(dir, 'data'), config, workers: 2, maxInFlight: 24, batchSize: 4,
      onProgress: (p) => { committed = p.documents; },
    });
    expect(summary.documents).toBe(120);
    expect(maxAhead).toBeGreaterThan(4); // it does read ahead, to keep both workers busy
    expect(maxAhead).toBeLessThanOrEqual(24 + 4);
  });

  it('counts and reports problems in input order and goes on', async () => {
    const path = join(dir, 'bad.jsonl');
    const good = texts.slice(0, 3).map((t, i) => JSON.stringify({ url: `http://g/${i}`, text: t }));
    await writeFile(path, [good[0], '[]', good[1], '{"url":1}', '', 'nope', good[2]].join('\n'));
    const seen: string[] = [];
    const summary = await dedupBatch({ inputs: [path], dataDir: join(dir, 'data'), config, workers: 1, onProblem: (p) => seen.push(p.position) });
    expect(seen).toEqual([`${path}:2`, `${path}:4`, `${path}:6`]);
    expect(summary).toMatchObject({ documents: 3, stored: 3, errors: 3 });
  });

  it('stops reading when aborted and still commits what it read', async () => {
    const controller = new AbortController();
    const lines = clusteredDocs(100);
    async function* source(): AsyncGenerator<BatchEntry> {
      for (let i = 0; i < lines.length; i += 1) {
        if (i === 30) controller.abort();
        const { url, text } = JSON.parse(lines[i]!) as { url: string; text: string };
        yield { kind: 'page', position: `gen:${i + 1}`, input: { url, text }, size: text.length };
      }
    }
    const data = join(dir, 'data');
    const summary = await dedupEntries(source(), { dataDir: data, config, inProcess: true, signal: controller.signal });
    expect(summary.interrupted).toBe(true);
    expect(summary.documents).toBe(30);
    expect((await storedUrls(data)).length).toBe(summary.stored);
  });

  it('refuses a missing input with an InputError before creating anything', async () => {
    const data = join(dir, 'data');
    await expect(dedupBatch({ inputs: [join(dir, 'missing.jsonl')], dataDir: data, config })).rejects.toBeInstanceOf(InputError);
    await expect(readFile(join(data, 'corpus.jsonl'))).rejects.toThrow(/ENOENT/);
  });

  it('retries a batch whose worker died one document at a time, so only the culprit fails', async () => {
    const calls: number[] = [];
    const analyzer: Analyzer = {
      workers: 1,
      run: async (inputs: readonly PageInput[]) => {
        calls.push(inputs.length);
        if (inputs.some((i) => i.url === 'poison')) throw new WorkerCrashError('analysis worker failed: worker exited with code 1');
        return inputs.map((i) => ({ ok: false as const, error: `analysed ${i.url}` }));
      },
      close: async () => {},
    };
    const results = await analyzeBatch(analyzer, [{ url: 'a', text: 'x' }, { url: 'poison', text: 'x' }, { url: 'b', text: 'x' }]);
    expect(calls).toEqual([3, 1, 1, 1]);
    expect(results).toEqual([
      { ok: false, error: 'analysed a' },
      { ok: false, error: 'analysis worker failed: worker exited with code 1' },
      { ok: false, error: 'analysed b' },
    ]);
  });
});
