/**
 * Duplicate URL clusters from what the index recorded: a cluster is a stored document and
 * everything rejected as its duplicate. Pure: plain records in, a report out (the database is
 * read by `loadClusterReport`).
 *
 * Invariants:
 * - Every rejected document points (`matchId`) at the document it matched. The index matches
 *   against stored documents only, but chains (C matched B, B matched A) are followed all the same
 *   with a union–find, so C lands in A's cluster. An id names a stored document when one has it,
 *   else a rejected one.
 * - Each document has at most one outgoing `matchId`, so a cluster holds at most one stored
 *   document. A rejected document whose chain reaches no stored document (a damaged database) is
 *   an orphan: counted, not listed.
 * - Stored documents without duplicates (singletons) are counted, not listed, and are not kept in
 *   memory: the stored documents are read once, after the rejected ones, keeping only those matched.
 */
import { ValidationError, describeValue } from '../errors.js';
import { hammingDistance } from '../fingerprint/fingerprint-codec.js';
import type { Fingerprint, RejectedDocument, SkippedPage, StoredDocument } from '../types.js';
import type { Cluster, ClusterMember, ClusterReport, ClusterStats } from './cluster-report.js';
import { choosePrimary, type PrimaryCandidate, type PrimaryWeights } from './choose-primary.js';
import { comparableUrl, urlFacts } from './comparable-url.js';
import { findHostMirrors, pageHostReader, validateMirrorOptions } from './find-host-mirrors.js';

/** Options of `buildClusters`; `config.report` fits as is. */
export interface BuildClustersOptions {
  /** Weights of the primary-choice signals. @default { canonical: 8, inLinks: 3, earliestDate: 2, completeness: 1, shallowUrl: 1 } */
  readonly primaryWeights?: PrimaryWeights;
  /** Share of a host's pages that must duplicate another host's to call it a mirror. @default 0.5 */
  readonly mirrorThreshold?: number;
  /** Duplicated pages a mirror host needs at least. @default 2 */
  readonly mirrorMinPages?: number;
  /** Skipped pages, for the stats only. @default none (stats.skipped is null) */
  readonly skipped?: Iterable<SkippedPage>;
  /** The index's threshold k, for the stats and the histogram's range. @default null */
  readonly distanceThreshold?: number | null;
}

export const defaultPrimaryWeights: PrimaryWeights = Object.freeze({
  canonical: 8,
  inLinks: 3,
  earliestDate: 2,
  completeness: 1,
  shallowUrl: 1,
});

/** One node of the union–find: a kept stored document or a rejected one. */
interface Node {
  readonly doc: StoredDocument | RejectedDocument;
  readonly stored: boolean;
  /** Node index of the document this one matched (-1 for stored documents and orphans). */
  readonly match: number;
}

function validateWeights(weights: PrimaryWeights): PrimaryWeights {
  for (const name of ['canonical', 'inLinks', 'earliestDate', 'completeness', 'shallowUrl'] as const) {
    const w = (weights as unknown as Record<string, unknown>)[name];
    if (typeof w !== 'number' || !Number.isFinite(w) || w < 0) {
      throw new ValidationError(`Expected \`primaryWeights.${name}\` to be a number ≥ 0, got ${describeValue(w)}`);
    }
  }
  return weights;
}

function find(parent: Int32Array, i: number): number {
  let root = i;
  while (parent[root] !== root) root = parent[root]!;
  while (parent[i] !== root) {
    const next = parent[i]!;
    parent[i] = root;
    i = next;
  }
  return root;
}

function union(parent: Int32Array, a: number, b: number): void {
  const ra = find(parent, a);
  const rb = find(parent, b);
  if (ra !== rb) parent[rb] = ra;
}

function nonEmpty(value: string | null | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Distance between two members along the match tree (sum of recorded distances): the fallback
 * when a fingerprint is missing. An upper bound of the true distance by the triangle inequality.
 */
function treeDistance(nodes: readonly Node[], from: number, to: number): number {
  const up = new Map<number, number>();
  let sum = 0;
  for (let i = to; i >= 0 && !up.has(i); i = nodes[i]!.match) {
    up.set(i, sum);
    const doc = nodes[i]!.doc as Partial<RejectedDocument>;
    sum += nodes[i]!.stored ? 0 : doc.distance ?? 0;
  }
  sum = 0;
  const seen = new Set<number>();
  for (let i = from; i >= 0 && !seen.has(i); i = nodes[i]!.match) {
    const meet = up.get(i);
    if (meet !== undefined) return sum + meet;
    seen.add(i);
    const doc = nodes[i]!.doc as Partial<RejectedDocument>;
    sum += nodes[i]!.stored ? 0 : doc.distance ?? 0;
  }
  return sum;
}

/**
 * Builds the cluster report. `stored` is read once, after `rejected` (iterators from the index are
 * fine); `inLinks` maps a link target URL to the number of crawled pages linking to it.
 */
export function buildClusters(
  stored: Iterable<StoredDocument>,
  rejected: Iterable<RejectedDocument>,
  inLinks: ReadonlyMap<string, number>,
  options: BuildClustersOptions = {},
): ClusterReport {
  const weights = validateWeights(options.primaryWeights ?? defaultPrimaryWeights);
  const mirrorOptions = validateMirrorOptions({ threshold: options.mirrorThreshold, minPages: options.mirrorMinPages });
  const threshold = options.distanceThreshold ?? null;

  const hostPages = new Map<string, number>();
  const pageHost = pageHostReader();
  const countHost = (doc: { readonly url: string; readonly finalUrl?: string | null }) => {
    const host = pageHost(doc);
    if (host !== null) hostPages.set(host, (hostPages.get(host) ?? 0) + 1);
  };

  // Rejected documents first: they say which stored documents are worth keeping.
  const rejectedList: RejectedDocument[] = [];
  const rejectedIndex = new Map<number, number>();
  const matchedIds = new Set<number>();
  const distanceCounts: number[] = [];
  let exact = 0;
  let near = 0;
  let similar = 0;
  for (const doc of rejected) {
    if (rejectedIndex.has(doc.id)) continue;
    rejectedIndex.set(doc.id, rejectedList.length);
    rejectedList.push(doc);
    matchedIds.add(doc.matchId);
    countHost(doc);
    if (doc.kind === 'exact') exact++;
    else if (doc.kind === 'similar') similar++;
    else near++;
    const d = doc.kind === 'exact' ? 0 : doc.distance;
    if (Number.isInteger(d) && d >= 0 && d <= 64) {
      while (distanceCounts.length <= d) distanceCounts.push(0);
      distanceCounts[d]!++;
    }
  }
  if (threshold !== null) while (distanceCounts.length <= threshold) distanceCounts.push(0);

  const keptStored: StoredDocument[] = [];
  const storedIndex = new Map<number, number>();
  let storedCount = 0;
  for (const doc of stored) {
    storedCount++;
    countHost(doc);
    if (matchedIds.has(doc.id) && !storedIndex.has(doc.id)) {
      storedIndex.set(doc.id, keptStored.length);
      keptStored.push(doc);
    }
  }

  // Nodes: kept stored documents, then rejected ones.
  const base = keptStored.length;
  const nodes: Node[] = keptStored.map((doc) => ({ doc, stored: true, match: -1 }));
  for (const doc of rejectedList) {
    const s = storedIndex.get(doc.matchId);
    const r = rejectedIndex.get(doc.matchId);
    nodes.push({ doc, stored: false, match: s !== undefined ? s : r !== undefined ? base + r : -1 });
  }
  const parent = Int32Array.from(nodes, (_, i) => i);
  nodes.forEach((node, i) => {
    if (node.match >= 0) union(parent, i, node.match);
  });
  const components = new Map<number, number[]>();
  for (let i = 0; i < nodes.length; i++) {
    const root = find(parent, i);
    const list = components.get(root);
    if (list === undefined) components.set(root, [i]);
    else list.push(i);
  }

  // URL facts of every node, from one parse each: keys (url, then finalUrl when it differs) and depth.
  const nodeKeys: string[][] = [];
  const nodeDepths: (number | null)[] = [];
  for (const node of nodes) {
    const facts = urlFacts(node.doc.url);
    const keys = [facts.key];
    const final = nonEmpty(node.doc.finalUrl);
    if (final !== undefined) {
      const finalKey = comparableUrl(final);
      if (finalKey !== facts.key) keys.push(finalKey);
    }
    nodeKeys.push(keys);
    nodeDepths.push(facts.pathDepth);
  }

  // In-link counts of cluster members only, keyed by comparable URL.
  const linkCounts = new Map<string, number>();
  for (const keys of nodeKeys) for (const key of keys) linkCounts.set(key, 0);
  for (const [url, count] of inLinks) {
    if (!Number.isFinite(count) || count <= 0) continue;
    const key = comparableUrl(url);
    const current = linkCounts.get(key);
    if (current !== undefined) linkCounts.set(key, current + count);
  }
  const inLinksOf = (keys: readonly string[]) => {
    let sum = 0;
    for (const key of keys) sum += linkCounts.get(key) ?? 0;
    return sum;
  };
  /**
   * A member's URL keys for the URL-identity signals (canonical votes, in-links) within its cluster.
   * A member that reached its final URL through a redirect, where another member was fetched at that
   * URL itself, is the same page under an old address: the final URL's links and canonical votes
   * belong to the member fetched there, so the redirecting URL is not named the original of the page
   * it redirects to merely because it collects both addresses' evidence.
   */
  const clusterKeys = (members: readonly number[]): string[][] => {
    const direct = new Set(members.map((i) => nodeKeys[i]![0]!));
    return members.map((i) => nodeKeys[i]!.filter((key, k) => k === 0 || !direct.has(key)));
  };

  // A rejected exact copy without its own fingerprint has its match's.
  const fingerprintOf = (i: number): Fingerprint | null => {
    const seen = new Set<number>();
    for (let j = i; j >= 0 && !seen.has(j); j = nodes[j]!.match) {
      seen.add(j);
      const node = nodes[j]!;
      if (node.doc.fingerprint !== null) return node.doc.fingerprint;
      if (node.stored || (node.doc as RejectedDocument).kind !== 'exact') return null;
    }
    return null;
  };

  const built: Omit<Cluster, 'id'>[] = [];
  let singletons = storedCount - keptStored.length;
  let orphans = 0;
  let primaryNotStored = 0;
  for (const members of components.values()) {
    const storedMembers = members.filter((i) => nodes[i]!.stored).length;
    if (storedMembers === 0) {
      orphans += members.length;
      continue;
    }
    if (members.length === 1) {
      singletons++;
      continue;
    }
    const memberKeys = clusterKeys(members);
    const candidates: PrimaryCandidate[] = members.map((i, m) => {
      const doc = nodes[i]!.doc;
      return {
        id: doc.id,
        stored: nodes[i]!.stored,
        url: doc.url,
        finalUrl: doc.finalUrl,
        canonicalUrl: doc.canonicalUrl,
        publishedAt: doc.publishedAt,
        lastModified: doc.lastModified,
        textLength: doc.textLength,
        depth: doc.depth,
        inLinks: inLinksOf(memberKeys[m]!),
        urlKeys: memberKeys[m]!,
        pathDepth: nodeDepths[i]!,
      };
    });
    const choice = choosePrimary(candidates, weights);
    const p = members[choice.index]!;
    const primaryDoc = nodes[p]!.doc;
    const primaryFp = fingerprintOf(p);
    if (!nodes[p]!.stored) primaryNotStored++;

    const clusterMembers: ClusterMember[] = members.map((i) => {
      const node = nodes[i]!;
      const doc = node.doc;
      const final = nonEmpty(doc.finalUrl);
      let kind: ClusterMember['kind'];
      let distance: number;
      if (i === p) {
        kind = 'primary';
        distance = 0;
      } else if (doc.textHash === primaryDoc.textHash) {
        kind = 'exact';
        distance = 0;
      } else if (!node.stored && (doc as RejectedDocument).kind === 'similar' && node.match === p) {
        kind = 'similar';
        distance = (doc as RejectedDocument).distance;
      } else {
        kind = 'near';
        const fp = fingerprintOf(i);
        distance = fp !== null && primaryFp !== null ? hammingDistance(fp, primaryFp) : treeDistance(nodes, i, p);
      }
      const member: { -readonly [K in keyof ClusterMember]: ClusterMember[K] } = {
        url: doc.url,
        kind,
        distance,
        title: doc.title ?? '',
        stored: node.stored,
      };
      if (final !== undefined && final !== doc.url) member.finalUrl = final;
      if (!node.stored) {
        const r = doc as RejectedDocument;
        if (node.match >= 0) member.matchUrl = nodes[node.match]!.doc.url;
        member.matchDistance = r.kind === 'exact' ? 0 : r.distance;
        if (r.kind === 'similar') {
          member.similarity = r.similarity ?? 0;
          member.containment = r.containment ?? 0;
        }
      }
      return member;
    });
    const rank = { primary: 0, exact: 1, near: 2, similar: 3 } as const;
    clusterMembers.sort((a, b) =>
      rank[a.kind] - rank[b.kind] || a.distance - b.distance || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
    // The primary's title, else the first member's that has one (the primary is first).
    const title = clusterMembers.find((m) => m.title.trim() !== '')?.title ?? '';
    built.push({
      primary: primaryDoc.url,
      title,
      size: clusterMembers.length,
      reasons: choice.reasons,
      members: clusterMembers,
    });
  }
  built.sort((a, b) => b.size - a.size || (a.primary < b.primary ? -1 : a.primary > b.primary ? 1 : 0));
  const clusters: Cluster[] = built.map((c, i) => ({ id: i + 1, ...c }));

  const mirrors = findHostMirrors(clusters, hostPages, mirrorOptions);

  const sizeCounts = new Map<number, number>();
  let clusteredDocuments = 0;
  for (const c of clusters) {
    clusteredDocuments += c.size;
    sizeCounts.set(c.size, (sizeCounts.get(c.size) ?? 0) + 1);
  }
  let skipped: number | null = null;
  const skippedBy: Record<string, number> = {};
  if (options.skipped !== undefined) {
    skipped = 0;
    for (const page of options.skipped) {
      skipped++;
      skippedBy[page.reason] = (skippedBy[page.reason] ?? 0) + 1;
    }
  }
  const stats: ClusterStats = {
    documents: storedCount + rejectedList.length,
    stored: storedCount,
    rejected: rejectedList.length,
    exact,
    near,
    similar,
    skipped,
    skippedBy,
    clusters: clusters.length,
    clusteredDocuments,
    singletons,
    orphans,
    largestCluster: clusters.length === 0 ? 0 : clusters[0]!.size,
    primaryNotStored,
    mirrors: mirrors.length,
    distanceCounts,
    clusterSizeCounts: [...sizeCounts].sort((a, b) => a[0] - b[0]).map(([size, n]) => ({ size, clusters: n })),
    distanceThreshold: threshold,
  };
  return { clusters, stats, mirrors };
}
