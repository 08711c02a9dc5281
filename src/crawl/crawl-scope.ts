/**
 * Which URLs a crawl may fetch: the seeds' hosts (`host`), the seeds' registrable domains
 * (`domain`, by the public suffix list via tldts: `blog.example.co.uk` and `www.example.co.uk`
 * share `example.co.uk`), or any http(s) URL (`any`).
 */
import { getDomain, getHostname } from 'tldts';
import { ValidationError, describeValue } from '../errors.js';

import { SCOPE_MODES, type ScopeMode } from '../types.js';
import { parseHttpUrl } from '../url/url-host.js';

/** A crawl's scope, built once from the seeds. */
export interface CrawlScope {
  readonly mode: ScopeMode;
  /** Lower-case hosts (mode `host`) or registrable domains (mode `domain`) in scope. */
  readonly keys: ReadonlySet<string>;
}

/** The scope key of a URL: its host, or its registrable domain (the host itself for IPs and `localhost`). */
function scopeKey(url: URL, mode: ScopeMode): string {
  const host = url.hostname.toLowerCase();
  if (mode !== 'domain') return host;
  const domain = getDomain(url.href, { allowPrivateDomains: true });
  return domain ?? getHostname(url.href) ?? host;
}

/** Builds the scope of a crawl from its seeds. Throws a ValidationError for a seed that is not an http(s) URL. */
export function createCrawlScope(seeds: readonly string[], mode: ScopeMode): CrawlScope {
  if (!SCOPE_MODES.includes(mode)) {
    throw new ValidationError(`Expected \`scope\` to be one of ${SCOPE_MODES.join('|')}, got ${describeValue(mode)}`);
  }
  const keys = new Set<string>();
  for (const seed of seeds) {
    const url = parseHttpUrl(seed);
    if (url === null) throw new ValidationError(`Expected a seed to be an http(s) URL, got ${describeValue(seed)}`);
    keys.add(scopeKey(url, mode));
  }
  return { mode, keys };
}

/** Whether a URL lies within the crawl's scope (never true for non-http(s) URLs). */
export function inCrawlScope(scope: CrawlScope, url: string | URL): boolean {
  const parsed = typeof url === 'string' ? parseHttpUrl(url) : url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  if (parsed === null) return false;
  if (scope.mode === 'any') return true;
  return scope.keys.has(scopeKey(parsed, scope.mode));
}
