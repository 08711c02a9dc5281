/**
 * The shared frontier of a partitioned crawl (`--partition i/N` with `--index postgres://...`): one
 * table in the index's database (pg-frontier-schema.ts) that every crawler process adds the links it
 * finds to, and from which each process claims the rows of its own partition (crawl-partition.ts).
 *
 * Guarantees, and what makes them hold:
 * 1. One owner per partition. The owner holds a session-level advisory lock on its partition for as
 *    long as it runs; a second process for the same partition is refused at once (CrawlLockedError).
 *    The operating system and the server drop the lock with the connection, however the process ends.
 *    If the connection is lost and comes back (pg-session.ts), the lock is taken again on the new
 *    connection before any other statement; a process that cannot get it back stops.
 * 2. Each URL fetched once in all. A URL has one row (its normalised URL is the primary key; a URL
 *    found again is `ON CONFLICT DO NOTHING`); only the owner of the row's partition claims it, and
 *    claims only pending rows. A row is marked done only after its page's verdict is committed and its
 *    links are inserted (the same invariant as the frontier journal, frontier-journal.ts).
 * 3. Nothing lost to kill -9. Rows claimed by a run that died stay `claimed`; the next owner of the
 *    partition, holding the lock (so no other process is working on them), puts them back to pending
 *    before it claims anything. A page fetched by the dead run whose `done` was not written is
 *    fetched again; the index answers a URL it judged before with its earlier decision, so nothing is
 *    stored twice (the cost is one refetch per page in flight at the kill).
 *
 * Every statement runs on one connection, one at a time (the lock is a property of that connection).
 */
import type pg from 'pg';
import { CrawlLockedError, IndexError, ValidationError } from '../errors.js';
import { PgSession, type PgSessionOptions } from '../fingerprint-index/postgres/pg-session.js';
import { parsePgUrl } from '../fingerprint-index/postgres/pg-errors.js';
import { partitionLabel, type CrawlPartition } from './crawl-partition.js';
import { HostPartitions, hostPartitionSchema, resetAssignment, setUpAssignment } from './pg-host-partitions.js';
import {
  CLAIM_SQL, DONE_SQL, FRONTIER_CLASS, FRONTIER_SETUP_LOCK, INSERT_SQL, OPEN_ROWS_SQL, PARTITION_COUNTS_SQL, UNCLAIM_SQL, pgFrontierSchema,
} from './pg-frontier-schema.js';

/** A frontier row handed to this process. */
export interface FrontierRow {
  readonly uniqueKey: string;
  readonly url: string;
  readonly crawlDepth: number;
}

/** Rows not done, across the crawl, as one statement saw them. */
export interface FrontierStatus {
  /** Rows not done in partitions whose owner runs now (this process's included). */
  readonly openOwned: number;
  /** Rows not done in partitions with no running owner, by partition. */
  readonly openOrphaned: ReadonlyMap<number, number>;
  /** Rows of this process's partition not done. */
  readonly openOwn: number;
}

export interface PgFrontierOptions extends PgSessionOptions {
  /** This run's id, recorded in the rows it claims. */
  readonly runId: string;
  /** How long a lost lock may take to come back on a new connection (the server may still hold the old one). @default 30000 */
  readonly relockForMs?: number;
  /** Frontier rows of one registrable domain past which its new hosts get partitions of their own. @default 20000 (pg-host-partitions.ts) */
  readonly splitDomainRows?: number;
}

/** What opening found. */
export interface FrontierOpening {
  /** Rows of this partition handled by earlier runs. */
  readonly handledBefore: number;
  /** Rows claimed by an earlier run of this partition that did not finish them, pending again. */
  readonly takenBack: number;
  /** Rows of this partition pending (taken-back ones included). */
  readonly pendingBefore: number;
}

export class PgFrontier {
  readonly partition: CrawlPartition;
  readonly #session: PgSession;
  readonly #runId: string;
  readonly #relockForMs: number;
  /** The connection holding the partition's lock (a new one after a reconnect must take it again). */
  #lockedClient: pg.Client | null = null;
  /** Statements in order, one at a time. */
  #chain: Promise<unknown> = Promise.resolve();
  /** Hosts' partitions (pg-host-partitions.ts); set by open. */
  #hosts: HostPartitions | null = null;

  private constructor(session: PgSession, partition: CrawlPartition, options: PgFrontierOptions) {
    this.#session = session;
    this.partition = partition;
    this.#runId = options.runId;
    this.#relockForMs = options.relockForMs ?? 30_000;
  }

  /**
   * Connects, creates the frontier if missing, checks the crawl's partition count, takes the
   * partition's lock (CrawlLockedError if another process has it) and takes back what a dead run left
   * claimed. Every failure is a one-line error.
   */
  static async open(indexUrl: string, partition: CrawlPartition, options: PgFrontierOptions): Promise<{ frontier: PgFrontier; opening: FrontierOpening }> {
    const session = new PgSession(parsePgUrl(indexUrl), options);
    await session.open();
    const frontier = new PgFrontier(session, partition, options);
    try {
      frontier.#hosts = await session.transaction(async (client) => {
        await client.query('SELECT pg_advisory_xact_lock($1::int, $2::int)', [FRONTIER_CLASS, FRONTIER_SETUP_LOCK]);
        for (const statement of [...pgFrontierSchema, ...hostPartitionSchema]) await client.query(statement);
        const mode = await setUpAssignment(client);
        await checkPartitionCount(client, partition);
        return new HostPartitions(partition.count, mode, options.splitDomainRows);
      });
      const opening = await frontier.#serial(async (client) => {
        const taken = await client.query(UNCLAIM_SQL, [partition.index, null]);
        const counts = await client.query<{ done: number; open: number }>(PARTITION_COUNTS_SQL, [partition.index]);
        return { handledBefore: counts.rows[0]!.done, pendingBefore: counts.rows[0]!.open, takenBack: taken.rowCount ?? 0 };
      });
      return { frontier, opening };
    } catch (error) {
      await session.close();
      throw session.wrap(error);
    }
  }

  /** The partitions of hosts (assigned on first sight: pg-host-partitions.ts). */
  partitionsOf(hosts: Iterable<string>): Promise<Map<string, number>> {
    return this.#serial((client) => this.#hosts!.partitionsOf(client, hosts));
  }

  /** Whether any host of the crawl is in this process's partition (a process with none has nothing to do). */
  hasOwnHosts(): Promise<boolean> {
    return this.#serial((client) => this.#hosts!.hasHosts(client, this.partition.index));
  }

  /** Adds rows for URLs not in the frontier yet; resolves with how many of the new rows are this partition's. */
  async insert(rows: readonly (FrontierRow & { readonly part: number })[]): Promise<number> {
    if (rows.length === 0) return 0;
    const params = [rows.map((r) => r.uniqueKey), rows.map((r) => r.url), rows.map((r) => r.part), rows.map((r) => r.crawlDepth)];
    return this.#serial(async (client) => {
      const result = await client.query<{ part: number; inserted: boolean; url: string }>(INSERT_SQL, params);
      const inserted = result.rows.filter((row) => row.inserted);
      await this.#hosts!.countRows(client, inserted.map((row) => hostOfUrl(row.url)));
      return inserted.filter((row) => row.part === this.partition.index).length;
    });
  }

  /** Claims up to `limit` pending rows of this partition, oldest first. */
  async claim(limit: number): Promise<FrontierRow[]> {
    if (limit <= 0) return [];
    return this.#serial(async (client) => {
      const result = await client.query<{ key: string; url: string; depth: number; seq: string }>(CLAIM_SQL, [this.partition.index, this.#runId, limit]);
      return result.rows.sort((a, b) => Number(a.seq) - Number(b.seq)).map((r) => ({ uniqueKey: r.key, url: r.url, crawlDepth: r.depth }));
    });
  }

  /** Marks rows of this partition done. */
  async done(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.#serial((client) => client.query(DONE_SQL, [this.partition.index, keys]));
  }

  /** Puts claimed rows of this partition back to pending (a run stopping before it handled them). */
  async unclaim(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.#serial((client) => client.query(UNCLAIM_SQL, [this.partition.index, keys]));
  }

  /** Rows not done across the crawl, and whose partitions have a running owner. */
  async status(): Promise<FrontierStatus> {
    return this.#serial(async (client) => {
      const result = await client.query<{ part: number; state: string; n: number; owned: boolean }>(OPEN_ROWS_SQL, [FRONTIER_CLASS]);
      let openOwned = 0;
      let openOwn = 0;
      const openOrphaned = new Map<number, number>();
      for (const row of result.rows) {
        if (row.part === this.partition.index) openOwn += row.n;
        // This process's partition is owned by it, whatever pg_locks said of a connection just renewed.
        if (row.owned || row.part === this.partition.index) openOwned += row.n;
        else openOrphaned.set(row.part, (openOrphaned.get(row.part) ?? 0) + row.n);
      }
      return { openOwned, openOrphaned, openOwn };
    });
  }

  /** Closes the connection (which releases the partition's lock). */
  async close(): Promise<void> {
    await this.#chain.catch(() => undefined);
    await this.#session.close();
  }

  /** Runs `body` after every statement queued before it, on a connection that holds the partition's lock. */
  #serial<T>(body: (client: pg.Client) => Promise<T>): Promise<T> {
    const run = () => this.#session.run(async (client) => {
      if (client !== this.#lockedClient) await this.#lock(client, this.#lockedClient !== null);
      return body(client);
    });
    const result = this.#chain.then(run, run);
    this.#chain = result.catch(() => undefined);
    return result;
  }

  /**
   * Takes the partition's lock on `client`. The first time, at once or never (another process owns the
   * partition); after a reconnect, waiting up to relockForMs for the server to drop the old
   * connection's lock.
   */
  async #lock(client: pg.Client, again: boolean): Promise<void> {
    const deadline = Date.now() + (again ? this.#relockForMs : 0);
    for (;;) {
      const result = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::int, $2::int) AS ok', [FRONTIER_CLASS, this.partition.index]);
      if (result.rows[0]!.ok) {
        this.#lockedClient = client;
        return;
      }
      if (Date.now() >= deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const label = partitionLabel(this.partition);
    throw again
      ? new IndexError(`Lost partition ${label} of the crawl frontier to another process while the connection to PostgreSQL was down; stopping`)
      : new CrawlLockedError(`another crawler is running partition ${label} of this crawl (it holds its lock in PostgreSQL); wait for it to end, or run another partition`);
  }
}

function hostOfUrl(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

/**
 * Fixes the crawl's partition count on first use; refuses a process of a crawl partitioned otherwise
 * while that crawl has work left. A finished frontier (every row done) may be crawled again split in
 * another count: its host assignments are forgotten.
 */
async function checkPartitionCount(client: pg.Client, partition: CrawlPartition): Promise<void> {
  await client.query(`INSERT INTO neardup_frontier_meta (key, value) VALUES ('partitions', $1) ON CONFLICT (key) DO NOTHING`, [String(partition.count)]);
  const result = await client.query<{ value: string }>(`SELECT value FROM neardup_frontier_meta WHERE key = 'partitions'`);
  let count = Number(result.rows[0]!.value);
  if (count !== partition.count) {
    const open = await client.query(`SELECT 1 FROM neardup_frontier WHERE state <> 'done' LIMIT 1`);
    if (open.rows.length === 0) {
      await client.query(`UPDATE neardup_frontier_meta SET value = $1 WHERE key = 'partitions'`, [String(partition.count)]);
      await resetAssignment(client);
      count = partition.count;
    }
  }
  if (count !== partition.count) {
    throw new ValidationError(`Expected \`partition\` to be i/${count}: the crawl frontier in this database is split in ${count} partitions, got ${partitionLabel(partition)}`);
  }
}
