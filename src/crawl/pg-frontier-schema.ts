/**
 * The shared crawl frontier of a partitioned crawl (`--partition i/N`), in the PostgreSQL database of
 * the index (pg-frontier.ts). One frontier per database: the N processes of a crawl share it.
 *
 * neardup_frontier       one row per URL ever found (key: crawlee's uniqueKey, the normalised URL):
 *                        its partition, the depth it was first found at, `seq` (order of insertion,
 *                        the order a partition's owner fetches in), and its state:
 *                          pending  found, not taken yet
 *                          claimed  taken by its partition's owner (claimed_by: that run's id)
 *                          done     handled: its verdict committed and its links inserted
 * neardup_frontier_meta  `partitions`: the N of the crawl, fixed by its first process.
 *
 * The partial indexes keep what the crawl asks cheap however many rows are done: a partition's
 * pending rows in order (claims), and the rows not done (the end-of-crawl check).
 */

/** Statements creating the frontier if missing (run under FRONTIER_SETUP_LOCK in one transaction). */
export const pgFrontierSchema: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS neardup_frontier_meta (key text PRIMARY KEY, value text NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS neardup_frontier (
  key text PRIMARY KEY,
  url text NOT NULL,
  part integer NOT NULL,
  depth integer NOT NULL,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'claimed', 'done')),
  claimed_by text
)`,
  `CREATE INDEX IF NOT EXISTS neardup_frontier_pending ON neardup_frontier (part, seq) WHERE state = 'pending'`,
  `CREATE INDEX IF NOT EXISTS neardup_frontier_open ON neardup_frontier (part, state) WHERE state <> 'done'`,
];

/**
 * Advisory lock keys of the frontier, in the two-int4 key space (pg_advisory_lock(int, int)), which
 * PostgreSQL keeps apart from the one-bigint space the index's locks use (pg_locks.objsubid 2 vs 1).
 * FRONTIER_CLASS with the partition number: held for a session by the partition's owner.
 * FRONTIER_CLASS with -1: taken for a transaction while the schema is created.
 */
export const FRONTIER_CLASS = 0x6e646670; // 'ndfp'
export const FRONTIER_SETUP_LOCK = -1;

/**
 * Adds rows; a URL found again keeps its row, but a pending one takes the smaller depth (processes
 * find links in no common order, so the first depth found may not be the shortest, which a lone
 * crawl's breadth-first queue gives). Returns the partitions of the rows inserted (xmax = 0: not
 * updated). The keys of one statement must be distinct (an upsert may touch a row once).
 */
export const INSERT_SQL = `INSERT INTO neardup_frontier AS f (key, url, part, depth)
SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int[])
ON CONFLICT (key) DO UPDATE SET depth = EXCLUDED.depth WHERE f.state = 'pending' AND EXCLUDED.depth < f.depth
RETURNING part, (xmax = 0) AS inserted, url`;

/** Claims up to $3 pending rows of partition $1 for run $2, oldest first. */
export const CLAIM_SQL = `UPDATE neardup_frontier SET state = 'claimed', claimed_by = $2
WHERE key IN (SELECT key FROM neardup_frontier WHERE part = $1 AND state = 'pending' ORDER BY seq LIMIT $3 FOR UPDATE SKIP LOCKED)
RETURNING key, url, depth, seq`;

/** Marks rows of partition $1 done. */
export const DONE_SQL = `UPDATE neardup_frontier SET state = 'done' WHERE part = $1 AND key = ANY($2::text[])`;

/** Puts claimed rows of partition $1 back to pending: all of them ($2 null), or those listed. */
export const UNCLAIM_SQL = `UPDATE neardup_frontier SET state = 'pending', claimed_by = NULL
WHERE part = $1 AND state = 'claimed' AND ($2::text[] IS NULL OR key = ANY($2::text[]))`;

/**
 * Rows not done, by partition and state, with whether the partition has an owner now (a session
 * holding its advisory lock in this database). One statement, so one snapshot of the rows.
 */
export const OPEN_ROWS_SQL = `SELECT f.part, f.state, count(*)::float8 AS n,
  EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
    AND l.classid = $1::oid AND l.objid = f.part::oid AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())) AS owned
FROM neardup_frontier f WHERE f.state <> 'done' GROUP BY f.part, f.state`;

/** Rows of partition $1 done (handled by earlier runs, when the crawl starts) and not done. */
export const PARTITION_COUNTS_SQL = `SELECT count(*) FILTER (WHERE state = 'done')::float8 AS done, count(*) FILTER (WHERE state <> 'done')::float8 AS open
FROM neardup_frontier WHERE part = $1`;
