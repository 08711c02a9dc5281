/**
 * The cascade's flags in the cluster report: the flags table's rows (src/cascade/flag-row.ts) become
 * a `flags` column on cluster members and a list of flagged pages with their evidence, summarised
 * in one line a flag for people (the JSON keeps each flag's whole evidence).
 */
import type { CascadeFlag, CascadeFlagKind } from '../types.js';
import { flagOfRow, type DocumentUrls, type FlagRow } from '../cascade/flag-row.js';
import type { ClusterReport, FlaggedPage } from './cluster-report.js';

const pct = (x: number) => `${(100 * x).toFixed(0)}%`;

/** One line of evidence for a flag, e.g. `compiled: 3 sources cover 86% (a 40%, b 30%, c 16%)`. */
export function flagSummary(flag: CascadeFlag): string {
  switch (flag.kind) {
    case 'homoglyph':
      return `homoglyph: ${flag.words} mixed-script words (${pct(flag.share)}), e.g. ${(flag.marked ?? flag.examples).slice(0, 3).join(', ')}`;
    case 'generated':
      return `generated: score ${flag.score.toFixed(2)} (${flag.path.slice(0, 2).join('; ')})`;
    case 'synonymised':
      return `synonymised: spins ${flag.sourceUrl} (${pct(flag.substitutedShare)} of stems synonyms, ${pct(flag.explainedShare)} explained, grammar similarity ${flag.tagSimilarity.toFixed(2)})`;
    case 'compiled':
      return `compiled: ${flag.sources.length} sources cover ${pct(flag.coveredShare)} (${flag.sources.map((s) => `${s.url} ${pct(s.share)}`).join(', ')})`;
  }
}

/**
 * Flagged pages from flag rows, by URL, flags in the cascade's stage order; `urlOf`: the index's
 * document URLs, which name a `compiled` flag's sources (its rows keep their ids only).
 */
export function flaggedPages(rows: readonly FlagRow[], urlOf?: DocumentUrls): FlaggedPage[] {
  const byUrl = new Map<string, { docId: number | null; flags: CascadeFlag[] }>();
  for (const row of rows) {
    const page = byUrl.get(row.url) ?? byUrl.set(row.url, { docId: row.docId, flags: [] }).get(row.url)!;
    page.flags.push(flagOfRow(row, urlOf));
  }
  const order: readonly CascadeFlagKind[] = ['homoglyph', 'generated', 'synonymised', 'compiled'];
  return [...byUrl].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([url, { docId, flags }]) => {
    flags.sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
    return { url, docId, kinds: flags.map((f) => f.kind), summary: flags.map(flagSummary), flags };
  });
}

/** The URLs of an index's documents by id, from the rows a report reads. */
export function documentUrls(...lists: readonly (readonly { id: number; url: string }[])[]): DocumentUrls {
  const urls = new Map<number, string>();
  for (const list of lists) for (const doc of list) urls.set(doc.id, doc.url);
  return (id) => urls.get(id);
}

/** The report with its members' `flags`, the flagged pages and their counts by kind (`urlOf`: see flaggedPages). */
export function withFlags(report: ClusterReport, rows: readonly FlagRow[], urlOf?: DocumentUrls): ClusterReport {
  const flagged = flaggedPages(rows, urlOf);
  const kindsOf = new Map(flagged.map((p) => [p.url, p.kinds]));
  const counts: Partial<Record<CascadeFlagKind, number>> = {};
  for (const p of flagged) for (const k of p.kinds) counts[k] = (counts[k] ?? 0) + 1;
  const clusters = report.clusters.map((c) => ({
    ...c,
    members: c.members.map((m) => (kindsOf.has(m.url) ? { ...m, flags: kindsOf.get(m.url)! } : m)),
  }));
  return { ...report, clusters, flagged, stats: { ...report.stats, flagged: counts } };
}
