/**
 * The primary swap: a document judged a duplicate takes the place of the stored document of its
 * cluster, which becomes its duplicate (src/pipeline.ts decides when, by the evidence of
 * src/primary/prefer-primary.ts). SQLite and PostgreSQL alike; a new file beside the index so that
 * the index's own judging code (document-judge.ts, postgres/batch-judge.ts) is unchanged.
 *
 * Invariants
 * - Only a challenger with the stored document's very fingerprint may take its place (an exact
 *   duplicate, or the rare near one at distance 0). So no table of fingerprints needs to change, in
 *   this process or any other: every in-memory table, here and in other processes, still holds the
 *   displaced row's fingerprint, which is the new stored document's, and "two stored documents are
 *   never within k" holds as before. A lookup that lands on a displaced row finds its `match_id`
 *   pointing at the document that took its place (`storedOf` follows such pointers); an exact lookup
 *   by text hash (kind = 'stored') finds the new document directly; a table rebuilt from the
 *   database holds the new document instead of the old.
 * - One transaction changes both rows (and the counters: one stored row, one duplicate row, as
 *   before): the challenger becomes `stored` (with the sketch of the row it replaces: the same text),
 *   the displaced row becomes an `exact` duplicate of it (or `near` at distance 0 when the texts
 *   differ only where the fingerprint does not see). Both rows are re-read under the lock
 *   (SQLite: BEGIN IMMEDIATE; PostgreSQL: FOR UPDATE), and nothing happens when another process
 *   changed either meanwhile.
 * - The corpus follows in the pipeline, after the commit: the new line, and a tombstone for the
 *   displaced line (src/store/corpus-writer.ts, invariant 6). A kill between the two is repaired by
 *   the next run: the page is processed again (its request was never marked done) and gets its line,
 *   and opening the pipeline supersedes every line whose document is no longer stored (`displacedAmong`).
 */
import { IndexError } from '../errors.js';
import type { IndexBackend } from './index-backend.js';
import { SqliteIndexBackend } from './sqlite-index-backend.js';
import { PgFingerprintIndex } from './postgres/pg-fingerprint-index.js';

/** What the primary choice reads of one side of a swap. */
export interface SwapContender {
  readonly id: number;
  readonly kind: 'stored' | 'exact' | 'near' | 'similar';
  readonly url: string;
  readonly finalUrl: string | null;
  readonly canonicalUrl: string | null;
  readonly publishedAt: string | null;
  readonly lastModified: string | null;
  readonly textLength: number | null;
  readonly depth: number | null;
  /** Pages recorded as linking to `url` (or `finalUrl`). */
  readonly linkedFrom: readonly string[];
}

/** A duplicate and the stored document of its cluster. */
export interface SwapContenders {
  readonly stored: SwapContender;
  readonly challenger: SwapContender;
  /** The challenger's fingerprint is the stored one's: it may take its place. */
  readonly sameFingerprint: boolean;
}

/** The swap's operations on one index. */
export interface PrimarySwapStore {
  /**
   * The challenger's row and the stored document of its cluster (following the pointers of
   * displaced rows), or null when the challenger is stored, unknown, or its cluster has no stored
   * document.
   */
  contenders(challengerId: number): Promise<SwapContenders | null>;
  /** The challenger takes the stored document's place, in one transaction; false when either row changed meanwhile. */
  swap(challengerId: number, storedId: number): Promise<boolean>;
  /**
   * Records a host mirror confirmed by this process, for the other processes of the index (each
   * confirms from the verdicts it sees; a partitioned crawl's mirror host may be crawled by another).
   */
  publishMirror(mirror: SharedMirror): Promise<void>;
  /** Every host mirror recorded by any process of the index. */
  sharedMirrors(): Promise<SharedMirror[]>;
  /** Of `ids`, those whose row is a duplicate now (a stored document displaced by a swap): their corpus lines are superseded. */
  displacedAmong(ids: readonly number[]): Promise<Set<number>>;
}

/** A host mirror as processes share it. */
export interface SharedMirror {
  readonly mirror: string;
  readonly original: string;
  readonly copies: number;
  readonly judged: number;
}

/** The table of shared mirrors (SQLite and PostgreSQL alike); created on first use. */
const MIRRORS_TABLE = 'CREATE TABLE IF NOT EXISTS neardup_host_mirrors (mirror TEXT PRIMARY KEY, original TEXT NOT NULL, copies INTEGER NOT NULL, judged INTEGER NOT NULL)';

/** Most displaced rows followed from a duplicate to its cluster's stored document (a chain longer than this is a damaged index). */
const maxHops = 16;

type Row = {
  id: number; kind: SwapContender['kind']; url: string; final_url: string | null; canonical_url: string | null;
  published_at: string | null; last_modified: string | null; text_length: number | null; depth: number | null;
  match_id: number | null; text_hash: string; fingerprint: string;
};

const COLUMNS = 'id, kind, url, final_url, canonical_url, published_at, last_modified, text_length, depth, match_id, text_hash, CAST(fingerprint AS TEXT) AS fingerprint';

function contender(row: Row, linkedFrom: readonly string[]): SwapContender {
  return {
    id: Number(row.id), kind: row.kind, url: row.url, finalUrl: row.final_url, canonicalUrl: row.canonical_url, publishedAt: row.published_at,
    lastModified: row.last_modified, textLength: row.text_length === null ? null : Number(row.text_length),
    depth: row.depth === null ? null : Number(row.depth), linkedFrom,
  };
}

/** Follows a duplicate's pointers to the stored document of its cluster. */
async function resolve(read: (id: number) => Promise<Row | undefined>, challengerId: number): Promise<{ challenger: Row; stored: Row } | null> {
  const challenger = await read(challengerId);
  if (challenger === undefined || challenger.kind === 'stored' || challenger.match_id === null) return null;
  let row = await read(Number(challenger.match_id));
  for (let hop = 0; row !== undefined && row.kind !== 'stored' && hop < maxHops; hop++) {
    row = row.match_id === null ? undefined : await read(Number(row.match_id));
  }
  return row === undefined || row.kind !== 'stored' ? null : { challenger, stored: row };
}

/** The swap on a SQLite index: statements run under the index's write lock (FingerprintIndex.exclusive). */
class SqlitePrimarySwap implements PrimarySwapStore {
  readonly #backend: SqliteIndexBackend;

  constructor(backend: SqliteIndexBackend) {
    this.#backend = backend;
  }

  async contenders(challengerId: number): Promise<SwapContenders | null> {
    return this.#backend.index.exclusive((db) => {
      const byId = db.prepare(`SELECT ${COLUMNS} FROM documents WHERE id = ?`);
      const links = db.prepare('SELECT from_url FROM links WHERE to_url = ?').pluck();
      let found: { challenger: Row; stored: Row } | null = null;
      // Synchronous inside the transaction: resolve's awaits run on values already read.
      const rows = new Map<number, Row | undefined>();
      let next: number | null = challengerId;
      for (let hop = 0; next !== null && hop <= maxHops + 1; hop++) {
        const row = byId.get(next) as Row | undefined;
        rows.set(next, row);
        next = row === undefined || (row.kind === 'stored' && hop > 0) || row.match_id === null ? null : Number(row.match_id);
      }
      const challenger = rows.get(challengerId);
      if (challenger !== undefined && challenger.kind !== 'stored') {
        const stored = [...rows.values()].find((r) => r !== undefined && r.kind === 'stored');
        if (stored !== undefined) found = { challenger, stored };
      }
      if (found === null) return null;
      const linked = (row: Row) => [...new Set([
        ...(links.all(row.url) as string[]), ...(row.final_url === null ? [] : (links.all(row.final_url) as string[])),
      ])];
      return {
        stored: contender(found.stored, linked(found.stored)),
        challenger: contender(found.challenger, linked(found.challenger)),
        sameFingerprint: found.stored.fingerprint === found.challenger.fingerprint,
      };
    });
  }

  async swap(challengerId: number, storedId: number): Promise<boolean> {
    return this.#backend.index.exclusive((db) => {
      const read = db.prepare('SELECT kind, CAST(fingerprint AS TEXT) AS fingerprint, text_hash FROM documents WHERE id = ?');
      const challenger = read.get(challengerId) as { kind: string; fingerprint: string; text_hash: string } | undefined;
      const stored = read.get(storedId) as { kind: string; fingerprint: string; text_hash: string } | undefined;
      if (challenger === undefined || stored === undefined || stored.kind !== 'stored' || challenger.kind === 'stored') return false;
      if (challenger.fingerprint !== stored.fingerprint) return false;
      const displacedKind = challenger.text_hash === stored.text_hash ? 'exact' : 'near';
      db.prepare(
        `UPDATE documents SET kind = 'stored', distance = NULL, match_id = NULL, similarity = NULL, containment = NULL,
           sketch = (SELECT sketch FROM documents WHERE id = ?) WHERE id = ?`,
      ).run(storedId, challengerId);
      db.prepare('UPDATE documents SET kind = ?, distance = 0, match_id = ?, similarity = NULL, containment = NULL WHERE id = ?')
        .run(displacedKind, challengerId, storedId);
      // One stored row and one duplicate row, as before: only the duplicate's kind may move.
      const bump = db.prepare('UPDATE counters SET value = value + ? WHERE name = ?');
      if (challenger.kind !== displacedKind) {
        bump.run(-1, challenger.kind);
        bump.run(1, displacedKind);
      }
      return true;
    });
  }

  async publishMirror(m: SharedMirror): Promise<void> {
    this.#backend.index.exclusive((db) => {
      db.exec(MIRRORS_TABLE);
      db.prepare('INSERT INTO neardup_host_mirrors (mirror, original, copies, judged) VALUES (?, ?, ?, ?) ON CONFLICT (mirror) DO NOTHING')
        .run(m.mirror, m.original, m.copies, m.judged);
    });
  }

  async sharedMirrors(): Promise<SharedMirror[]> {
    return this.#backend.index.exclusive((db) => {
      db.exec(MIRRORS_TABLE);
      return (db.prepare('SELECT mirror, original, copies, judged FROM neardup_host_mirrors').all() as SharedMirror[])
        .map((m) => ({ ...m, copies: Number(m.copies), judged: Number(m.judged) }));
    });
  }

  async displacedAmong(ids: readonly number[]): Promise<Set<number>> {
    const out = new Set<number>();
    if (ids.length === 0) return out;
    return this.#backend.index.exclusive((db) => {
      const query = db.prepare("SELECT id FROM documents WHERE id IN (SELECT value FROM json_each(?)) AND kind <> 'stored'").pluck();
      for (let at = 0; at < ids.length; at += 5000) {
        for (const id of query.all(JSON.stringify(ids.slice(at, at + 5000))) as number[]) out.add(Number(id));
      }
      return out;
    });
  }
}

/** The swap on a PostgreSQL index: rows locked FOR UPDATE, the stored row's writer moved to the swapping process. */
class PgPrimarySwap implements PrimarySwapStore {
  readonly #index: PgFingerprintIndex;
  readonly #writer: string;

  constructor(index: PgFingerprintIndex, writer: string) {
    this.#index = index;
    this.#writer = writer;
  }

  async contenders(challengerId: number): Promise<SwapContenders | null> {
    return this.#index.session.run(async (client) => {
      const read = async (id: number) => (await client.query<Row>(`SELECT ${COLUMNS} FROM neardup_documents WHERE id = $1`, [id])).rows[0];
      const found = await resolve(read, challengerId);
      if (found === null) return null;
      const linked = async (row: Row) => {
        const { rows } = await client.query<{ from_url: string }>('SELECT DISTINCT from_url FROM neardup_links WHERE to_url = $1 OR to_url = $2', [row.url, row.final_url ?? row.url]);
        return rows.map((r) => r.from_url);
      };
      return {
        stored: contender(found.stored, await linked(found.stored)),
        challenger: contender(found.challenger, await linked(found.challenger)),
        sameFingerprint: found.stored.fingerprint === found.challenger.fingerprint,
      };
    });
  }

  async swap(challengerId: number, storedId: number): Promise<boolean> {
    return this.#index.session.transaction(async (client) => {
      const { rows } = await client.query<{ id: string; kind: string; fingerprint: string; text_hash: string }>(
        'SELECT id, kind, fingerprint::text AS fingerprint, text_hash FROM neardup_documents WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE',
        [[challengerId, storedId]],
      );
      const challenger = rows.find((r) => Number(r.id) === challengerId);
      const stored = rows.find((r) => Number(r.id) === storedId);
      if (challenger === undefined || stored === undefined || stored.kind !== 'stored' || challenger.kind === 'stored') return false;
      if (challenger.fingerprint !== stored.fingerprint) return false;
      const displacedKind = challenger.text_hash === stored.text_hash ? 'exact' : 'near';
      await client.query(
        `UPDATE neardup_documents SET kind = 'stored', distance = NULL, match_id = NULL, similarity = NULL, containment = NULL, writer = $2 WHERE id = $1`,
        [challengerId, this.#writer],
      );
      await client.query('UPDATE neardup_documents SET kind = $1, distance = 0, match_id = $2, similarity = NULL, containment = NULL WHERE id = $3', [displacedKind, challengerId, storedId]);
      await client.query('INSERT INTO neardup_sketches (id, sketch) SELECT $1, sketch FROM neardup_sketches WHERE id = $2 ON CONFLICT DO NOTHING', [challengerId, storedId]);
      return true;
    });
  }

  #tableMade = false;

  async #table(client: import('pg').Client): Promise<void> {
    if (this.#tableMade) return;
    // Concurrent CREATE TABLE IF NOT EXISTS can collide in the catalog: serialised by a transaction lock.
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock(1852077424)');
      await client.query(MIRRORS_TABLE);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
    this.#tableMade = true;
  }

  async publishMirror(m: SharedMirror): Promise<void> {
    await this.#index.session.run(async (client) => {
      await this.#table(client);
      await client.query('INSERT INTO neardup_host_mirrors (mirror, original, copies, judged) VALUES ($1, $2, $3, $4) ON CONFLICT (mirror) DO NOTHING', [m.mirror, m.original, m.copies, m.judged]);
    });
  }

  async sharedMirrors(): Promise<SharedMirror[]> {
    return this.#index.session.run(async (client) => {
      await this.#table(client);
      const { rows } = await client.query<SharedMirror>('SELECT mirror, original, copies, judged FROM neardup_host_mirrors');
      return rows.map((m) => ({ ...m, copies: Number(m.copies), judged: Number(m.judged) }));
    });
  }

  async displacedAmong(ids: readonly number[]): Promise<Set<number>> {
    const out = new Set<number>();
    if (ids.length === 0) return out;
    const { rows } = await this.#index.session.run((client) =>
      client.query<{ id: string }>("SELECT id FROM neardup_documents WHERE id = ANY($1::bigint[]) AND kind <> 'stored'", [ids]));
    for (const row of rows) out.add(Number(row.id));
    return out;
  }
}

/** The swap store of an index (SQLite or PostgreSQL); `writer` is this process's writer id (PostgreSQL). */
export function primarySwapStore(index: IndexBackend, writer: () => string): PrimarySwapStore {
  if (index instanceof SqliteIndexBackend) return new SqlitePrimarySwap(index);
  if (index instanceof PgFingerprintIndex) return new PgPrimarySwap(index, writer());
  throw new IndexError(`The primary swap does not know index \`${index.label}\``);
}
