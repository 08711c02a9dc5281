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
import { fingerprintOf, matchComponents, matchNodes, treeDistance, type Node } from './match-graph.js';
import { defaultConfig } from '../config.js';
import type { Cluster, ClusterMember, ClusterReport, ClusterStats, HostMirror } from './cluster-report.js';
import { choosePrimary, type PrimaryCandidate, type PrimaryWeights } from '../primary/choose-primary.js';
import { comparableUrl, urlFacts } from '../url/comparable-url.js';
import { findHostMirrors, pageHostReader, validateMirrorOptions } from './find-host-mirrors.js';

/** Options of `buildClusters`; `config.report` fits as is. */
export interface BuildClustersOptions {
  /** Weights of the primary-choice signals. @default config/default.json's report.primaryWeights */
  readonly primaryWeights?: PrimaryWeights;
  /** Share of a host's pages that must duplicate another host's to call it a mirror. @default config/default.json's report.mirrorThreshold */
  readonly mirrorThreshold?: number;
  /** Duplicated pages a mirror host needs at least. @default config/default.json's report.mirrorMinPages */
  readonly mirrorMinPages?: number;
  /** Skipped pages, for the stats only. @default none (stats.skipped is null) */
  readonly skipped?: Iterable<SkippedPage>;
  /** The index's threshold k, for the stats and the histogram's range. @default null */
  readonly distanceThreshold?: number | null;
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

function nonEmpty(value: string | null | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A page's URLs, for its host. */
type PageUrls = { readonly url: string; readonly finalUrl?: string | null };

/** What the rejected documents say, read first: which stored documents are worth keeping, and counts. */
interface RejectedRead {
  readonly list: RejectedDocument[];
  readonly index: Map<number, number>;
  readonly matchedIds: Set<number>;
  readonly distanceCounts: number[];
  readonly exact: number;
  readonly near: number;
  readonly similar: number;
}

function readRejected(rejected: Iterable<RejectedDocument>, countHost: (doc: PageUrls) => void, threshold: number | null): RejectedRead {
  const list: RejectedDocument[] = [];
  const index = new Map<number, number>();
  const matchedIds = new Set<number>();
  const distanceCounts: number[] = [];
  let exact = 0;
  let near = 0;
  let similar = 0;
  for (const doc of rejected) {
    if (index.has(doc.id)) continue;
    index.set(doc.id, list.length);
    list.push(doc);
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
  return { list, index, matchedIds, distanceCounts, exact, near, similar };
}

/** The stored documents some rejected one matched (the others are only counted). */
function readStored(stored: Iterable<StoredDocument>, matchedIds: ReadonlySet<number>, countHost: (doc: PageUrls) => void) {
  const kept: StoredDocument[] = [];
  const index = new Map<number, number>();
  let count = 0;
  for (const doc of stored) {
    count++;
    countHost(doc);
    if (matchedIds.has(doc.id) && !index.has(doc.id)) {
      index.set(doc.id, kept.length);
      kept.push(doc);
    }
  }
  return { kept, index, count };
}

/** URL facts of every node, from one parse each: keys (url, then finalUrl when it differs) and path depth. */
function nodeUrlFacts(nodes: readonly Node[]): { keys: string[][]; depths: (number | null)[] } {
  const keys: string[][] = [];
  const depths: (number | null)[] = [];
  for (const node of nodes) {
    const facts = urlFacts(node.doc.url);
    const own = [facts.key];
    const final = nonEmpty(node.doc.finalUrl);
    if (final !== undefined) {
      const finalKey = comparableUrl(final);
      if (finalKey !== facts.key) own.push(finalKey);
    }
    keys.push(own);
    depths.push(facts.pathDepth);
  }
  return { keys, depths };
}

/** In-link counts of cluster members only, keyed by comparable URL: the sum over a member's keys. */
function inLinkCounter(nodeKeys: readonly (readonly string[])[], inLinks: ReadonlyMap<string, number>): (keys: readonly string[]) => number {
  const linkCounts = new Map<string, number>();
  for (const keys of nodeKeys) for (const key of keys) linkCounts.set(key, 0);
  for (const [url, count] of inLinks) {
    if (!Number.isFinite(count) || count <= 0) continue;
    const key = comparableUrl(url);
    const current = linkCounts.get(key);
    if (current !== undefined) linkCounts.set(key, current + count);
  }
  return (keys) => {
    let sum = 0;
    for (const key of keys) sum += linkCounts.get(key) ?? 0;
    return sum;
  };
}

/**
 * A member's URL keys for the URL-identity signals (canonical votes, in-links) within its cluster.
 * A member that reached its final URL through a redirect, where another member was fetched at that
 * URL itself, is the same page under an old address: the final URL's links and canonical votes
 * belong to the member fetched there, so the redirecting URL is not named the original of the page
 * it redirects to merely because it collects both addresses' evidence.
 */
function clusterKeys(nodeKeys: readonly (readonly string[])[], members: readonly number[]): string[][] {
  const direct = new Set(members.map((i) => nodeKeys[i]![0]!));
  return members.map((i) => nodeKeys[i]!.filter((key, k) => k === 0 || !direct.has(key)));
}

/** What every cluster of one report is built from. */
interface ClusterContext {
  readonly nodes: readonly Node[];
  readonly nodeKeys: readonly (readonly string[])[];
  readonly nodeDepths: readonly (number | null)[];
  readonly inLinksOf: (keys: readonly string[]) => number;
  readonly weights: PrimaryWeights;
}

/** The primary of a cluster: the candidates' evidence, weighed (choose-primary.ts). */
function choosePrimaryOf(members: readonly number[], ctx: ClusterContext) {
  const memberKeys = clusterKeys(ctx.nodeKeys, members);
  const candidates: PrimaryCandidate[] = members.map((i, m) => {
    const doc = ctx.nodes[i]!.doc;
    return {
      id: doc.id,
      stored: ctx.nodes[i]!.stored,
      url: doc.url,
      finalUrl: doc.finalUrl,
      canonicalUrl: doc.canonicalUrl,
      publishedAt: doc.publishedAt,
      lastModified: doc.lastModified,
      textLength: doc.textLength,
      depth: doc.depth,
      inLinks: ctx.inLinksOf(memberKeys[m]!),
      urlKeys: memberKeys[m]!,
      pathDepth: ctx.nodeDepths[i]!,
    };
  });
  return choosePrimary(candidates, ctx.weights);
}

/** Member `i` of a cluster whose primary is node `p`, its distance to the primary measured. */
function clusterMember(nodes: readonly Node[], i: number, p: number, primaryFp: Fingerprint | null): ClusterMember {
  const node = nodes[i]!;
  const doc = node.doc;
  const final = nonEmpty(doc.finalUrl);
  let kind: ClusterMember['kind'];
  let distance: number;
  if (i === p) {
    kind = 'primary';
    distance = 0;
  } else if (doc.textHash === nodes[p]!.doc.textHash) {
    kind = 'exact';
    distance = 0;
  } else if (!node.stored && (doc as RejectedDocument).kind === 'similar' && node.match === p) {
    kind = 'similar';
    distance = (doc as RejectedDocument).distance;
  } else {
    kind = 'near';
    const fp = fingerprintOf(nodes, i);
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
}

const MEMBER_RANK = { primary: 0, exact: 1, near: 2, similar: 3 } as const;

/**
 * One cluster of two or more members with a stored one: its primary (chosen among `pool`, all
 * members by default) and its members, primary first; `note` is added to the reasons.
 */
function buildCluster(members: readonly number[], ctx: ClusterContext, pool: readonly number[] = members, note?: string): Omit<Cluster, 'id'> {
  const choice = choosePrimaryOf(pool, ctx);
  const p = pool[choice.index]!;
  const primaryFp = fingerprintOf(ctx.nodes, p);
  const clusterMembers = members.map((i) => clusterMember(ctx.nodes, i, p, primaryFp));
  clusterMembers.sort((a, b) =>
    MEMBER_RANK[a.kind] - MEMBER_RANK[b.kind] || a.distance - b.distance || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  // The primary's title, else the first member's that has one (the primary is first).
  const title = clusterMembers.find((m) => m.title.trim() !== '')?.title ?? '';
  const reasons = note === undefined ? choice.reasons : [...choice.reasons, note];
  return { primary: ctx.nodes[p]!.doc.url, title, size: clusterMembers.length, reasons, members: clusterMembers };
}

/** Whether a primary's reasons hold evidence of its own that makes it the original: canonical or date. */
function hasOwnEvidence(reasons: readonly string[]): boolean {
  return reasons.some((r) => r.startsWith('canonical') || r.startsWith('earliest date'));
}

/**
 * Keeps the report from contradicting itself: when host B mirrors host A, a shared cluster whose
 * primary is B's page keeps it only if that page has canonical or date evidence of its own (and
 * the reasons say so); otherwise its primary is chosen again among the members not on B, and the
 * reasons say why. Returns whether a primary changed.
 */
function reconcileMirrorPrimaries(
  built: { cluster: Omit<Cluster, 'id'>; members: readonly number[] }[],
  mirrors: readonly HostMirror[],
  ctx: ClusterContext,
  pageHost: (page: PageUrls) => string | null,
): boolean {
  let changed = false;
  for (const entry of built) {
    const hostOf = (i: number) => pageHost(ctx.nodes[i]!.doc);
    const primaryNode = entry.members.find((i) => ctx.nodes[i]!.doc.url === entry.cluster.primary)!;
    const host = hostOf(primaryNode);
    const mirror = mirrors.find((m) => m.mirror === host && entry.members.some((i) => hostOf(i) === m.original));
    if (mirror === undefined) continue;
    if (hasOwnEvidence(entry.cluster.reasons)) {
      entry.cluster = { ...entry.cluster, reasons: [...entry.cluster.reasons, `on ${mirror.mirror}, which mirrors ${mirror.original}, but named primary by its own evidence`] };
      continue;
    }
    const pool = entry.members.filter((i) => hostOf(i) !== mirror.mirror);
    if (pool.length === 0) continue;
    entry.cluster = buildCluster(entry.members, ctx, pool, `not the copy on ${mirror.mirror}: that host mirrors ${mirror.original}, and the copy has no canonical or date evidence of its own`);
    changed = true;
  }
  return changed;
}

/** Clusters largest first (then by primary URL), numbered from 1. */
function numbered(built: readonly { cluster: Omit<Cluster, 'id'> }[]): Cluster[] {
  const sorted = built.map((b) => b.cluster).sort((a, b) => b.size - a.size || (a.primary < b.primary ? -1 : a.primary > b.primary ? 1 : 0));
  return sorted.map((c, i) => ({ id: i + 1, ...c }));
}

/** Skipped pages by reason (null when not given). */
function countSkipped(skippedPages: Iterable<SkippedPage> | undefined): { skipped: number | null; skippedBy: Record<string, number> } {
  const skippedBy: Record<string, number> = {};
  if (skippedPages === undefined) return { skipped: null, skippedBy };
  let skipped = 0;
  for (const page of skippedPages) {
    skipped++;
    skippedBy[page.reason] = (skippedBy[page.reason] ?? 0) + 1;
  }
  return { skipped, skippedBy };
}

/** Clusters by size, then the number of clusters of each size. */
function clusterSizes(clusters: readonly Cluster[]) {
  const sizeCounts = new Map<number, number>();
  let clusteredDocuments = 0;
  for (const c of clusters) {
    clusteredDocuments += c.size;
    sizeCounts.set(c.size, (sizeCounts.get(c.size) ?? 0) + 1);
  }
  const clusterSizeCounts = [...sizeCounts].sort((a, b) => a[0] - b[0]).map(([size, n]) => ({ size, clusters: n }));
  return { clusteredDocuments, clusterSizeCounts };
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
  const weights = validateWeights(options.primaryWeights ?? defaultConfig().report.primaryWeights);
  const mirrorOptions = validateMirrorOptions({ threshold: options.mirrorThreshold, minPages: options.mirrorMinPages });
  const threshold = options.distanceThreshold ?? null;

  const hostPages = new Map<string, number>();
  const pageHost = pageHostReader();
  const countHost = (doc: PageUrls) => {
    const host = pageHost(doc);
    if (host !== null) hostPages.set(host, (hostPages.get(host) ?? 0) + 1);
  };
  // Rejected documents first: they say which stored documents are worth keeping.
  const rejectedRead = readRejected(rejected, countHost, threshold);
  const storedRead = readStored(stored, rejectedRead.matchedIds, countHost);
  const nodes = matchNodes(storedRead.kept, storedRead.index, rejectedRead.list, rejectedRead.index);
  const facts = nodeUrlFacts(nodes);
  const ctx: ClusterContext = { nodes, nodeKeys: facts.keys, nodeDepths: facts.depths, inLinksOf: inLinkCounter(facts.keys, inLinks), weights };

  const built: { cluster: Omit<Cluster, 'id'>; members: readonly number[] }[] = [];
  let singletons = storedRead.count - storedRead.kept.length;
  let orphans = 0;
  for (const members of matchComponents(nodes).values()) {
    if (!members.some((i) => nodes[i]!.stored)) orphans += members.length;
    else if (members.length === 1) singletons++;
    else built.push({ cluster: buildCluster(members, ctx), members });
  }
  let clusters = numbered(built);
  let mirrors = findHostMirrors(clusters, hostPages, mirrorOptions);
  if (reconcileMirrorPrimaries(built, mirrors, ctx, pageHost)) {
    clusters = numbered(built);
    mirrors = findHostMirrors(clusters, hostPages, mirrorOptions);
  }
  const primaryNotStored = clusters.filter((c) => !c.members[0]!.stored).length;
  const skipped = countSkipped(options.skipped);
  const sizes = clusterSizes(clusters);

  const stats: ClusterStats = {
    documents: storedRead.count + rejectedRead.list.length,
    stored: storedRead.count,
    rejected: rejectedRead.list.length,
    exact: rejectedRead.exact,
    near: rejectedRead.near,
    similar: rejectedRead.similar,
    skipped: skipped.skipped,
    skippedBy: skipped.skippedBy,
    clusters: clusters.length,
    clusteredDocuments: sizes.clusteredDocuments,
    singletons,
    orphans,
    largestCluster: clusters.length === 0 ? 0 : clusters[0]!.size,
    primaryNotStored,
    mirrors: mirrors.length,
    distanceCounts: rejectedRead.distanceCounts,
    clusterSizeCounts: sizes.clusterSizeCounts,
    distanceThreshold: threshold,
  };
  return { clusters, stats, mirrors };
}
