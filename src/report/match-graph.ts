/**
 * The match graph of a cluster report: nodes (kept stored documents, then rejected ones, each
 * pointing at the node it matched), their connected components by union–find, and distances and
 * fingerprints read along the match tree.
 */
import type { Fingerprint, RejectedDocument, StoredDocument } from '../types.js';

/** One node of the union–find: a kept stored document or a rejected one. */
export interface Node {
  readonly doc: StoredDocument | RejectedDocument;
  readonly stored: boolean;
  /** Node index of the document this one matched (-1 for stored documents and orphans). */
  readonly match: number;
}

/** Nodes: the kept stored documents, then the rejected ones, each linked to the node it matched. */
export function matchNodes(
  keptStored: readonly StoredDocument[], storedIndex: ReadonlyMap<number, number>,
  rejectedList: readonly RejectedDocument[], rejectedIndex: ReadonlyMap<number, number>,
): Node[] {
  const base = keptStored.length;
  const nodes: Node[] = keptStored.map((doc) => ({ doc, stored: true, match: -1 }));
  for (const doc of rejectedList) {
    const s = storedIndex.get(doc.matchId);
    const r = rejectedIndex.get(doc.matchId);
    nodes.push({ doc, stored: false, match: s !== undefined ? s : r !== undefined ? base + r : -1 });
  }
  return nodes;
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

/** The connected components of the match graph (union–find), each a list of node indexes in order. */
export function matchComponents(nodes: readonly Node[]): Map<number, number[]> {
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
  return components;
}

/**
 * Distance between two members along the match tree (sum of recorded distances): the fallback
 * when a fingerprint is missing. An upper bound of the true distance by the triangle inequality.
 */
export function treeDistance(nodes: readonly Node[], from: number, to: number): number {
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

/** A node's fingerprint; a rejected exact copy without its own fingerprint has its match's. */
export function fingerprintOf(nodes: readonly Node[], i: number): Fingerprint | null {
  const seen = new Set<number>();
  for (let j = i; j >= 0 && !seen.has(j); j = nodes[j]!.match) {
    seen.add(j);
    const node = nodes[j]!;
    if (node.doc.fingerprint !== null) return node.doc.fingerprint;
    if (node.stored || (node.doc as RejectedDocument).kind !== 'exact') return null;
  }
  return null;
}
