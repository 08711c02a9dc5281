/**
 * The one home of URL parsing for hosts: http(s) URLs by the WHATWG parser (crawl scope, report,
 * politeness), and the cheap regex reading of a link's site that extraction uses on every anchor.
 * Pure; imports nothing.
 */

/** Parses a seed or link into an http(s) URL, or null. */
export function parseHttpUrl(raw: string): URL | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
}

/** Lower-case host name of an http(s) URL (surrounding white space ignored), or null for anything else. */
export function urlHost(raw: string): string | null {
  const url = parseHttpUrl(raw.trim());
  return url === null || url.hostname === '' ? null : url.hostname;
}

/**
 * A host reader for many URLs: parses each distinct `scheme://authority` once (hosts repeat across a
 * crawl) and gives the same answer as `urlHost`. Memo lives as long as the returned function.
 */
export function hostReader(): (raw: string) => string | null {
  const memo = new Map<string, string | null>();
  return (raw: string) => {
    // Only what the WHATWG parser itself strips may come before the scheme.
    const m = /^[\x00-\x20]*(https?):\/\/([^/?#\\]*)/i.exec(raw);
    if (m === null) return urlHost(raw);
    const origin = `${m[1]!.toLowerCase()}://${m[2]!}`;
    let host = memo.get(origin);
    if (host === undefined) {
      host = urlHost(`${origin}/`);
      memo.set(origin, host);
    }
    return host;
  };
}

/** The host name of any absolute URL (http(s) or not), or '' when it does not parse (politeness keys). */
export function hostnameOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

/**
 * The site of an absolute URL for link classification: its host without a leading `www.` (or
 * `www2.` ...), lower case, or null. A regex reading, not the WHATWG parser: it runs on every
 * anchor of every page.
 */
export function siteHost(url: string | null | undefined): string | null {
  if (url === null || url === undefined) return null;
  const match = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?([^:/?#]+)/i.exec(url.trim());
  return match === null ? null : match[1]!.toLowerCase().replace(/^www\d?\./, '');
}
