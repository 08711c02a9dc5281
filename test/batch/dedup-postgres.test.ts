/**
 * Batch dedup across processes: several `neardup dedup --index postgres://...` processes, each with its
 * own --data (its corpus), on overlapping shards of one input, one of them killed with SIGKILL between a
 * stored document's commit and its corpus line (the fault hook makes the kill certain) and run again.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { PgFingerprintIndex } from '../../src/fingerprint-index/postgres/pg-fingerprint-index.js';
import { FAULT_FREEZE_MESSAGE } from '../../src/store/fault-freeze.js';
import type { StoredDocument } from '../../src/types.js';
import { devTextsById } from '../helpers/dev-texts.js';
import { describeWithPostgres, freshDatabaseName } from '../helpers/postgres-server.js';
import { neardupBin } from '../helpers/run-cli.js';
import { tempDir } from '../fingerprint-index/index-test-helpers.js';

const SHARDS = 4;
/** Clusters every shard has, and clusters only one shard has (so each shard stores at least that many). */
const SHARED_CLUSTERS = 40;
const OWN_CLUSTERS = 3;
const CLUSTERS = SHARED_CLUSTERS + SHARDS * OWN_CLUSTERS;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** `neardup dedup` in a child; with `freezeAfter`, killed with SIGKILL once the fault hook has frozen it. */
function dedup(input: string, dataDir: string, url: string, freezeAfter: number | null = null): Promise<Run> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, NEARDUP_CONFIG: '', ...(freezeAfter === null ? {} : { NEARDUP_FAULT_FREEZE: String(freezeAfter) }) };
    const child = spawn(process.execPath, [neardupBin, 'dedup', input, '--data', dataDir, '--index', url], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      if (freezeAfter !== null && stderr.includes(FAULT_FREEZE_MESSAGE)) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}

/**
 * Shard s: every shared cluster's text under the shard's own URL (upper case in odd shards: the same
 * tokens), a few URLs all shards share, and its own clusters.
 */
function writeShards(dir: string): string[] {
  const texts = devTextsById().filter((t) => t.split(/\s+/).length > 150).slice(0, CLUSTERS);
  expect(texts).toHaveLength(CLUSTERS);
  return Array.from({ length: SHARDS }, (_, s) => {
    const lines: string[] = [];
    texts.forEach((text, c) => {
      const own = c >= SHARED_CLUSTERS && Math.floor((c - SHARED_CLUSTERS) / OWN_CLUSTERS) === s;
      if (c >= SHARED_CLUSTERS && !own) return;
      lines.push(JSON.stringify({ url: `https://s${s}.example/${c}`, text: s % 2 === 1 ? text.toUpperCase() : text }));
      if (c % 5 === 0 && !own) lines.push(JSON.stringify({ url: `https://shared.example/${c}`, text }));
    });
    const file = join(dir, `shard-${s}.jsonl`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    return file;
  });
}

function corpusIds(dataDir: string): Array<{ id: number; url: string }> {
  let text = '';
  try {
    text = readFileSync(join(dataDir, 'corpus.jsonl'), 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { id: number; url: string });
}

describeWithPostgres('neardup dedup --index postgres:// in several processes', (server) => {
  it('stores one document per cluster between them; the corpora hold each stored document once, after a kill -9 and a re-run', async () => {
    const temp = tempDir('neardup-dedup-pg-');
    try {
      const url = await server().createDatabase(freshDatabaseName());
      const shards = writeShards(temp.dir);
      const dataDirs = shards.map((_, s) => join(temp.dir, `data-${s}`));
      for (const d of dataDirs) mkdirSync(d);
      // Shard 1 freezes after its second new stored document, before that document's corpus line.
      const runs = await Promise.all(shards.map((file, s) => dedup(file, dataDirs[s]!, url, s === 1 ? 2 : null)));
      runs.forEach((r, s) => {
        if (s === 1) expect(r.signal, r.stderr).toBe('SIGKILL');
        else expect(r.code, r.stderr).toBe(0);
      });
      // Killed after committing its second stored document, before that document's line (lines go in
      // one append per batch, so the first may be missing too); the re-run writes what is missing.
      expect(corpusIds(dataDirs[1]!).length).toBeLessThan(2);
      const again = await dedup(shards[1]!, dataDirs[1]!, url);
      expect(again.code, again.stderr).toBe(0);

      const index = await PgFingerprintIndex.open(url, { params: (await PgFingerprintIndex.readParams(url)), readonly: true });
      const stored: StoredDocument[] = [];
      try {
        for await (const doc of index.stored()) stored.push(doc);
        const stats = await index.stats();
        expect(stats.stored + stats.exact + stats.near).toBe(SHARDS * SHARED_CLUSTERS + SHARED_CLUSTERS / 5 + SHARDS * OWN_CLUSTERS);
      } finally {
        await index.close();
      }
      const clusterOf = (u: string) => u.split('/').at(-1);
      expect(stored).toHaveLength(CLUSTERS);
      expect(new Set(stored.map((d) => clusterOf(d.url))).size).toBe(CLUSTERS);
      // The corpora between them: every stored document once, nothing else.
      const lines = dataDirs.flatMap(corpusIds);
      expect(lines.map((l) => l.id).sort((a, b) => a - b)).toEqual(stored.map((d) => d.id).sort((a, b) => a - b));
      const byId = new Map(stored.map((d) => [d.id, d.url]));
      for (const line of lines) expect(line.url).toBe(byId.get(line.id));
    } finally {
      temp.remove();
    }
  }, 300_000);
});
