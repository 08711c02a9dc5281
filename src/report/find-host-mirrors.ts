/**
 * Host mirrors: for each pair of hosts, the share of one host's pages that are duplicates of the
 * other's (in a cluster with one of its pages). A pair is reported when that share reaches the
 * threshold and the count reaches the minimum, as `b.example mirrors a.example (41 of 45 pages)`.
 *
 * Direction: the original is the host holding more primaries of the clusters the two share (then
 * more of those clusters' stored documents, then the name), so a full copy of a site is reported
 * once, as a mirror of the site whose pages were judged the originals, with `mutual` set.
 * A pair where neither host holds any primary of the clusters they share (two mirrors of a third
 * site) is left out: both are reported against that site.
 * A page's host is that of its final URL (after redirects), else of its URL; pages without an
 * http(s) host (batch file paths) take no part.
 */
import { ValidationError, describeValue } from '../errors.js';
import type { Cluster, HostMirror } from './cluster-report.js';
import { defaultConfig } from '../config.js';
import { hostReader } from '../url/url-host.js';

/** Thresholds of mirror detection (config `report.mirrorThreshold` and `report.mirrorMinPages`). */
export interface HostMirrorOptions {
  /** Share of a host's pages that must duplicate the other host's, 0–1. @default config/default.json's report.mirrorThreshold */
  readonly threshold?: number;
  /** Duplicated pages a host needs at least. @default config/default.json's report.mirrorMinPages */
  readonly minPages?: number;
}

interface PairCounts {
  /** Pages of host x in clusters shared with y (x < y by name), and the same for y. */
  xPages: number;
  yPages: number;
  /** Shared clusters whose primary is on x / on y; whose stored document is on x / on y. */
  xPrimaries: number;
  yPrimaries: number;
  xStored: number;
  yStored: number;
}

/** A page as far as mirrors go. */
export interface HostedPage {
  readonly url: string;
  readonly finalUrl?: string | null | undefined;
}

/** A reader of the host of a page for mirror purposes (final URL, else URL), memoised per reader. */
export function pageHostReader(): (page: HostedPage) => string | null {
  const host = hostReader();
  return (page) => host(typeof page.finalUrl === 'string' && page.finalUrl !== '' ? page.finalUrl : page.url);
}

export function validateMirrorOptions(options: HostMirrorOptions): { threshold: number; minPages: number } {
  const defaults = () => defaultConfig().report;
  const threshold = options.threshold ?? defaults().mirrorThreshold;
  const minPages = options.minPages ?? defaults().mirrorMinPages;
  if (typeof threshold !== 'number' || !(threshold >= 0 && threshold <= 1)) {
    throw new ValidationError(`Expected \`mirrorThreshold\` to be a number 0–1, got ${describeValue(threshold)}`);
  }
  if (typeof minPages !== 'number' || !Number.isInteger(minPages) || minPages < 1) {
    throw new ValidationError(`Expected \`mirrorMinPages\` to be an integer ≥ 1, got ${describeValue(minPages)}`);
  }
  return { threshold, minPages };
}

/**
 * Mirror pairs among the clusters. `hostPages` counts every page the index judged (stored or
 * rejected) by host: the denominator of each share. Largest share first, then most pages, then names.
 */
export function findHostMirrors(
  clusters: readonly Cluster[],
  hostPages: ReadonlyMap<string, number>,
  options: HostMirrorOptions = {},
): HostMirror[] {
  const { threshold, minPages } = validateMirrorOptions(options);
  const pairs = new Map<string, PairCounts>();
  const memberHost = pageHostReader();
  for (const cluster of clusters) {
    const perHost = new Map<string, number>();
    let primaryHost: string | null = null;
    let storedHost: string | null = null;
    for (const member of cluster.members) {
      const host = memberHost(member);
      if (host === null) continue;
      perHost.set(host, (perHost.get(host) ?? 0) + 1);
      if (member.kind === 'primary') primaryHost = host;
      if (member.stored) storedHost = host;
    }
    if (perHost.size < 2) continue;
    const hosts = [...perHost.keys()].sort();
    for (let i = 0; i < hosts.length; i++) {
      for (let j = i + 1; j < hosts.length; j++) {
        const x = hosts[i]!;
        const y = hosts[j]!;
        const key = `${x}\n${y}`;
        let counts = pairs.get(key);
        if (counts === undefined) {
          counts = { xPages: 0, yPages: 0, xPrimaries: 0, yPrimaries: 0, xStored: 0, yStored: 0 };
          pairs.set(key, counts);
        }
        counts.xPages += perHost.get(x)!;
        counts.yPages += perHost.get(y)!;
        if (primaryHost === x) counts.xPrimaries++;
        else if (primaryHost === y) counts.yPrimaries++;
        if (storedHost === x) counts.xStored++;
        else if (storedHost === y) counts.yStored++;
      }
    }
  }

  const mirrors: HostMirror[] = [];
  for (const [key, c] of pairs) {
    const [x, y] = key.split('\n') as [string, string];
    // A host's pages seen only inside clusters still count when hostPages lacks it.
    const xOf = Math.max(hostPages.get(x) ?? 0, c.xPages);
    const yOf = Math.max(hostPages.get(y) ?? 0, c.yPages);
    const xPasses = c.xPages >= minPages && c.xPages / xOf >= threshold;
    const yPasses = c.yPages >= minPages && c.yPages / yOf >= threshold;
    if (!xPasses && !yPasses) continue;
    // Two copies of a third host's pages (its primaries): each is reported against that host instead.
    if (c.xPrimaries === 0 && c.yPrimaries === 0) continue;
    let xIsMirror: boolean;
    if (xPasses && yPasses) {
      // The original holds the primaries; then the stored copies; then the name decides.
      xIsMirror = c.xPrimaries !== c.yPrimaries ? c.xPrimaries < c.yPrimaries
        : c.xStored !== c.yStored ? c.xStored < c.yStored
        : false;
    } else {
      xIsMirror = xPasses;
    }
    const [mirror, original, pages, of, originalPages, originalOf] = xIsMirror
      ? [x, y, c.xPages, xOf, c.yPages, yOf]
      : [y, x, c.yPages, yOf, c.xPages, xOf];
    mirrors.push({
      mirror,
      original,
      pages,
      of,
      share: pages / of,
      originalPages,
      originalOf,
      mutual: xPasses && yPasses,
      summary: `${mirror} mirrors ${original} (${pages} of ${of} pages)`,
    });
  }
  return mirrors.sort((a, b) =>
    b.share - a.share || b.pages - a.pages || (a.mirror < b.mirror ? -1 : a.mirror > b.mirror ? 1 : 0)
    || (a.original < b.original ? -1 : a.original > b.original ? 1 : 0));
}
