/**
 * A local fixture web site for crawl tests, benchmarks and the demo: serves a map of
 * path → response on 127.0.0.1 (and ::1 when the machine has it) at one random port, so that
 * `http://127.0.0.1:<port>/` and `http://localhost:<port>/` are two host names of one server
 * and can carry different pages (an original site and its mirror).
 *
 * Every request is logged in `hits`, so a test can assert what the crawler fetched and what it
 * never asked for.
 *
 * ```ts
 * const site = await startFixtureSite({
 *   '127.0.0.1': { '/': { body: '<a href="/a">a</a>' }, '/a': { body: '<p>…</p>' } },
 *   localhost: { '/': { body: '…' } },
 *   '*': { '/robots.txt': { body: 'User-agent: *\nDisallow: /private', headers: { 'content-type': 'text/plain' } } },
 * });
 * site.url('localhost', '/a'); // 'http://localhost:43817/a'
 * await site.close();
 * ```
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One canned response. */
export interface FixtureResponse {
  /** @default 200 (302 when `redirect` is set) */
  readonly status?: number;
  /** Response headers. A string body without `content-type` is sent as `text/html; charset=utf-8`. */
  readonly headers?: Readonly<Record<string, string | number | readonly string[]>>;
  /** @default '' */
  readonly body?: string | Uint8Array;
  /** Sends a redirect to this location (relative or absolute). */
  readonly redirect?: string;
  /** Waits this long before answering (a slow server). @default 0 */
  readonly delayMs?: number;
  /** Omits Content-Length (chunked transfer), as servers that stream do. @default false */
  readonly chunked?: boolean;
}

/** What a dynamic route sees of the request. */
export interface FixtureRequest {
  readonly host: string;
  readonly path: string;
  readonly method: string;
  readonly headers: IncomingMessage['headers'];
}

export type FixtureRoute = FixtureResponse | ((request: FixtureRequest) => FixtureResponse | Promise<FixtureResponse>);

/** path (with query, as requested) → response. */
export type FixtureRoutes = Readonly<Record<string, FixtureRoute>>;

/** hostname (`127.0.0.1`, `localhost`, or `*` for every host) → routes. Host routes win over `*`. */
export type FixtureHosts = Readonly<Record<string, FixtureRoutes>>;

/** One request the site received. */
export interface FixtureHit {
  readonly host: string;
  readonly path: string;
  readonly method: string;
  readonly status: number;
  readonly userAgent: string | undefined;
  readonly at: number;
}

export interface FixtureSite {
  /** The port both host names answer on. */
  readonly port: number;
  /** Every request received, in order of arrival. */
  readonly hits: FixtureHit[];
  /** `http://<host>:<port>` */
  origin(host: string): string;
  /** `http://<host>:<port><path>` */
  url(host: string, path: string): string;
  /** Replaces or adds a route while the site runs. */
  setRoute(host: string, path: string, route: FixtureRoute): void;
  /** Paths fetched on a host (any method), in order, duplicates kept. */
  pathsFetched(host: string): string[];
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

const notFound: FixtureResponse = {
  status: 404,
  body: '<!doctype html><title>Not found</title><p>Not found</p>',
};

function hostnameOf(request: IncomingMessage): string {
  const raw = request.headers.host ?? '';
  // `[::1]:8080` → `::1`; `localhost:8080` → `localhost`
  const match = /^\[([^\]]+)\](?::\d+)?$/.exec(raw) ?? /^([^:]+)(?::\d+)?$/.exec(raw);
  return (match?.[1] ?? raw).toLowerCase();
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

export interface FixtureSiteOptions {
  /**
   * More IPv4 loopback addresses to answer on, at the same port (`127.0.0.2`, ...: on Linux the whole
   * of 127.0.0.0/8 is loopback), so that a test can have many host names with no DNS. @default []
   */
  readonly addresses?: readonly string[];
}

/** Starts the site on a random port of 127.0.0.1 (and ::1 when available, and `addresses`). */
export async function startFixtureSite(hosts: FixtureHosts, options: FixtureSiteOptions = {}): Promise<FixtureSite> {
  const table = new Map<string, Map<string, FixtureRoute>>();
  for (const [host, routes] of Object.entries(hosts)) {
    table.set(host.toLowerCase(), new Map(Object.entries(routes)));
  }
  const hits: FixtureHit[] = [];

  const find = (host: string, path: string): FixtureRoute | undefined =>
    table.get(host)?.get(path) ?? table.get('*')?.get(path);

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const host = hostnameOf(request);
    const path = request.url ?? '/';
    const method = request.method ?? 'GET';
    const route = find(host, path);
    let spec: FixtureResponse;
    try {
      spec = route === undefined ? notFound : typeof route === 'function' ? await route({ host, path, method, headers: request.headers }) : route;
    } catch (error) {
      spec = { status: 500, body: `fixture route failed: ${(error as Error).message}` };
    }
    const status = spec.status ?? (spec.redirect === undefined ? 200 : 302);
    hits.push({ host, path, method, status, userAgent: request.headers['user-agent'], at: Date.now() });
    if (spec.delayMs !== undefined && spec.delayMs > 0) {
      await sleep(spec.delayMs);
      if (response.destroyed) return;
    }
    const body = spec.body ?? '';
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    const headers: Record<string, string | number | readonly string[]> = { ...spec.headers };
    const has = (name: string) => Object.keys(headers).some((key) => key.toLowerCase() === name);
    if (!has('content-type') && typeof body === 'string') headers['content-type'] = 'text/html; charset=utf-8';
    if (spec.redirect !== undefined) headers.location = spec.redirect;
    if (spec.chunked === true) {
      for (const key of Object.keys(headers)) if (key.toLowerCase() === 'content-length') delete headers[key];
    } else if (!has('content-length')) {
      headers['content-length'] = bytes.byteLength;
    }
    response.writeHead(status, headers as Record<string, string | number | string[]>);
    if (method === 'HEAD') {
      response.end();
      return;
    }
    if (spec.chunked === true) {
      // Several writes, so the client sees a stream rather than one buffer.
      const step = 16_384;
      for (let offset = 0; offset < bytes.byteLength; offset += step) {
        if (response.destroyed) return;
        response.write(bytes.subarray(offset, offset + step));
      }
      response.end();
    } else {
      response.end(bytes);
    }
  };

  const makeServer = () =>
    createServer((request, response) => {
      handle(request, response).catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
        response.end(String(error));
      });
    });

  const v4 = makeServer();
  const port = await listen(v4, 0, '127.0.0.1');
  // `localhost` may resolve to ::1 first on some machines: answer there too when we can.
  const v6 = makeServer();
  let v6Listening = false;
  try {
    await listen(v6, port, '::1');
    v6Listening = true;
  } catch {
    // No IPv6 loopback here (or the port is taken on it): 127.0.0.1 serves both names.
  }

  const extra: Server[] = [];
  for (const address of options.addresses ?? []) {
    const server = makeServer();
    await listen(server, port, address);
    extra.push(server);
  }

  const origin = (host: string) => `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    port,
    hits,
    origin,
    url: (host, path) => `${origin(host)}${path}`,
    setRoute(host, path, route) {
      const key = host.toLowerCase();
      let routes = table.get(key);
      if (routes === undefined) {
        routes = new Map();
        table.set(key, routes);
      }
      routes.set(path, route);
    },
    pathsFetched: (host) => hits.filter((hit) => hit.host === host.toLowerCase()).map((hit) => hit.path),
    async close() {
      await Promise.all([closeServer(v4), v6Listening ? closeServer(v6) : Promise.resolve(), ...extra.map(closeServer)]);
    },
  };
}

/** A minimal HTML page: title, optional links and paragraphs of text. */
export function htmlPage(options: {
  readonly title: string;
  readonly paragraphs?: readonly string[];
  readonly links?: readonly string[];
  readonly lang?: string;
  readonly head?: string;
}): string {
  const links = (options.links ?? []).map((href) => `<li><a href="${href}">${href}</a></li>`).join('');
  const paragraphs = (options.paragraphs ?? []).map((p) => `<p>${p}</p>`).join('\n');
  return `<!doctype html><html lang="${options.lang ?? 'en'}"><head><meta charset="utf-8"><title>${options.title}</title>${options.head ?? ''}</head>
<body><nav><ul>${links}</ul></nav><main><article><h1>${options.title}</h1>
${paragraphs}
</article></main><footer><p>Fixture site</p></footer></body></html>`;
}
