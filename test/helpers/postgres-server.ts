/**
 * A throwaway PostgreSQL cluster for tests and benchmarks: initdb on a fresh temp folder, pg_ctl start
 * on a free 127.0.0.1 port (its Unix socket inside that folder), password (SCRAM) authentication, and
 * always a stop (also from a process 'exit' handler, so a failed test run leaves no server behind).
 *
 * Binaries: `initdb` on PATH, else the newest /usr/lib/postgresql/<version>/bin. PostgreSQL refuses to
 * run as root: as root, every server command runs as the `postgres` OS user (runuser), on a folder it owns.
 * Where no binaries can be found, postgresUnavailable() says why, and the tests report themselves skipped
 * with that reason (never silently passed).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, it } from 'vitest';

/** The cluster's superuser and its password (a throwaway cluster on 127.0.0.1 only). */
export const PG_USER = 'neardup';
export const PG_PASSWORD = 'neardup-test-password';

/** The folder holding initdb, pg_ctl and postgres, or null. */
export function findPostgresBin(): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir !== '' && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir;
  }
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')) && existsSync(join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length === 0 ? null : join(root, versions[0]!, 'bin');
}

/** Why no throwaway cluster can be started here, or null when one can. */
export function postgresUnavailable(): string | null {
  if (findPostgresBin() === null) {
    return 'no PostgreSQL server binaries (initdb, pg_ctl) on PATH or under /usr/lib/postgresql/*/bin; install Debian\'s `postgresql` package';
  }
  if (process.getuid?.() === 0 && osUserId('postgres') === null) return 'running as root and there is no `postgres` OS user to run the server as';
  return null;
}

function osUserId(name: string): { uid: number; gid: number } | null {
  try {
    const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    return null;
  }
}

/** A free TCP port on 127.0.0.1 (asked of the OS, then released). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface PostgresServerOptions {
  /** Extra `-c name=value` server settings. @default {} */
  readonly settings?: Readonly<Record<string, string>>;
  /** fsync and synchronous_commit off (tests: faster, and a test cluster's durability does not matter). @default true */
  readonly fast?: boolean;
}

/** A running throwaway cluster. */
export class PostgresServer {
  readonly port: number;
  readonly folder: string;
  readonly #bin: string;
  readonly #asPostgres: boolean;
  readonly #options: string;
  #running = false;
  readonly #onExit = () => this.stop();

  private constructor(bin: string, folder: string, port: number, asPostgres: boolean, options: string) {
    this.#bin = bin;
    this.folder = folder;
    this.port = port;
    this.#asPostgres = asPostgres;
    this.#options = options;
  }

  /** initdb + start on a free port. Throws (with the server's log) when the binaries exist but fail. */
  static async start(options: PostgresServerOptions = {}): Promise<PostgresServer> {
    const unavailable = postgresUnavailable();
    if (unavailable !== null) throw new Error(unavailable);
    const bin = findPostgresBin()!;
    const asPostgres = process.getuid?.() === 0;
    const folder = mkdtempSync(join(tmpdir(), 'neardup-pg-'));
    chmodSync(folder, 0o700);
    if (asPostgres) {
      const owner = osUserId('postgres')!;
      chownSync(folder, owner.uid, owner.gid);
    }
    const pwFile = join(folder, 'pw');
    writeFileSync(pwFile, `${PG_PASSWORD}\n`, { mode: 0o600 });
    if (asPostgres) {
      const owner = osUserId('postgres')!;
      chownSync(pwFile, owner.uid, owner.gid);
    }
    const port = await freePort();
    const settings: Record<string, string> = {
      listen_addresses: '127.0.0.1',
      port: String(port),
      unix_socket_directories: folder,
      max_connections: '60',
      ...((options.fast ?? true) ? { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' } : {}),
      ...options.settings,
    };
    const serverOptions = Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`).join(' ');
    const server = new PostgresServer(bin, folder, port, asPostgres, serverOptions);
    try {
      server.#run('initdb', ['-D', server.dataDir, '-U', PG_USER, '--auth=scram-sha-256', `--pwfile=${pwFile}`, '-E', 'UTF8', '--no-sync', '--locale=C']);
      server.restart();
    } catch (error) {
      server.stop();
      server.remove();
      throw error;
    }
    return server;
  }

  get dataDir(): string {
    return join(this.folder, 'data');
  }

  /** A connection URL to `database` (default: the `postgres` database). */
  url(database = 'postgres', user = PG_USER, password = PG_PASSWORD): string {
    return `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${this.port}/${database}`;
  }

  /** Creates a database and returns its URL. */
  async createDatabase(name: string): Promise<string> {
    const client = new pg.Client({ connectionString: this.url() });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
    } finally {
      await client.end();
    }
    return this.url(name);
  }

  /** Starts the (stopped) server again on the same port, waiting until it accepts connections. */
  restart(): void {
    this.#run('pg_ctl', ['-D', this.dataDir, '-l', join(this.folder, 'server.log'), '-o', this.#options, '-w', '-t', '60', 'start']);
    this.#running = true;
    process.on('exit', this.#onExit);
  }

  /** Stops the server (fast shutdown: open connections are cut). Safe to call twice. */
  stop(): void {
    if (!this.#running) return;
    this.#running = false;
    process.off('exit', this.#onExit);
    try {
      this.#run('pg_ctl', ['-D', this.dataDir, '-m', 'fast', '-w', '-t', '60', 'stop']);
    } catch {
      // Already gone (killed, or its folder removed): nothing left to stop.
    }
  }

  /**
   * CPU seconds the server's processes have used so far (the postmaster, its ended children and its
   * live ones), for benchmarks; NaN where /proc is not there to read.
   */
  cpuSeconds(): number {
    try {
      const pid = readFileSync(join(this.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]!.trim();
      const ticks = (stat: string, fields: number) => stat.slice(stat.lastIndexOf(')') + 2).split(' ').slice(11, 11 + fields).reduce((sum, f) => sum + Number(f), 0);
      let total = ticks(readFileSync(`/proc/${pid}/stat`, 'utf8'), 4);
      const children = execFileSync('ps', ['--ppid', pid, '-o', 'pid='], { encoding: 'utf8' }).split('\n').map((l) => l.trim()).filter((l) => l !== '');
      for (const child of children) {
        try {
          total += ticks(readFileSync(`/proc/${child}/stat`, 'utf8'), 2);
        } catch {
          // Ended between the listing and the read: its time is in the postmaster's children's now.
        }
      }
      return total / 100;
    } catch {
      return Number.NaN;
    }
  }

  /** Stops the server and deletes its folder. */
  remove(): void {
    this.stop();
    rmSync(this.folder, { recursive: true, force: true });
  }

  #run(tool: string, args: string[]): void {
    const command = join(this.#bin, tool);
    const [file, argv] = this.#asPostgres ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
    try {
      execFileSync(file, argv, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', cwd: this.folder });
    } catch (error) {
      const e = error as { stderr?: string; stdout?: string; message: string };
      let log = '';
      try {
        log = execFileSync('tail', ['-n', '20', join(this.folder, 'server.log')], { encoding: 'utf8' });
      } catch {
        // No log yet.
      }
      throw new Error(`${tool} failed: ${e.stderr ?? ''}${e.stdout ?? ''}${e.message}\n${log}`);
    }
  }
}

/**
 * A vitest `describe` with one throwaway cluster for its tests (started before them, always removed
 * after), or, where none can be had, a skipped describe whose name says why.
 */
export function describeWithPostgres(name: string, body: (server: () => PostgresServer) => void, options: PostgresServerOptions = {}): void {
  const unavailable = postgresUnavailable();
  if (unavailable !== null) {
    describe.skip(`${name} — skipped: ${unavailable}`, () => {
      it('needs a PostgreSQL server', () => undefined);
    });
    return;
  }
  describe(name, () => {
    let server: PostgresServer | null = null;
    beforeAll(async () => {
      server = await PostgresServer.start(options);
    }, 120_000);
    afterAll(() => {
      server?.remove();
    });
    body(() => {
      if (server === null) throw new Error('the PostgreSQL server did not start');
      return server;
    });
  });
}

/** A fresh database name for one test. */
export function freshDatabaseName(): string {
  return `t_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
}
