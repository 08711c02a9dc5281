/**
 * Which partition a host belongs to in a partitioned crawl's shared frontier (pg-frontier.ts),
 * recorded in the database once per host so that every process, run and machine agrees.
 *
 * A hash of the registrable domain mod N (crawl-partition.ts, still used for frontiers made before
 * this table) leaves small host sets in one partition: 127.0.0.1 and localhost both hash to 0 of 2,
 * and the other process has nothing to do. Instead, partition keys are dealt to partitions in turn,
 * in the order the crawl meets them (`next_part` in neardup_frontier_meta):
 * - a host without a registrable domain (an IP address, `localhost`) is a key of its own;
 * - a host with one joins its domain's key (every host of a domain in one process, as before),
 *   unless that domain already has `splitDomainRows` frontier rows: one domain too big for one
 *   process, whose new hosts are then keys of their own (a host keeps the partition it was first
 *   given, so a host is never split between processes: per-host politeness and robots.txt hold).
 *
 * Tables (created with the frontier): neardup_frontier_hosts (host → part), neardup_frontier_domains
 * (domain → part, rows found so far). Assignments are made under an advisory transaction lock, so two
 * processes meeting the same new host give it one partition.
 */
import type pg from 'pg';
import { getDomain } from 'tldts';
import { FRONTIER_CLASS } from './pg-frontier-schema.js';
import { partitionOfHost } from './crawl-partition.js';

/** Lock key (with FRONTIER_CLASS) held while hosts are assigned. */
const ASSIGN_LOCK = -2;

/** Statements creating the tables (run with the frontier's schema). */
export const hostPartitionSchema: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS neardup_frontier_hosts (host text PRIMARY KEY, part integer NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS neardup_frontier_domains (domain text PRIMARY KEY, part integer NOT NULL, rows bigint NOT NULL DEFAULT 0)`,
];

/** Frontier rows of one registrable domain past which its new hosts get partitions of their own. */
export const SPLIT_DOMAIN_ROWS = 20_000;

/** The registrable domain of a host, or null (IP addresses, `localhost`, bare suffixes). */
export function domainOf(host: string): string | null {
  return getDomain(host.toLowerCase(), { allowPrivateDomains: true });
}

/**
 * Run once, under the frontier's setup lock: a frontier that already has rows and no `assignment`
 * keeps partitioning by hash (its rows' partitions were made so); a new one deals keys in turn.
 */
export async function setUpAssignment(client: pg.Client): Promise<'table' | 'hash'> {
  const { rows } = await client.query<{ value: string }>(`SELECT value FROM neardup_frontier_meta WHERE key = 'assignment'`);
  if (rows.length > 0) return rows[0]!.value === 'hash' ? 'hash' : 'table';
  const existing = await client.query('SELECT 1 FROM neardup_frontier LIMIT 1');
  const mode = existing.rows.length > 0 ? 'hash' : 'table';
  await client.query(`INSERT INTO neardup_frontier_meta (key, value) VALUES ('assignment', $1) ON CONFLICT (key) DO NOTHING`, [mode]);
  return mode;
}

/** A new crawl on a finished frontier may be split otherwise: forget the assignments (the rows are all done). */
export async function resetAssignment(client: pg.Client): Promise<void> {
  await client.query('DELETE FROM neardup_frontier_hosts');
  await client.query('DELETE FROM neardup_frontier_domains');
  await client.query(`DELETE FROM neardup_frontier_meta WHERE key = 'next_part'`);
}

/** The partitions of hosts, from the table (assigning new ones) or by hash; memoised per process (an assignment never changes). */
export class HostPartitions {
  readonly #count: number;
  readonly #mode: 'table' | 'hash';
  readonly #splitRows: number;
  readonly #known = new Map<string, number>();

  constructor(count: number, mode: 'table' | 'hash', splitRows = SPLIT_DOMAIN_ROWS) {
    this.#count = count;
    this.#mode = mode;
    this.#splitRows = splitRows;
  }

  /** The partition of each host (assigning those new to the crawl). Run on the frontier's connection. */
  async partitionsOf(client: pg.Client, hosts: Iterable<string>): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    const missing: string[] = [];
    for (const host of new Set(hosts)) {
      const known = this.#known.get(host);
      if (known !== undefined) out.set(host, known);
      else if (this.#mode === 'hash') out.set(host, this.#remember(host, partitionOfHost(host, this.#count)));
      else missing.push(host);
    }
    if (missing.length === 0) return out;
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock($1::int, $2::int)', [FRONTIER_CLASS, ASSIGN_LOCK]);
      const { rows } = await client.query<{ host: string; part: number }>('SELECT host, part FROM neardup_frontier_hosts WHERE host = ANY($1::text[])', [missing]);
      for (const row of rows) out.set(row.host, this.#remember(row.host, row.part));
      for (const host of missing) {
        if (out.has(host)) continue;
        const part = await this.#assign(client, host);
        await client.query('INSERT INTO neardup_frontier_hosts (host, part) VALUES ($1, $2)', [host, part]);
        out.set(host, this.#remember(host, part));
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      this.#known.clear();
      throw error;
    }
    return out;
  }

  /** Counts new frontier rows per registrable domain (what makes a domain too big for one process). */
  async countRows(client: pg.Client, hostsOfNewRows: readonly string[]): Promise<void> {
    if (this.#mode === 'hash' || hostsOfNewRows.length === 0) return;
    const byDomain = new Map<string, number>();
    for (const host of hostsOfNewRows) {
      const domain = domainOf(host);
      if (domain !== null) byDomain.set(domain, (byDomain.get(domain) ?? 0) + 1);
    }
    if (byDomain.size === 0) return;
    await client.query(
      'UPDATE neardup_frontier_domains d SET rows = d.rows + u.n FROM unnest($1::text[], $2::bigint[]) AS u(domain, n) WHERE d.domain = u.domain',
      [[...byDomain.keys()], [...byDomain.values()]],
    );
  }

  /** Whether any host of the crawl is in `part`. */
  async hasHosts(client: pg.Client, part: number): Promise<boolean> {
    if (this.#mode === 'hash') return true;
    const { rows } = await client.query('SELECT 1 FROM neardup_frontier_hosts WHERE part = $1 LIMIT 1', [part]);
    return rows.length > 0;
  }

  #remember(host: string, part: number): number {
    this.#known.set(host, part);
    return part;
  }

  /** Inside the assignment lock: the partition a new host gets. */
  async #assign(client: pg.Client, host: string): Promise<number> {
    const domain = domainOf(host);
    if (domain !== null) {
      const { rows } = await client.query<{ part: number; rows: string }>('SELECT part, rows FROM neardup_frontier_domains WHERE domain = $1', [domain]);
      if (rows.length === 0) {
        const part = await this.#nextPart(client);
        await client.query('INSERT INTO neardup_frontier_domains (domain, part) VALUES ($1, $2)', [domain, part]);
        return part;
      }
      if (Number(rows[0]!.rows) < this.#splitRows) return rows[0]!.part;
    }
    return this.#nextPart(client);
  }

  async #nextPart(client: pg.Client): Promise<number> {
    const { rows } = await client.query<{ value: string }>(`SELECT value FROM neardup_frontier_meta WHERE key = 'next_part'`);
    const next = rows.length === 0 ? 0 : Number(rows[0]!.value);
    await client.query(
      `INSERT INTO neardup_frontier_meta (key, value) VALUES ('next_part', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
      [String(next + 1)],
    );
    return next % this.#count;
  }
}
