/**
 * The cascade on a PostgreSQL index: flags and records in neardup_flags / neardup_cascade_records,
 * records loaded by a second pipeline (another process's view), and the cluster report's flagged pages.
 */
import { rmSync } from 'node:fs';
import { expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { Pipeline } from '../../src/pipeline.js';
import { loadPgClusterReport } from '../../src/report/load-pg-cluster-report.js';
import { loadSynonymDictionary } from '../../src/synonyms/synonym-dictionary.js';
import { homoglyphCopy, spinText } from '../../scripts/cascade-variants.js';
import { describeWithPostgres, freshDatabaseName } from '../helpers/postgres-server.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { devTexts } from './dev-texts.js';

const config = loadConfig({ env: {} });

describeWithPostgres('the cascade on PostgreSQL', (server) => {
  it('keeps flags and records in its tables: a second writer compares with the first one\'s stored pages', async () => {
    const url = await server().createDatabase(freshDatabaseName());
    const dirs = [makeTempDir('neardup-pg-flags-'), makeTempDir('neardup-pg-flags-')];
    try {
      const first = await Pipeline.open({ dataDir: dirs[0]!, config, indexUrl: url });
      for (const [i, t] of devTexts.slice(0, 8).entries()) await first.process({ url: `http://src.test/${i}`, text: t.text });
      await first.close();
      const second = await Pipeline.open({ dataDir: dirs[1]!, config, indexUrl: url });
      const spun = spinText(devTexts[5]!.text, 'eng', loadSynonymDictionary(), 0.3, seededRandom(4)).text;
      await second.process({ url: 'http://made.test/spun', text: spun });
      await second.process({ url: 'http://made.test/spoofed', text: homoglyphCopy(devTexts[9]!.text, 0.4, seededRandom(3)) });
      expect(second.counters.flagged).toEqual({ synonymised: 1, homoglyph: 1 });
      await second.close();
      const report = await loadPgClusterReport(url, config);
      expect(report.flagged!.map((p) => `${p.url} ${p.kinds.join()}`)).toEqual(['http://made.test/spoofed homoglyph', 'http://made.test/spun synonymised']);
      expect(report.flagged![1]!.summary[0]).toContain('spins http://src.test/5');
    } finally {
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    }
  });

  it('takes a compiled flag back when a later page, from another writer, becomes the page\'s one main source', async () => {
    const url = await server().createDatabase(freshDatabaseName());
    const dirs = [makeTempDir('neardup-pg-flags-'), makeTempDir('neardup-pg-flags-')];
    const half = (text: string) => text.split(/\n\s*\n/).slice(0, Math.ceil(text.split(/\n\s*\n/).length / 2)).join('\n\n');
    const made = `${half(devTexts[1]!.text)}\n\n${half(devTexts[4]!.text)}`;
    const paragraphs = made.split(/\n\s*\n/);
    const most = paragraphs.slice(0, Math.ceil(0.9 * paragraphs.length)).join('\n\n');
    try {
      const first = await Pipeline.open({ dataDir: dirs[0]!, config, indexUrl: url });
      for (const i of [1, 4]) await first.process({ url: `http://src.test/${i}`, text: devTexts[i]!.text });
      await first.process({ url: 'http://made.test/p', text: made });
      expect(first.counters.flagged).toEqual({ compiled: 1 });
      await first.close();
      const flaggedNow = async () => (await loadPgClusterReport(url, config)).flagged!.map((p) => `${p.url} ${p.kinds.join()}`);
      expect(await flaggedNow()).toContain('http://made.test/p compiled');
      const second = await Pipeline.open({ dataDir: dirs[1]!, config, indexUrl: url });
      await second.process({ url: 'http://big.test/c', text: `${devTexts[2]!.text}\n\n${most}\n\n${devTexts[3]!.text}` });
      await second.close();
      expect(await flaggedNow()).not.toContain('http://made.test/p compiled');
    } finally {
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    }
  });
});
