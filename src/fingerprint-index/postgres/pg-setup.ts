/**
 * Opening a PostgreSQL index's schema: create it in an empty database, or check the stored fingerprint
 * parameters and bring an older schema up to date (writers only). Runs in one transaction under
 * SETUP_LOCK_KEY, so two processes opening a new database at once do not both create it.
 */
import type pg from 'pg';
import { IndexError } from '../../errors.js';
import { validateParams } from '../../fingerprint/fingerprint-params.js';
import type { FingerprintParams } from '../../types.js';
import type { BlockLayout } from '../block-layout.js';
import { assertSameParams, paramsToJson } from '../index-schema.js';
import { PG_LINKS_IN_MAIN, PG_SCHEMA_VERSION, PG_SECOND_STAGE_UPGRADE, SETUP_LOCK_KEY, pgSchemaStatements } from './pg-schema.js';

/** What opening found. */
export interface PgSetUp {
  /** The index has the second stage's columns and table (schema 2; false only for an old index opened read-only). */
  readonly secondStage: boolean;
}

/** The stored fingerprint parameters, or null for a database holding no index. */
export async function readStoredParams(client: pg.Client): Promise<FingerprintParams | null> {
  const exists = await client.query({ text: "SELECT to_regclass('neardup_meta') IS NOT NULL", rowMode: 'array' });
  if (exists.rows[0][0] !== true) return null;
  const { rows } = await client.query({ text: "SELECT value FROM neardup_meta WHERE key = 'params'", rowMode: 'array' });
  if (rows.length === 0) throw new IndexError('The PostgreSQL index has no fingerprint parameters (neardup_meta.params is missing)');
  return validateParams(JSON.parse(rows[0][0] as string));
}

/** See the module comment; `label` names the index in messages. */
export async function setUpIndex(client: pg.Client, params: FingerprintParams, layout: BlockLayout, readonly: boolean, label: string): Promise<PgSetUp> {
  await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [SETUP_LOCK_KEY]);
  const stored = await readStoredParams(client);
  if (stored !== null) {
    assertSameParams(stored, params, label);
    const { rows } = await client.query({ text: "SELECT value FROM neardup_meta WHERE key = 'schema_version'", rowMode: 'array' });
    const version = Number(rows[0]?.[0] ?? 1);
    if (readonly) return { secondStage: version >= 2 };
    await client.query(PG_LINKS_IN_MAIN);
    if (version < 2) for (const sql of PG_SECOND_STAGE_UPGRADE) await client.query(sql);
    return { secondStage: true };
  }
  if (readonly) throw new IndexError(`${label} holds no neardup index`);
  for (const sql of pgSchemaStatements(layout)) await client.query(sql);
  const meta: Array<[string, string]> = [
    ['params', paramsToJson(params)],
    ['layout', JSON.stringify({ starts: layout.starts, widths: layout.widths })],
    ['schema_version', String(PG_SCHEMA_VERSION)],
    ['created_at', new Date().toISOString()],
  ];
  for (const [key, value] of meta) await client.query('INSERT INTO neardup_meta (key, value) VALUES ($1, $2)', [key, value]);
  return { secondStage: true };
}
