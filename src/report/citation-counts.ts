/**
 * In-links as citations: of the pages linking to a URL, those that cite it — from another host, or
 * from inside their main text — count; links of the URL's own host outside the main text (menus,
 * sidebars, footers: the template) count nothing. A mirror whose template links to every one of its
 * pages thus gains no in-links from it, and the primary choice (choose-primary.ts) is left to
 * evidence that means something (canonical, dates, citations).
 */
import type { LinkRow } from '../types.js';
import { hostnameOf } from '../url/url-host.js';

/** URL → number of distinct pages citing it. */
export function citationCounts(rows: readonly LinkRow[]): Map<string, number> {
  const counts = new Map<string, number>();
  const hosts = new Map<string, string>();
  const hostOf = (url: string): string => {
    let host = hosts.get(url);
    if (host === undefined) {
      host = hostnameOf(url);
      hosts.set(url, host);
    }
    return host;
  };
  for (const [to, from, inMain] of rows) {
    const cites = Number(inMain ?? 0) === 1 || hostOf(to) !== hostOf(from);
    if (cites) counts.set(to, (counts.get(to) ?? 0) + 1);
  }
  return counts;
}
