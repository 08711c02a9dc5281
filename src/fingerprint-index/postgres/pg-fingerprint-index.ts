/**
 * The fingerprint index on PostgreSQL, for many writer processes on many machines: the same decisions
 * and records as the SQLite FingerprintIndex (fingerprint-index.ts), with an async API.
 *
 * Each process keeps its own in-memory table of the stored fingerprints (MemoryFingerprints), built on
 * open from one streamed COPY. A check-and-insert transaction (a batch of documents) takes the advisory
 * locks of every document's blocks and URL, in ascending order (lock-keys.ts has the argument
 * why two documents within k are then never both stored, without any global lock); then catches the
 * table up with the rows other writers committed (pg-catch-up.ts); then judges in memory (batch-judge.ts),
 * inserts, commits, and only then adds its own stored rows to the table. With the second stage
 * (`verify`, pg-second-stage.ts) the sketch keys are locked and caught up too, and the sketches of
 * candidates read inside the transaction.
 *
 * Faults (pg-session.ts): opening fails with one line; a lost server is waited for and the interrupted
 * transaction run again, which is safe because a URL's earlier decision is returned, never a second one.
 *
 * The in-memory table, second-stage keys and catch-up are pg-memory-view.ts's, the options and the cut
 * into transactions pg-index-options.ts's.
 */
import type pg from 'pg';
import { IndexError, ValidationError, describeValue } from '../../errors.js';
import type {
  Decision, Fingerprint, FingerprintParams, IndexCandidate, LinkRow, RejectedDocument, SkipReason, SkippedPage, StoredDocument,
} from '../../types.js';
import { blockLayout, type BlockLayout } from '../block-layout.js';
import type { IndexStats, Match } from '../fingerprint-index.js';
import type { IndexBackend } from '../index-backend.js';
import { assertFingerprint, assertLinks, assertSkip, assertTextHash, assertUrl } from '../index-options.js';
import { toRejected, toStored, type DocumentRow } from '../index-statements.js';
import type { SecondStageOptions } from '../second-stage.js';
import { BatchJudge, type InsertedRow } from './batch-judge.js';
import { addDocumentKeys, sortedKeys, urlLockKey } from './lock-keys.js';
import { allocatedIds, beginSql, commitSql, priorSql } from './pg-batch-sql.js';
import type { CatchUpRow } from './pg-catch-up.js';
import { assertCandidateForPg, documentColumns, priorDecisions, type PriorRow } from './pg-document-rows.js';
import { parsePgUrl } from './pg-errors.js';
import { batchEnd, resolvePgIndexOptions, type PgIndexOptions } from './pg-index-options.js';
import { PgMemoryView } from './pg-memory-view.js';
import { readStoredParams, setUpIndex } from './pg-setup.js';
import { PgSession } from './pg-session.js';

export type { PgIndexOptions } from './pg-index-options.js';

const PAGE_ROWS = 1000;

export class PgFingerprintIndex implements IndexBackend {
  readonly params: FingerprintParams;
  readonly layout: BlockLayout;
  /** The URL without its password. */
  readonly label: string;
  readonly readonly: boolean;
  readonly #session: PgSession;
  readonly #batchSize: number;
  readonly #writer: string | null;
  readonly #verify: SecondStageOptions | null;
  /** Columns read back for a document (documentColumns). */
  #columns = documentColumns(true);
  /** The in-memory table of stored fingerprints, second-stage keys and catch-up window. */
  readonly #view: PgMemoryView;
  #openSeconds = 0;

  private constructor(session: PgSession, params: FingerprintParams, readonly: boolean, batchSize: number, writer: string | null, verify: SecondStageOptions | null) {
    this.#session = session;
    this.#verify = verify;
    this.#writer = writer;
    this.params = params;
    this.layout = blockLayout(params.distance);
    this.label = session.target.label;
    this.readonly = readonly;
    this.#batchSize = batchSize;
    this.#view = new PgMemoryView(this.layout, verify);
  }

  /**
   * Connects to `url` (postgres://user:password@host:port/database), creates the schema in an empty
   * database, refuses other fingerprint parameters (ParameterMismatchError), and builds the in-memory
   * table (writers; read-only indexes build it on the first check). Failures: one-line IndexError.
   */
  static async open(url: string, options: PgIndexOptions): Promise<PgFingerprintIndex> {
    const target = parsePgUrl(url);
    const { params, batchSize, readonly, writer, verify } = resolvePgIndexOptions(options);
    const session = new PgSession(target, options);
    const started = performance.now();
    await session.open();
    try {
      const index = new PgFingerprintIndex(session, params, readonly, batchSize, writer, verify);
      const setUp = await session.transaction((client) => setUpIndex(client, params, index.layout, readonly, index.label));
      index.#columns = documentColumns(setUp.secondStage);
      if (!readonly) await index.#view.ensure(session);
      index.#openSeconds = (performance.now() - started) / 1000;
      return index;
    } catch (error) {
      await session.close();
      throw session.wrap(error);
    }
  }

  /** The connection, for tables kept beside the index (pg-cascade-tables.ts). @internal */
  get session(): PgSession {
    return this.#session;
  }

  /** The fingerprint parameters an index was made with. */
  static async readParams(url: string): Promise<FingerprintParams> {
    const session = new PgSession(parsePgUrl(url), {});
    await session.open();
    try {
      const stored = await session.run((client) => readStoredParams(client));
      if (stored === null) throw new IndexError(`${session.target.label} holds no neardup index`);
      return stored;
    } finally {
      await session.close();
    }
  }

  /** Seconds open() took (connect, schema check, in-memory table). */
  get openSeconds(): number {
    return this.#openSeconds;
  }

  /** Bytes of the in-memory table (0 before it is built). */
  get memoryBytes(): number {
    return this.#view.byteLength;
  }

  /**
   * The second stage's candidates in the database, since open: sketch rows read, and candidates its
   * in-memory bound dropped unread (pg-second-stage.ts); null when the stage is off or the table not
   * built yet. For tests and benchmarks. @internal
   */
  get secondStageCounts(): { readonly read: number; readonly dropped: number } | null {
    return this.#view.second === null ? null : this.#view.sketchCounts;
  }

  /** The stored document a fingerprint matches (exact first, else the nearest; ties: the lowest id), or null. */
  async check(fingerprint: Fingerprint | null, textHash: string): Promise<Match | null> {
    assertFingerprint(fingerprint, true);
    assertTextHash(textHash);
    if (fingerprint === null) return null;
    const memory = await this.#view.ensure(this.#session);
    return this.#session.run(async (client) => {
      await this.#view.catchUp(client);
      const row = new BatchJudge([{ url: '\0check', fingerprint, textHash }], new Map(), [0], memory).rows[0]!;
      if (row.matchId === null) return null;
      const { rows } = await client.query({
        text: 'SELECT url, text_hash FROM neardup_documents WHERE id = $1', values: [row.matchId], rowMode: 'array',
      });
      const [url, storedHash] = rows[0] as [string, string];
      const exact = row.distance === 0 && storedHash === textHash;
      return { id: row.matchId, url, kind: exact ? 'exact' : 'near', distance: row.distance! };
    });
  }

  /** Judges and records a document, atomically across processes and machines (see the module comment). */
  async checkAndInsert(doc: IndexCandidate): Promise<Decision> {
    assertCandidateForPg(doc);
    this.#assertWritable();
    return (await this.#judgeBatch([doc]))[0]!;
  }

  /**
   * checkAndInsert for many documents, in order (later ones see earlier ones), in transactions of
   * `batchSize` documents (each atomic; a crash between two leaves the earlier ones recorded).
   */
  async checkAndInsertMany(docs: readonly IndexCandidate[]): Promise<Decision[]> {
    if (!Array.isArray(docs)) throw new ValidationError(`Expected an array of documents, got ${describeValue(docs)}`);
    for (const doc of docs) assertCandidateForPg(doc);
    this.#assertWritable();
    const out: Decision[] = [];
    const perDoc = this.layout.count + 1;
    for (let at = 0; at < docs.length;) {
      const end = batchEnd(docs, at, this.#batchSize, perDoc, this.#verify);
      out.push(...(await this.#judgeBatch(docs.slice(at, end))));
      at = end;
    }
    return out;
  }

  /** Records a page that was not judged, with its reason; returns its decision: this skip, or the earlier one (marked `repeated`, nothing written). */
  async recordSkip(url: string, reason: SkipReason, detail: string | null = null): Promise<Decision> {
    assertSkip(url, reason, detail);
    this.#assertWritable();
    return this.#session.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [urlLockKey(url)]);
      const result = await client.query(
        `INSERT INTO neardup_skipped (url, reason, detail, at) SELECT $1, $2, $3, $4
         WHERE NOT EXISTS (SELECT 1 FROM neardup_documents WHERE url = $1) ON CONFLICT (url) DO NOTHING`,
        [url, reason, detail, Date.now()],
      );
      if ((result.rowCount ?? 0) > 0) return { kind: 'skipped', reason };
      const prior = await client.query({ text: priorSql('ARRAY[$1::text]'), values: [url], rowMode: 'array' });
      const earlier = priorDecisions(prior.rows as PriorRow[]).get(url);
      if (earlier === undefined) throw new IndexError(`The PostgreSQL index kept no decision for \`${url}\` it refused to record a skip for`);
      return { ...earlier, repeated: true };
    });
  }

  /** Records the links of a page (distinct from → to pairs; a self-link is ignored); `mainUrls`: those inside its main text. */
  async recordLinks(fromUrl: string, toUrls: readonly string[], mainUrls: readonly string[] = []): Promise<void> {
    assertLinks(fromUrl, toUrls);
    this.#assertWritable();
    const targets = [...new Set(toUrls)].filter((to) => to !== fromUrl);
    if (targets.length === 0) return;
    const main = new Set(mainUrls);
    const inMain = targets.map((to) => (main.has(to) ? 1 : 0));
    // A link seen in the main text once stays a citation (the same pair from a re-crawl may lack it).
    await this.#session.run((client) =>
      client.query(
        `INSERT INTO neardup_links (to_url, from_url, in_main) SELECT t, $2, m FROM unnest($1::text[], $3::smallint[]) AS u(t, m)
         ON CONFLICT (to_url, from_url) DO UPDATE SET in_main = GREATEST(neardup_links.in_main, excluded.in_main)`,
        [targets, fromUrl, inMain],
      ),
    );
  }

  /**
   * Every recorded link (distinct from → to pairs, with in_main); report/citation-counts.ts turns them
   * into in-links. A read-only index made before in_main has no such column: its links read as 0.
   */
  async linkRows(): Promise<LinkRow[]> {
    // `*`: in_main is the third column when present (ADD COLUMN appends), absent on an old read-only index.
    return this.#rows<[string, string, number?]>('SELECT * FROM neardup_links', []);
  }

  /** A stored document by id (undefined for rejected and unknown ids). */
  async get(id: number): Promise<StoredDocument | undefined> {
    if (!Number.isSafeInteger(id)) throw new ValidationError(`Expected \`id\` to be an integer, got ${describeValue(id)}`);
    const { rows } = await this.#session.run((c) =>
      c.query<DocumentRow>(`SELECT ${this.#columns} FROM neardup_documents WHERE id = $1 AND kind = 'stored'`, [id]),
    );
    return rows.length === 0 ? undefined : toStored(rows[0]!);
  }

  /** The stored or rejected document recorded for a URL. */
  async getByUrl(url: string): Promise<StoredDocument | RejectedDocument | undefined> {
    assertUrl(url);
    const { rows } = await this.#session.run((c) => c.query<DocumentRow>(`SELECT ${this.#columns} FROM neardup_documents WHERE url = $1`, [url]));
    if (rows.length === 0) return undefined;
    return rows[0]!.kind === 'stored' ? toStored(rows[0]!) : toRejected(rows[0]!);
  }

  /**
   * Runs `body` with the stored documents among `ids` that this writer stored: its corpus (one per
   * writer's data folder) holds their lines, and no other's does. No lock: only this process appends
   * to that corpus (IndexBackend).
   */
  async corpusTransaction<T>(ids: readonly number[], body: (docs: ReadonlyMap<number, StoredDocument>) => T): Promise<T> {
    const docs = new Map<number, StoredDocument>();
    if (ids.length > 0 && this.#writer !== null) {
      const { rows } = await this.#session.run((c) =>
        c.query<DocumentRow>(
          `SELECT ${this.#columns} FROM neardup_documents WHERE id = ANY($1::bigint[]) AND kind = 'stored' AND writer = $2`,
          [ids, this.#writer],
        ),
      );
      for (const row of rows) docs.set(row.id, toStored(row));
    }
    return body(docs);
  }

  /** Every stored document, by id. */
  async *stored(): AsyncIterableIterator<StoredDocument> {
    for await (const row of this.#pages("kind = 'stored'")) yield toStored(row);
  }

  /** Every rejected duplicate, by id. */
  async *rejected(): AsyncIterableIterator<RejectedDocument> {
    for await (const row of this.#pages("kind <> 'stored'")) yield toRejected(row);
  }

  /** Every skipped page, by URL. */
  async *skipped(): AsyncIterableIterator<SkippedPage> {
    let after = '';
    for (;;) {
      const rows = await this.#rows<[string, SkipReason, string | null, number]>(
        `SELECT url, reason, detail, at::float8 FROM neardup_skipped WHERE url > $1 ORDER BY url LIMIT ${PAGE_ROWS}`, [after],
      );
      for (const [url, reason, detail, at] of rows) yield { url, reason, detail, at };
      if (rows.length < PAGE_ROWS) return;
      after = rows[rows.length - 1]![0];
    }
  }

  /** Rows per kind (counted: a shared counter row would serialise every writer). */
  async stats(): Promise<IndexStats> {
    const rows = await this.#rows<[keyof IndexStats, number]>(
      `SELECT kind, count(*)::float8 FROM neardup_documents GROUP BY kind
       UNION ALL SELECT 'skipped', count(*)::float8 FROM neardup_skipped`, [],
    );
    const counts: { -readonly [K in keyof IndexStats]: number } = { stored: 0, exact: 0, near: 0, similar: 0, skipped: 0 };
    for (const [kind, n] of rows) counts[kind] = n;
    return counts;
  }

  /** Closes the connection. Further calls throw IndexError. */
  async close(): Promise<void> {
    this.#view.drop();
    await this.#session.close();
  }

  // ------------------------------------------------------------------ internals

  #assertWritable(): void {
    if (this.readonly) throw new IndexError(`Index ${this.label} is open read-only`);
  }

  /** One transaction in two round trips (pg-batch-sql.ts): locks, catch-up, earlier decisions, ids; inserts. */
  async #judgeBatch(docs: readonly IndexCandidate[]): Promise<Decision[]> {
    const memory = await this.#view.ensure(this.#session);
    const second = this.#view.second;
    const keys = new Set<number>();
    for (const doc of docs) addDocumentKeys(doc, this.layout, keys, second === null ? null : (sketch) => second.keysOf(sketch));
    const lockKeys = sortedKeys(keys);
    const urls = [...new Set(docs.map((d) => d.url))];
    const idCount = docs.filter((d) => d.fingerprint !== null).length;
    const { decisions, judge, xid } = await this.#session.run(async (client) => {
      try {
        const begin = beginSql(lockKeys, this.#view.window, urls, idCount, second?.headBytes ?? 0);
        const first = (await client.query({ text: begin, rowMode: 'array' })) as unknown as pg.QueryArrayResult[];
        this.#view.applyCatchUp(first[2]!.rows[0] as CatchUpRow);
        const prior = priorDecisions(first[3]!.rows as PriorRow[]);
        const ids = allocatedIds((first[4]!.rows[0] as [string | null])[0]);
        const sketches = second === null ? null : { stage: second, rows: await this.#view.candidateSketches(client, docs, prior) };
        const judge = new BatchJudge(docs, prior, ids, memory, sketches);
        const text = commitSql(this.layout, judge.rows, judge.skips, Date.now(), this.#writer);
        const reply = (await client.query({ text, rowMode: 'array' })) as unknown as pg.QueryArrayResult | pg.QueryArrayResult[];
        const results = Array.isArray(reply) ? reply : [reply];
        const inserted = new Map<number, InsertedRow>();
        let xid = 0;
        if (judge.rows.length > 0) {
          for (const [rowXid, id, kind, matchUrl] of results[0]!.rows as [string | null, number | null, 'exact' | 'near' | null, string | null][]) {
            if (rowXid !== null) xid = Number(rowXid);
            else inserted.set(id!, { kind: kind!, matchUrl: matchUrl! });
          }
        }
        return { decisions: judge.decisions(inserted), judge, xid };
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
    // Committed: only now do this process's own stored rows join its table.
    this.#view.committed(memory, judge.stored, judge.rows, xid);
    return decisions;
  }

  async #rows<T extends unknown[]>(text: string, values: unknown[]): Promise<T[]> {
    const result = await this.#session.run((client) => client.query({ text, values, rowMode: 'array' }));
    return result.rows as T[];
  }

  async *#pages(where: string): AsyncGenerator<DocumentRow> {
    let after = 0;
    for (;;) {
      const { rows } = await this.#session.run((c) =>
        c.query<DocumentRow>(`SELECT ${this.#columns} FROM neardup_documents WHERE ${where} AND id > $1 ORDER BY id LIMIT ${PAGE_ROWS}`, [after]),
      );
      yield* rows;
      if (rows.length < PAGE_ROWS) return;
      after = rows[rows.length - 1]!.id;
    }
  }
}
