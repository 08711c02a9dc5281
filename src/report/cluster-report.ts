/**
 * The records of the duplicate-cluster report: what `buildClusters` returns and what the JSON,
 * CSV and HTML formatters write.
 *
 * Member `kind` and `distance` are always relative to the cluster's primary:
 * - the primary itself is `primary`, distance 0;
 * - a member with the primary's normalised text hash is `exact`, distance 0;
 * - a member the index rejected as `similar` (the second stage) against the primary is `similar`,
 *   with its distance and the index's `similarity` (Jaccard) and `containment` estimates;
 * - every other member is `near`, with the Hamming distance of its fingerprint to the primary's.
 * When the primary is the stored document these are exactly the index's decisions. When the
 * evidence picks a rejected copy as the primary, the stored document becomes an ordinary member
 * (`stored: true`) with its kind and distance to that primary, which may exceed the index
 * threshold k (two copies each within k of the stored one can be up to 2k apart). The index's own
 * decision for each rejected member is kept beside it (`matchUrl`, `matchDistance`).
 */

import type { CascadeFlag, CascadeFlagKind } from '../types.js';

/** One URL of a cluster. */
export interface ClusterMember {
  readonly url: string;
  /** Relation to the primary (see the module comment). */
  readonly kind: 'primary' | 'exact' | 'near' | 'similar';
  /** Hamming distance to the primary's fingerprint; 0 for the primary and exact copies. */
  readonly distance: number;
  /** The URL after redirects, when it differs from `url`. */
  readonly finalUrl?: string;
  /** Page title ('' when none). */
  readonly title: string;
  /** True for the document the index stored (each cluster has at most one). */
  readonly stored: boolean;
  /** For a rejected member: the URL of the document the index matched it against. */
  readonly matchUrl?: string;
  /** For a rejected member: the distance the index recorded against `matchUrl`. */
  readonly matchDistance?: number;
  /** For a member the second stage rejected: the estimated Jaccard similarity and containment. */
  readonly similarity?: number;
  readonly containment?: number;
  /** Kinds of the cascade's flags on the page (src/cascade/), when it has any. */
  readonly flags?: readonly CascadeFlagKind[];
}

/** A page the cascade flagged (in a cluster or not), with its evidence. */
export interface FlaggedPage {
  readonly url: string;
  /** Its document id, or null for a page recorded as skipped (a spun copy rejected by the cascade). */
  readonly docId: number | null;
  readonly kinds: readonly CascadeFlagKind[];
  /** One line of evidence a flag. */
  readonly summary: readonly string[];
  /** The flags with their whole evidence. */
  readonly flags: readonly CascadeFlag[];
}

/** URLs that are the same document, with the one judged to be the original. */
export interface Cluster {
  /** 1-based position in the report (largest clusters first). */
  readonly id: number;
  /** URL of the primary (original) document. */
  readonly primary: string;
  /** Title of the primary, or the first non-empty member title. */
  readonly title: string;
  /** Number of members, the primary included. */
  readonly size: number;
  /** Why the primary was chosen, strongest signal first, e.g. `canonical`, `in-links 12 vs 3`. */
  readonly reasons: readonly string[];
  /** Every URL of the cluster, primary first. */
  readonly members: readonly ClusterMember[];
}

/** A host whose pages are mostly duplicates of another host's pages. */
export interface HostMirror {
  /** The copying host. */
  readonly mirror: string;
  /** The host it copies (the one holding more of the shared clusters' primaries). */
  readonly original: string;
  /** Pages of `mirror` in a cluster with a page of `original`. */
  readonly pages: number;
  /** All pages of `mirror` the index judged (stored or rejected). */
  readonly of: number;
  /** pages / of. */
  readonly share: number;
  /** Pages of `original` in a cluster with a page of `mirror`, and all pages of `original`. */
  readonly originalPages: number;
  readonly originalOf: number;
  /** True when `original` also passes the threshold the other way (two copies of one site). */
  readonly mutual: boolean;
  /** Human summary, e.g. `b.example mirrors a.example (41 of 45 pages)`. */
  readonly summary: string;
}

/** Counts over the whole index. */
export interface ClusterStats {
  /** Documents judged by the index (stored + rejected). */
  readonly documents: number;
  readonly stored: number;
  readonly rejected: number;
  readonly exact: number;
  readonly near: number;
  /** Rejected by the second stage. */
  readonly similar: number;
  /** Pages neither stored nor judged (too short, fetch errors...); null when not known. */
  readonly skipped: number | null;
  /** Skipped pages by reason; empty when not known. */
  readonly skippedBy: Readonly<Record<string, number>>;
  /** Clusters listed (two members or more). */
  readonly clusters: number;
  /** Documents in listed clusters. */
  readonly clusteredDocuments: number;
  /** Stored documents without any duplicate (not listed). */
  readonly singletons: number;
  /** Rejected documents whose match is not in the index (a damaged database); not listed. */
  readonly orphans: number;
  /** Members of the largest cluster (0 when none). */
  readonly largestCluster: number;
  /** Clusters whose primary is a rejected copy rather than the stored document. */
  readonly primaryNotStored: number;
  /** Host mirror pairs reported. */
  readonly mirrors: number;
  /** Rejected documents by the distance the index recorded: index = distance. */
  readonly distanceCounts: readonly number[];
  /** Listed clusters by size, ascending. */
  readonly clusterSizeCounts: readonly { readonly size: number; readonly clusters: number }[];
  /** The index's near-duplicate threshold k, when known. */
  readonly distanceThreshold: number | null;
  /** Flagged pages by flag kind (absent when the index has no flags table). */
  readonly flagged?: Readonly<Partial<Record<CascadeFlagKind, number>>>;
}

/** The whole report. */
export interface ClusterReport {
  /** Largest first; ties by primary URL. */
  readonly clusters: readonly Cluster[];
  readonly stats: ClusterStats;
  /** Largest share first. */
  readonly mirrors: readonly HostMirror[];
  /** Pages the cascade flagged, by URL (absent when the index has no flags table). */
  readonly flagged?: readonly FlaggedPage[];
}
