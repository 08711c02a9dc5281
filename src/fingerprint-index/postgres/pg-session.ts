/**
 * One connection to the PostgreSQL index, and what to do when it fails. Opening: a failure is the end
 * (one-line IndexError: unreachable, wrong password, missing database). Once open: a lost connection,
 * a server restarting or a deadlock is waited out: the session reports it once (one line), reconnects
 * with growing pauses and runs the interrupted unit of work again from its start (each unit is one
 * transaction, rolled back by the loss, and idempotent by URL, so nothing is lost or done twice), for
 * up to `retryForMs`; then it gives up with a one-line IndexError.
 */
import pg from 'pg';
import { IndexError, NeardupError } from '../../errors.js';
import { describePgFailure, isTransient, type PgTarget } from './pg-errors.js';

export interface PgSessionOptions {
  /** How long opening waits for the server to answer. @default 10000 */
  readonly connectTimeoutMs?: number;
  /** How long an open index keeps retrying after losing the server before giving up. @default 600000 */
  readonly retryForMs?: number;
  /** Told once per outage and once when it is over (one line each). @default a line on stderr */
  readonly onRetry?: (message: string) => void;
}

// int8 → JS number where safe is done in SQL (::float8); leave pg's defaults (strings) otherwise.
const PAUSES_MS = [100, 250, 500, 1000, 2000];

export class PgSession {
  readonly target: PgTarget;
  readonly #connectTimeoutMs: number;
  readonly #retryForMs: number;
  readonly #onRetry: (message: string) => void;
  #client: pg.Client | null = null;
  #broken = false;
  #closed = false;

  constructor(target: PgTarget, options: PgSessionOptions) {
    this.target = target;
    this.#connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
    this.#retryForMs = options.retryForMs ?? 600_000;
    this.#onRetry = options.onRetry ?? ((message) => process.stderr.write(`neardup: ${message}\n`));
  }

  /** Connects for the first time; any failure is final (a one-line IndexError). */
  async open(): Promise<void> {
    try {
      this.#client = await this.#connect();
    } catch (error) {
      throw this.wrap(error);
    }
  }

  /** A one-line IndexError for a failure (NeardupErrors pass through). */
  wrap(error: unknown): Error {
    if (error instanceof NeardupError) return error;
    return new IndexError(describePgFailure(error, this.target), { cause: error });
  }

  /** Runs `body` on the connection, again from its start after a transient failure (see the module comment). @internal */
  async run<T>(body: (client: pg.Client) => Promise<T>): Promise<T> {
    if (this.#closed) throw new IndexError(`Index ${this.target.label} is closed`);
    let outageSince = 0;
    for (let attempt = 0; ; attempt++) {
      try {
        if (this.#client === null || this.#broken) await this.#reconnect();
        const result = await body(this.#client!);
        if (outageSince !== 0) this.#onRetry(`PostgreSQL at ${this.target.host}:${this.target.port} is back; resuming`);
        return result;
      } catch (error) {
        if (!isTransient(error) || this.#closed) throw this.wrap(error);
        const deadlock = (error as { code?: string }).code === '40P01' || (error as { code?: string }).code === '40001';
        if (!deadlock) {
          this.#broken = true;
          if (outageSince === 0) {
            outageSince = Date.now();
            this.#onRetry(`${describePgFailure(error, this.target)}; waiting for the server (retrying for up to ${Math.round(this.#retryForMs / 1000)} s)`);
          } else if (Date.now() - outageSince > this.#retryForMs) {
            throw new IndexError(`Gave up after ${Math.round((Date.now() - outageSince) / 1000)} s: ${describePgFailure(error, this.target)}`, { cause: error });
          }
        }
        await sleep(deadlock ? 5 + Math.random() * 20 : PAUSES_MS[Math.min(attempt, PAUSES_MS.length - 1)]!);
      }
    }
  }

  /** run() of a READ COMMITTED transaction: committed when `body` resolves, rolled back when it throws. @internal */
  async transaction<T>(body: (client: pg.Client) => Promise<T>): Promise<T> {
    return this.run(async (client) => {
      await client.query('BEGIN');
      try {
        const result = await body(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const client = this.#client;
    this.#client = null;
    if (client !== null) await client.end().catch(() => undefined);
  }

  get closed(): boolean {
    return this.#closed;
  }

  async #reconnect(): Promise<void> {
    const old = this.#client;
    this.#client = null;
    if (old !== null) await old.end().catch(() => undefined);
    this.#client = await this.#connect();
    this.#broken = false;
  }

  async #connect(): Promise<pg.Client> {
    const client = new pg.Client({
      connectionString: this.target.connectionString,
      connectionTimeoutMillis: this.#connectTimeoutMs,
      application_name: 'neardup',
    });
    // An idle connection's loss arrives as an 'error' event: without a listener it would end the process.
    client.on('error', () => {
      this.#broken = true;
    });
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    return client;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
