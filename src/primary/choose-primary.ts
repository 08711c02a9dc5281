/**
 * The primary (original) document of a cluster, chosen by evidence rather than crawl order.
 *
 * Each signal gives every member a score in [0, 1]; the primary has the largest weighted sum.
 * - canonical: `rel=canonical` of members pointing at this member (URLs compared by
 *   `comparableUrl`, against both `url` and `finalUrl`); votes / most votes. A page naming itself
 *   counts, so copies that each name themselves cancel out.
 * - inLinks: links to this member from other crawled pages; count / largest count.
 * - earliestDate: 1 for the member(s) with the earliest date (`publishedAt`, else
 *   `lastModified`), 0 otherwise; inactive unless two members or more have a date. Dates less
 *   than `dateToleranceMs` apart count as the same (file copies and syncs differ by moments).
 * - completeness: text length / longest text length.
 * - shallowUrl: (shallowest + 1) / (depth + 1) for URL path depth, averaged with the same for
 *   crawl depth when members have one.
 * Equal sums are broken by: the stored document, then the smaller id, then the URL, so the same
 * index always gives the same primary.
 *
 * Reasons name the signals on which the primary is strictly better than every other member,
 * strongest weight first, e.g. `canonical (2 of 3 members point here)`, `in-links 12 vs 3`,
 * `earliest date 2024-01-02 vs 2024-03-05`; then the evidence against it, the signals on which
 * another member is strictly better, e.g. `but earliest date 2024-01-02 is another copy's`. In-links
 * are citations (fingerprint-index/citation-counts.ts): template links of a page's own host do not
 * count.
 */
import { comparableUrl, urlFacts } from '../url/comparable-url.js';

/** Weights of the primary-choice signals (config `report.primaryWeights`). */
export interface PrimaryWeights {
  /** @default 8 */
  readonly canonical: number;
  /** @default 3 */
  readonly inLinks: number;
  /** @default 2 */
  readonly earliestDate: number;
  /** @default 1 */
  readonly completeness: number;
  /** @default 1 */
  readonly shallowUrl: number;
}

/** What the choice looks at for one member. */
export interface PrimaryCandidate {
  readonly id: number;
  /** True for the document the index stored. */
  readonly stored: boolean;
  readonly url: string;
  readonly finalUrl?: string | null | undefined;
  readonly canonicalUrl?: string | null | undefined;
  readonly publishedAt?: string | null | undefined;
  readonly lastModified?: string | null | undefined;
  readonly textLength?: number | undefined;
  readonly depth?: number | null | undefined;
  /** Links to this member from other crawled pages. */
  readonly inLinks: number;
  /** `comparableUrl` of `url` and of `finalUrl`, when the caller has them already. @default computed */
  readonly urlKeys?: readonly string[];
  /** `urlPathDepth(url)`, when the caller has it already. @default computed */
  readonly pathDepth?: number | null;
}

/** The member chosen and why. */
export interface PrimaryChoice {
  /** Index of the primary in the candidates array. */
  readonly index: number;
  /** Strongest first; never empty. */
  readonly reasons: readonly string[];
  /** Weighted score of every candidate, in input order. */
  readonly scores: readonly number[];
}

type SignalName = keyof PrimaryWeights;

interface Signal {
  readonly name: SignalName;
  readonly scores: Float64Array;
  /** The reason text when candidate `p` is strictly best on this signal, else null. */
  readonly reason: (p: number) => string | null;
  /** The reason against `p` when another candidate is strictly better on this signal, else null. */
  readonly against: (p: number) => string | null;
}

/** For values where larger (or smaller) is better: the best value of the others when it beats `p`'s, else null. */
function beatenBy(values: ArrayLike<number>, p: number, larger: boolean): number | null {
  let best = Number.NaN;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (i === p || Number.isNaN(v)) continue;
    if (Number.isNaN(best) || (larger ? v > best : v < best)) best = v;
  }
  if (Number.isNaN(best)) return null;
  const mine = values[p]!;
  if (Number.isNaN(mine)) return best;
  return (larger ? best > mine : best < mine) ? best : null;
}

/** Dates closer than this are equal evidence: one hour. */
export const dateToleranceMs = 60 * 60 * 1000;

/** Scores are sums of a few products of small numbers; this absorbs rounding. */
const epsilon = 1e-9;

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The date of a member in ms, or NaN: `publishedAt` when it parses, else `lastModified`. */
function memberDate(c: PrimaryCandidate): number {
  for (const raw of [c.publishedAt, c.lastModified]) {
    if (typeof raw !== 'string' || raw.trim() === '') continue;
    const ms = Date.parse(raw);
    if (Number.isFinite(ms)) return ms;
  }
  return Number.NaN;
}

/**
 * For a value per candidate (NaN = unknown) where larger is better: `p` beats every other known
 * value strictly and at least one other value is known. Returns the best other value, or null.
 */
function strictlyBest(values: ArrayLike<number>, p: number, larger: boolean): number | null {
  const mine = values[p]!;
  if (Number.isNaN(mine)) return null;
  let best = Number.NaN;
  for (let i = 0; i < values.length; i++) {
    if (i === p) continue;
    const v = values[i]!;
    if (Number.isNaN(v)) continue;
    if (Number.isNaN(best) || (larger ? v > best : v < best)) best = v;
  }
  if (Number.isNaN(best)) return null;
  return (larger ? mine > best : mine < best) ? best : null;
}

function ratioScores(values: ArrayLike<number>): Float64Array {
  const out = new Float64Array(values.length);
  let max = 0;
  for (let i = 0; i < values.length; i++) if (values[i]! > max) max = values[i]!;
  if (max > 0) for (let i = 0; i < values.length; i++) out[i] = values[i]! > 0 ? values[i]! / max : 0;
  return out;
}

/** (min + 1) / (d + 1): 1 for the shallowest, smaller for deeper; 0 when unknown. */
function shallowScores(values: ArrayLike<number>): Float64Array {
  const out = new Float64Array(values.length);
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i]!) && values[i]! < min) min = values[i]!;
  if (min === Number.POSITIVE_INFINITY) return out;
  for (let i = 0; i < values.length; i++) out[i] = Number.isNaN(values[i]!) ? 0 : (min + 1) / (values[i]! + 1);
  return out;
}

function canonicalSignal(candidates: readonly PrimaryCandidate[]): Signal {
  const n = candidates.length;
  const keyOwners = new Map<string, number[]>();
  const own = (key: string, i: number) => {
    const owners = keyOwners.get(key);
    if (owners === undefined) keyOwners.set(key, [i]);
    else if (!owners.includes(i)) owners.push(i);
  };
  candidates.forEach((c, i) => {
    if (c.urlKeys !== undefined) {
      for (const key of c.urlKeys) own(key, i);
      return;
    }
    own(comparableUrl(c.url), i);
    if (typeof c.finalUrl === 'string' && c.finalUrl !== '') own(comparableUrl(c.finalUrl), i);
  });
  const votes = new Float64Array(n);
  for (const c of candidates) {
    if (typeof c.canonicalUrl !== 'string' || c.canonicalUrl.trim() === '') continue;
    for (const target of keyOwners.get(comparableUrl(c.canonicalUrl)) ?? []) votes[target]! += 1;
  }
  return {
    name: 'canonical',
    scores: ratioScores(votes),
    reason: (p) => (strictlyBest(votes, p, true) === null ? null : `canonical (${votes[p]} of ${n} members point here)`),
    against: (p) => {
      const other = beatenBy(votes, p, true);
      return other === null || other === 0 ? null : `but canonical points at another copy (${other} of ${n} members vs ${votes[p]})`;
    },
  };
}

function inLinkSignal(candidates: readonly PrimaryCandidate[]): Signal {
  const counts = Float64Array.from(candidates, (c) => c.inLinks);
  return {
    name: 'inLinks',
    scores: ratioScores(counts),
    reason: (p) => {
      const other = strictlyBest(counts, p, true);
      return other === null ? null : `in-links ${counts[p]} vs ${other}`;
    },
    against: (p) => {
      const other = beatenBy(counts, p, true);
      return other === null ? null : `but in-links ${counts[p]} vs ${other} for another copy`;
    },
  };
}

function dateSignal(candidates: readonly PrimaryCandidate[]): Signal {
  const dates = Float64Array.from(candidates, memberDate);
  const scores = new Float64Array(dates.length);
  let known = 0;
  let earliest = Number.POSITIVE_INFINITY;
  for (const d of dates) {
    if (Number.isNaN(d)) continue;
    known++;
    if (d < earliest) earliest = d;
  }
  if (known >= 2) for (let i = 0; i < dates.length; i++) scores[i] = dates[i]! - earliest < dateToleranceMs ? 1 : 0;
  return {
    name: 'earliestDate',
    scores,
    reason: (p) => {
      if (known < 2) return null;
      const other = strictlyBest(dates, p, false);
      const mine = dates[p]!;
      if (other === null || other - mine < dateToleranceMs) return null;
      const [a, b] = isoDay(mine) === isoDay(other)
        ? [new Date(mine).toISOString(), new Date(other).toISOString()]
        : [isoDay(mine), isoDay(other)];
      return `earliest date ${a} vs ${b}`;
    },
    against: (p) => {
      if (known < 2) return null;
      const other = beatenBy(dates, p, false);
      if (other === null) return null;
      const mine = dates[p]!;
      if (!Number.isNaN(mine) && mine - other < dateToleranceMs) return null;
      return `but earliest date ${isoDay(other)} is another copy's${Number.isNaN(mine) ? ' (this one has none)' : ` (this one ${isoDay(mine)})`}`;
    },
  };
}

function completenessSignal(candidates: readonly PrimaryCandidate[]): Signal {
  const lengths = Float64Array.from(candidates, (c) =>
    typeof c.textLength === 'number' && Number.isFinite(c.textLength) && c.textLength >= 0 ? c.textLength : Number.NaN);
  return {
    name: 'completeness',
    scores: ratioScores(lengths.map((v) => (Number.isNaN(v) ? 0 : v))),
    reason: (p) => {
      const other = strictlyBest(lengths, p, true);
      return other === null ? null : `most complete text ${lengths[p]} vs ${other} chars`;
    },
    against: (p) => {
      const other = beatenBy(lengths, p, true);
      return other === null || Number.isNaN(lengths[p]!) ? null : `but another copy's text is longer (${other} vs ${lengths[p]} chars)`;
    },
  };
}

function shallowSignal(candidates: readonly PrimaryCandidate[]): Signal {
  const paths = Float64Array.from(candidates, (c) => (c.pathDepth !== undefined ? c.pathDepth : urlFacts(c.url).pathDepth) ?? Number.NaN);
  const crawl = Float64Array.from(candidates, (c) =>
    typeof c.depth === 'number' && Number.isInteger(c.depth) && c.depth >= 0 ? c.depth : Number.NaN);
  const pathScores = shallowScores(paths);
  const crawlKnown = crawl.some((v) => !Number.isNaN(v));
  const pathKnown = paths.some((v) => !Number.isNaN(v));
  const crawlScores = shallowScores(crawl);
  const scores = new Float64Array(candidates.length);
  for (let i = 0; i < scores.length; i++) {
    scores[i] = pathKnown && crawlKnown ? (pathScores[i]! + crawlScores[i]!) / 2 : pathKnown ? pathScores[i]! : crawlScores[i]!;
  }
  return {
    name: 'shallowUrl',
    scores,
    reason: (p) => {
      const otherPath = strictlyBest(paths, p, false);
      if (otherPath !== null) return `shallower URL (path depth ${paths[p]} vs ${otherPath})`;
      const otherCrawl = strictlyBest(crawl, p, false);
      return otherCrawl === null ? null : `fewer crawl hops (${crawl[p]} vs ${otherCrawl})`;
    },
    against: (p) => {
      const otherPath = beatenBy(paths, p, false);
      return otherPath === null || Number.isNaN(paths[p]!) ? null : `but another copy's URL is shallower (path depth ${otherPath} vs ${paths[p]})`;
    },
  };
}

/** True when candidate a goes before b on equal scores: stored first, then smaller id, then URL. */
function tieBreakBefore(a: PrimaryCandidate, b: PrimaryCandidate): boolean {
  if (a.stored !== b.stored) return a.stored;
  if (a.id !== b.id) return a.id < b.id;
  return a.url < b.url;
}

/** Picks the primary of a cluster's members (at least one) and says why. */
export function choosePrimary(candidates: readonly PrimaryCandidate[], weights: PrimaryWeights): PrimaryChoice {
  if (candidates.length === 0) throw new RangeError('choosePrimary needs at least one candidate');
  const signals: Signal[] = [
    canonicalSignal(candidates),
    inLinkSignal(candidates),
    dateSignal(candidates),
    completenessSignal(candidates),
    shallowSignal(candidates),
  ];
  const scores = new Array<number>(candidates.length).fill(0);
  for (const signal of signals) {
    const w = weights[signal.name];
    if (w === 0) continue;
    for (let i = 0; i < scores.length; i++) scores[i]! += w * signal.scores[i]!;
  }
  let p = 0;
  for (let i = 1; i < candidates.length; i++) {
    const diff = scores[i]! - scores[p]!;
    if (diff > epsilon || (Math.abs(diff) <= epsilon && tieBreakBefore(candidates[i]!, candidates[p]!))) p = i;
  }

  const reasons: string[] = [];
  const ranked = signals
    .map((signal, order) => ({ signal, order, weight: weights[signal.name] }))
    .filter((s) => s.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.order - b.order);
  for (const { signal } of ranked) {
    const reason = signal.reason(p);
    if (reason !== null) reasons.push(reason);
  }
  if (reasons.length === 0 && candidates.length > 1) {
    let runnerUp = Number.NEGATIVE_INFINITY;
    let next = -1;
    for (let i = 0; i < scores.length; i++) if (i !== p && scores[i]! > runnerUp) [runnerUp, next] = [scores[i]!, i];
    if (scores[p]! - runnerUp > epsilon) {
      // No signal alone singles it out; the weighted sum does. Name the signals it beats the next copy on.
      const words: Record<SignalName, string> = { canonical: 'canonical links', inLinks: 'in-links', earliestDate: 'date', completeness: 'text length', shallowUrl: 'URL depth' };
      const helped = signals.filter((x) => weights[x.name] > 0 && x.scores[p]! > x.scores[next]!).map((x) => words[x.name]);
      reasons.push(`best on the signals together${helped.length > 0 ? `: ${helped.join(', ')}` : ''} (no single signal decides; weighted score ${round(scores[p]!)} vs ${round(runnerUp)} for the next copy, weights in config report.primaryWeights)`);
    } else {
      reasons.push(candidates[p]!.stored ? 'no distinguishing evidence: the stored copy' : 'no distinguishing evidence: first seen');
    }
  } else if (reasons.length === 0) {
    reasons.push('only member');
  }
  for (const { signal } of ranked) {
    const against = signal.against(p);
    if (against !== null) reasons.push(against);
  }
  return { index: p, reasons, scores };
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}
