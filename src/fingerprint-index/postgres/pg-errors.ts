/**
 * PostgreSQL connection targets and failures in one line: a URL checked at the boundary (and never
 * printed with its password), errors that end the command (unreachable server, wrong password, missing
 * database) told apart from the ones worth waiting out (connection lost, server restarting, deadlock).
 */
import { ValidationError, describeValue } from '../../errors.js';

/** A parsed index URL: the connection string and a label without the password, for messages. */
export interface PgTarget {
  readonly connectionString: string;
  readonly label: string;
  readonly host: string;
  readonly port: string;
  readonly database: string;
  readonly user: string;
}

/** Parses `postgres://user[:password]@host[:port]/database`; anything else is a ValidationError. */
export function parsePgUrl(url: unknown): PgTarget {
  const expected = 'Expected the index URL to be postgres://user[:password]@host[:port]/database';
  if (typeof url !== 'string' || url === '') throw new ValidationError(`${expected}, got ${describeValue(url)}`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ValidationError(`${expected}, got \`${redact(url)}\``);
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new ValidationError(`${expected}, got scheme \`${parsed.protocol}\``);
  }
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  if (parsed.hostname === '' || database === '' || database.includes('/')) {
    throw new ValidationError(`${expected} (host and database are required), got \`${redact(url)}\``);
  }
  const user = decodeURIComponent(parsed.username);
  const port = parsed.port === '' ? '5432' : parsed.port;
  const host = parsed.hostname;
  return { connectionString: url, label: `postgres://${user === '' ? '' : `${user}@`}${host}:${port}/${database}`, host, port, database, user };
}

/** The URL with its password replaced by `***`. */
function redact(url: string): string {
  return url.replace(/(\/\/[^:/@]*:)[^/?#]*@/, '$1***@'); // to the last `@` of the authority: a password may hold one
}

interface PgLikeError {
  code?: unknown;
  message?: unknown;
}

const TRANSIENT_CODES = new Set([
  '40P01', // deadlock detected (lock order broken by a key collision): retry
  '40001', // serialization failure
  '57P01', // admin shutdown
  '57P02', // crash shutdown
  '57P03', // cannot connect now (starting up / shutting down)
  '08000', '08003', '08006', '08001', '08004', // connection exceptions
  'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN',
]);

/** True for failures that end when the server is back: worth a wait-and-retry once an index is open. */
export function isTransient(error: unknown): boolean {
  const e = error as PgLikeError;
  if (typeof e?.code === 'string' && TRANSIENT_CODES.has(e.code)) return true;
  const message = typeof e?.message === 'string' ? e.message : '';
  return /Connection terminated|not queryable|connection timeout|Connection ended|read ECONNRESET|the database system is (starting up|shutting down)/i.test(message);
}

/** One line naming what went wrong with `target`, and what to do where that is clear. */
export function describePgFailure(error: unknown, target: PgTarget): string {
  const e = error as PgLikeError;
  const code = typeof e?.code === 'string' ? e.code : '';
  const message = (typeof e?.message === 'string' ? e.message : String(error)).split('\n')[0]!;
  const at = `${target.host}:${target.port}`;
  switch (code) {
    case 'ECONNREFUSED':
      return `Cannot reach PostgreSQL at ${at} (connection refused): is the server running?`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `Cannot reach PostgreSQL at ${at}: unknown host \`${target.host}\``;
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `Cannot reach PostgreSQL at ${at} (${code})`;
    case '28P01':
      return `PostgreSQL at ${at} refused the password of user \`${target.user}\``;
    case '28000':
      return `PostgreSQL at ${at} refused the connection: ${message}`;
    case '3D000':
      return `Database \`${target.database}\` does not exist on PostgreSQL at ${at}; create it first (createdb ${target.database})`;
    case '53200':
      return `PostgreSQL at ${at} ran out of lock space (${message}): raise max_locks_per_transaction or lower batchSize`;
    default:
      if (/timeout/i.test(message)) return `Cannot reach PostgreSQL at ${at}: ${message}`;
      return `PostgreSQL index ${target.label}: ${message}${code === '' ? '' : ` (${code})`}`;
  }
}
