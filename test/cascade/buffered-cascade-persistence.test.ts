/** src/cascade/buffered-cascade-persistence.ts: what a batch wrote, flushed as one row per key. */
import { describe, expect, it } from 'vitest';
import { BufferedCascadePersistence, type CascadeRecordRow, type CascadeRowStore } from '../../src/cascade/buffered-cascade-persistence.js';
import type { FlagRow } from '../../src/cascade/flag-row.js';

describe('BufferedCascadePersistence.flush', () => {
  it('writes one flag row per (url, kind), the last written (a page judged again in its batch), as one PostgreSQL upsert needs', async () => {
    const inserted: FlagRow[][] = [];
    const rows: CascadeRowStore = {
      recordRowsAfter: async (): Promise<CascadeRecordRow[]> => [],
      insertRecordRows: async () => {},
      insertFlagRows: async (flags) => void inserted.push([...flags]),
      deleteFlagRows: async () => {},
    };
    const persistence = new BufferedCascadePersistence(rows);
    persistence.writeFlags([
      { url: 'a', docId: 1, kind: 'compiled', evidence: '{"first":1}' },
      { url: 'a', docId: 1, kind: 'generated', evidence: '{}' },
      { url: 'b', docId: 2, kind: 'compiled', evidence: '{}' },
    ]);
    persistence.writeFlags([{ url: 'a', docId: 1, kind: 'compiled', evidence: '{"again":1}' }]);
    await persistence.flush();
    expect(inserted).toHaveLength(1);
    expect(inserted[0]!.map((r) => `${r.url} ${r.kind} ${r.evidence}`).sort()).toEqual(['a compiled {"again":1}', 'a generated {}', 'b compiled {}']);
  });

  it('removes a flag taken back after it was written, and writes one given back after its removal', async () => {
    const inserted: string[] = [];
    const deleted: string[] = [];
    const persistence = new BufferedCascadePersistence({
      recordRowsAfter: async (): Promise<CascadeRecordRow[]> => [],
      insertRecordRows: async () => {},
      insertFlagRows: async (flags) => void inserted.push(...flags.map((r) => `${r.url} ${r.kind}`)),
      deleteFlagRows: async (keys) => void deleted.push(...keys.map((k) => `${k.url} ${k.kind}`)),
    });
    persistence.writeFlags([{ url: 'a', docId: 1, kind: 'compiled', evidence: '{}' }, { url: 'b', docId: 2, kind: 'compiled', evidence: '{}' }]);
    persistence.removeFlags([{ url: 'a', kind: 'compiled' }, { url: 'b', kind: 'compiled' }]);
    persistence.writeFlags([{ url: 'b', docId: 2, kind: 'compiled', evidence: '{"again":1}' }]);
    await persistence.flush();
    expect([inserted, deleted]).toEqual([['b compiled'], ['a compiled']]);
  });
});
