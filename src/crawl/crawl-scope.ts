/**
 * Which URLs a crawl may fetch: the seeds' hosts (`host`), the seeds' registrable domains
 * (`domain`, by the public suffix list via tldts: `blog.example.co.uk` and `www.example.co.uk`
 * share `example.co.uk`), or any http(s) URL (`any`).
 */
import { getDomain, getHostname } from 'tldts';
import { ValidationError, describeValue } from '../errors.js';

import { SCOPE_MODES, type ScopeMode } from '../types.js';
import { parseHttpUrl, withoutUserInfo } from '../url/url-host.js';

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
    if (url === null) {
      // A seed without a scheme (`127.0.0.1:38101/`, `localhost:8080`, `example.com/news`; not `mailto:x`) that is a URL once `http://` is added: say so.
      const guess = typeof seed === 'string' && !/^[a-z][a-z0-9+.-]*:(?!\d)/i.test(seed) ? parseHttpUrl(`http://${seed}`) : null;
      // Only for what reads as a host: a dot, a port or localhost (`not-a-url` gets no guess).
      if (guess !== null && (guess.hostname.includes('.') || guess.port !== '' || guess.hostname === 'localhost')) throw new ValidationError(`Expected a seed to be an http(s) URL, got \`${seed}\` — did you mean \`http://${seed}\`?`);
      throw new ValidationError(`Expected a seed to be an http(s) URL, got ${describeValue(seed)}`);
    }
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

/**
 * A crawl's seeds and their scope: each seed without its user-info (withoutUserInfo: a crawl
 * never sends credentials), checked to be an http(s) URL. Throws a ValidationError otherwise.
 */
export function seedScope(seeds: readonly string[], mode: ScopeMode): { seeds: string[]; scope: CrawlScope } {
  if (!Array.isArray(seeds) || seeds.length === 0) throw new ValidationError('Expected at least one seed URL');
  const stripped = seeds.map((seed) => (typeof seed === 'string' ? withoutUserInfo(seed) : seed));
  return { seeds: stripped, scope: createCrawlScope(stripped, mode) };
}
