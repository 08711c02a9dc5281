/**
 * URL helpers of the report: a comparison key (so that a `rel=canonical` or a link written
 * `https://www.Example.com/a/` finds the member crawled as `http://example.com/a`), the host, and
 * the path depth. Strings that are not http(s) URLs (file paths of a batch run) compare as they
 * are and have no host or depth.
 */

function parseHttp(raw: string): URL | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
}

/**
 * A key equal for URLs that name the same page in practice: scheme (http/https), a leading
 * `www.`, the fragment, a trailing slash, default ports and the case of host and percent escapes
 * are ignored; the query is kept as written.
 */
export function comparableUrl(raw: string): string {
  const url = parseHttp(raw);
  if (url === null) return raw.trim();
  const host = url.hostname.startsWith('www.') ? url.hostname.slice(4) : url.hostname;
  let path = url.pathname.replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase());
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  const search = url.search === '?' ? '' : url.search;
  return `//${host}${url.port === '' ? '' : `:${url.port}`}${path}${search}`;
}

/** Lower-case host name of an http(s) URL, or null for anything else. */
export function urlHost(raw: string): string | null {
  const url = parseHttp(raw);
  return url === null || url.hostname === '' ? null : url.hostname;
}

/** Non-empty path segments of an http(s) URL (`/` → 0, `/a/b/` → 2), or null for anything else. */
export function urlPathDepth(raw: string): number | null {
  const url = parseHttp(raw);
  if (url === null) return null;
  let depth = 0;
  for (const segment of url.pathname.split('/')) if (segment !== '') depth++;
  return depth;
}

/** The URL, serialised by the WHATWG parser, when it is http(s); null otherwise (never `javascript:`). */
export function httpHref(raw: string): string | null {
  const url = parseHttp(raw);
  return url === null ? null : url.href;
}
