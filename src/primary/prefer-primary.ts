/**
 * Whether a page judged now is a better primary of its cluster than the document stored for it:
 * the crawl's question when a duplicate arrives (src/pipeline.ts swaps them when the answer is yes).
 *
 * The same evidence as the report's choice (choose-primary.ts: canonical, citations, earliest date,
 * completeness, shallow URL), weighed with the same weights, plus what the crawl knows of hosts: a
 * page on a host confirmed to mirror the other page's host never takes the place of a page of the
 * original host, unless it has evidence of its own (canonical or date), as the report reconciles
 * it (build-clusters.ts). Equal evidence keeps the stored copy (choosePrimary's tie-break), so a
 * cluster never flips back and forth between equal copies.
 *
 * Citations at crawl time count only links from a third host (neither candidate's): same-host links
 * are still being discovered while the crawl runs, so counting them would let the host crawled
 * first win by timing alone.
 */
import { choosePrimary, type PrimaryCandidate, type PrimaryWeights } from './choose-primary.js';

/** One side of the comparison. */
export interface PrimaryContender extends Omit<PrimaryCandidate, 'stored' | 'inLinks'> {
  /** Citations from third hosts. @default 0 */
  readonly inLinks?: number;
  /** The host this page is on is a confirmed mirror of the other contender's host. @default false */
  readonly onMirrorHost?: boolean;
}

/** The comparison's outcome: whether the challenger wins, and the report's reasons. */
export interface PrimaryPreference {
  readonly challengerWins: boolean;
  readonly reasons: readonly string[];
}

/** Whether reasons hold evidence a page has of its own: canonical or an earlier date. */
export function hasOwnEvidence(reasons: readonly string[]): boolean {
  return reasons.some((r) => r.startsWith('canonical') || r.startsWith('earliest date'));
}

/** Compares the stored document of a cluster with a challenger (a page judged its duplicate). */
export function preferPrimary(stored: PrimaryContender, challenger: PrimaryContender, weights: PrimaryWeights): PrimaryPreference {
  const candidates: PrimaryCandidate[] = [
    { ...stored, stored: true, inLinks: stored.inLinks ?? 0 },
    { ...challenger, stored: false, inLinks: challenger.inLinks ?? 0 },
  ];
  const choice = choosePrimary(candidates, weights);
  let challengerWins = choice.index === 1;
  // A mirror's page wins over the original's only by evidence of its own; the original's page
  // takes the place of a mirror's copy that has none.
  if (challengerWins && challenger.onMirrorHost === true && !hasOwnEvidence(choice.reasons)) challengerWins = false;
  else if (!challengerWins && stored.onMirrorHost === true && challenger.onMirrorHost !== true && !hasOwnEvidence(choice.reasons)) challengerWins = true;
  return { challengerWins, reasons: choice.reasons };
}
