/**
 * URL helpers of the report: a comparison key (so that a `rel=canonical` or a link written
 * `https://www.Example.com/a/` finds the member crawled as `http://example.com/a`), the host, and
 * the path depth. Strings that are not http(s) URLs (file paths of a batch run) compare as they
 * are and have no host or depth. Hosts: src/url/url-host.ts.
 */
import { parseHttpUrl } from '../url/url-host.js';

function parseHttp(raw: string): URL | null {
  return parseHttpUrl(raw.trim());
}

/** What the report needs of one URL, from one parse. */
export interface UrlFacts {
  /** `comparableUrl` of it. */
  readonly key: string;
  /** `urlPathDepth` of it. */
  readonly pathDepth: number | null;
}

function keyOf(url: URL): string {
  const host = url.hostname.startsWith('www.') ? url.hostname.slice(4) : url.hostname;
  let path = url.pathname.replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase());
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  const search = url.search === '?' ? '' : url.search;
  return `//${host}${url.port === '' ? '' : `:${url.port}`}${path}${search}`;
}

function depthOf(url: URL): number {
  let depth = 0;
  for (const segment of url.pathname.split('/')) if (segment !== '') depth++;
  return depth;
}

/** Key and path depth of a URL with a single parse. */
export function urlFacts(raw: string): UrlFacts {
  const url = parseHttp(raw);
  return url === null ? { key: raw.trim(), pathDepth: null } : { key: keyOf(url), pathDepth: depthOf(url) };
}

/**
 * A key equal for URLs that name the same page in practice: scheme (http/https), a leading
 * `www.`, the fragment, a trailing slash, default ports and the case of host and percent escapes
 * are ignored; the query is kept as written.
 */
export function comparableUrl(raw: string): string {
  const url = parseHttp(raw);
  return url === null ? raw.trim() : keyOf(url);
}

/** Non-empty path segments of an http(s) URL (`/` → 0, `/a/b/` → 2), or null for anything else. */
export function urlPathDepth(raw: string): number | null {
  const url = parseHttp(raw);
  return url === null ? null : depthOf(url);
}

/** The URL, serialised by the WHATWG parser, when it is http(s); null otherwise (never `javascript:`). */
export function httpHref(raw: string): string | null {
  const url = parseHttp(raw);
  return url === null ? null : url.href;
}
