/**
 * `neardup eval`: fingerprints every document of a labelled pairs file with the given config
 * (the same analysis batch dedup and the crawl use), then scores "duplicate when distance ≤ k"
 * for k = 0..maxK, overall and per pair kind, and the decisions the index makes with the configured
 * settings: exact, near (distance ≤ k) and, with `verify.enabled`, similar (the second stage: the
 * pair shares candidate keys and passes verifySimilar).
 */
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { InputError } from '../errors.js';
import { hammingDistance } from '../fingerprint/fingerprint-codec.js';
import { sharesCandidateKey } from '../fingerprint/shingle-sketch.js';
import { verifySimilar } from '../fingerprint/verify-similar.js';
import { analyzePage } from '../analyze/analyze-page.js';
import { fingerprintParamsFrom } from '../analyze/analyze-text.js';
import { StemCache } from '../analyze/analyze-text.js';
import type { Config } from '../config.js';
import type { FingerprintParams, Fingerprint } from '../types.js';
import { loadPairDocuments } from './load-pair-documents.js';
import { parsePairs, type PairSpec } from './parse-pairs.js';
import { bestThreshold, thresholdMetrics, type ThresholdRow } from './threshold-metrics.js';

export interface EvaluatePairsOptions {
  /** The pairs file (`a<TAB>b<TAB>label[<TAB>kind]`). */
  readonly pairsFile: string;
  readonly config: Config;
  /** Largest threshold scored. @default 16 */
  readonly maxK?: number;
}

/** What the index would decide for the second document of a pair, given the first stored. */
export type PairDecision = 'exact' | 'near' | 'similar' | null;

/** One pair with its measured distance (null when a side gave no fingerprint) and decision. */
export interface PairOutcome extends PairSpec {
  readonly distance: number | null;
  /** The decision at the configured settings (null: both would be stored). */
  readonly decision: PairDecision;
  /** Sketch estimates, when the second stage looked at the pair (it shares a candidate key). */
  readonly jaccard: number | null;
  readonly containment: number | null;
}

/** Scores of the configured decisions (exact, near and, when on, similar) over all pairs. */
export interface DecisionFigures {
  readonly verify: boolean;
  readonly tp: number;
  readonly fp: number;
  readonly fn: number;
  readonly tn: number;
  readonly precision: number | null;
  readonly recall: number | null;
  readonly f1: number;
  /** Pairs decided `similar`. */
  readonly similar: number;
}

/** Figures for one kind of pair. */
export interface KindFigures {
  readonly kind: string;
  /** Whether pairs of this kind are labelled duplicates (a kind mixing both labels is split). */
  readonly duplicate: boolean;
  readonly pairs: number;
  /** Pairs classified right at the configured distance and at the best k. */
  readonly correctAtConfigured: number;
  readonly correctAtBest: number;
  /** Pairs classified right by the configured decisions (second stage included when on). */
  readonly correctDecided: number;
  /** Median, smallest and largest distance of the judged pairs (null when none was judged). */
  readonly medianDistance: number | null;
  readonly minDistance: number | null;
  readonly maxDistance: number | null;
  readonly unjudged: number;
}

export interface EvalReport {
  readonly pairsFile: string;
  readonly params: FingerprintParams;
  readonly pairs: number;
  readonly duplicates: number;
  readonly distinct: number;
  /** Pairs with a side too short or empty to fingerprint (predicted "not duplicate"). */
  readonly unjudged: number;
  readonly documents: number;
  readonly rows: readonly ThresholdRow[];
  /** k with the highest F1 (smallest on a tie). */
  readonly bestK: number;
  /** `fingerprint.distance` of the config. */
  readonly configuredK: number;
  readonly byKind: readonly KindFigures[];
  /** The configured decisions' scores. */
  readonly decisions: DecisionFigures;
  /** `config.verify` as used. */
  readonly verify: Config['verify'];
  readonly outcomes: readonly PairOutcome[];
}

interface Measured {
  readonly fingerprint: Fingerprint | null;
  readonly textHash: string | null;
  readonly sketch: Uint32Array | null;
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Distance of two measured documents, as the index would see it (exact text ⇒ 0). */
export function pairDistance(a: Measured, b: Measured): number | null {
  if (a.fingerprint === null || b.fingerprint === null) return null;
  if (a.textHash !== null && a.textHash === b.textHash) return 0;
  return hammingDistance(a.fingerprint, b.fingerprint);
}

/**
 * The index's decision for b given a stored (exact text, distance ≤ k, then the second stage),
 * with the sketch estimates when the second stage looked at the pair.
 */
export function pairDecision(a: Measured, b: Measured, k: number, verify: Config['verify']): { decision: PairDecision; jaccard: number | null; containment: number | null } {
  const none = { jaccard: null, containment: null };
  if (a.fingerprint === null || b.fingerprint === null) return { decision: null, ...none };
  if (a.textHash !== null && a.textHash === b.textHash) return { decision: 'exact', ...none };
  const distance = hammingDistance(a.fingerprint, b.fingerprint);
  if (distance <= k) return { decision: 'near', ...none };
  if (!verify.enabled || a.sketch === null || b.sketch === null || !sharesCandidateKey(a.sketch, b.sketch, verify.candidateKeys, verify.minSharedKeys)) return { decision: null, ...none };
  const outcome = verifySimilar(distance, a.sketch, b.sketch, verify);
  return { decision: outcome.similar ? 'similar' : null, jaccard: outcome.jaccard, containment: outcome.containment };
}

function decisionFigures(outcomes: readonly PairOutcome[], verify: boolean): DecisionFigures {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  for (const o of outcomes) {
    const merged = o.decision !== null;
    if (merged && o.duplicate) tp++;
    else if (merged) fp++;
    else if (o.duplicate) fn++;
    else tn++;
  }
  const precision = tp + fp === 0 ? null : tp / (tp + fp);
  const recall = tp + fn === 0 ? null : tp / (tp + fn);
  const p = precision ?? 0;
  const r = recall ?? 0;
  return { verify, tp, fp, fn, tn, precision, recall, f1: p + r === 0 ? 0 : (2 * p * r) / (p + r), similar: outcomes.filter((o) => o.decision === 'similar').length };
}

/** Per-kind figures at the configured and the best k. */
export function figuresByKind(outcomes: readonly PairOutcome[], configuredK: number, bestK: number): KindFigures[] {
  const groups = new Map<string, PairOutcome[]>();
  for (const o of outcomes) {
    const key = `${o.kind ?? (o.duplicate ? 'duplicate' : 'distinct')}\t${o.duplicate ? 1 : 0}`;
    let g = groups.get(key);
    if (g === undefined) groups.set(key, (g = []));
    g.push(o);
  }
  const correct = (o: PairOutcome, k: number) => (o.distance !== null && o.distance <= k) === o.duplicate;
  return [...groups.entries()].map(([key, g]) => {
    const [kind, label] = key.split('\t') as [string, string];
    const judged = g.filter((o) => o.distance !== null).map((o) => o.distance!);
    return {
      kind,
      duplicate: label === '1',
      pairs: g.length,
      correctAtConfigured: g.filter((o) => correct(o, configuredK)).length,
      correctAtBest: g.filter((o) => correct(o, bestK)).length,
      correctDecided: g.filter((o) => (o.decision !== null) === o.duplicate).length,
      medianDistance: median(judged),
      minDistance: judged.length === 0 ? null : Math.min(...judged),
      maxDistance: judged.length === 0 ? null : Math.max(...judged),
      unjudged: g.length - judged.length,
    };
  }).sort((x, y) => Number(y.duplicate) - Number(x.duplicate) || (x.kind < y.kind ? -1 : x.kind > y.kind ? 1 : 0));
}

/** Reads the pairs, fingerprints each document once, and scores every threshold. */
export async function evaluatePairs(options: EvaluatePairsOptions): Promise<EvalReport> {
  const { config, pairsFile } = options;
  const maxK = options.maxK ?? 16;
  let text: string;
  try {
    text = await readFile(pairsFile, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(`Cannot read pairs file \`${pairsFile}\`: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}`, { cause: error });
  }
  const pairs = parsePairs(text, pairsFile);
  const docs = await loadPairDocuments(pairs.flatMap((p) => [p.a, p.b]), dirname(pairsFile), config.crawl.maxPageBytes);

  const measured = new Map<string, Measured>();
  const analyzeOptions = { stemCache: new StemCache(), sketchSize: config.verify.sketchSize };
  for (const [ref, input] of docs) {
    const analysed = analyzePage(input, config, analyzeOptions);
    const analysis = analysed.analysis;
    const usable = analysed.skip === null || analysed.skip === undefined;
    measured.set(ref, {
      fingerprint: usable && analysis !== null && analysis !== undefined ? analysis.fingerprint : null,
      textHash: analysis?.textHash ?? null,
      sketch: analysis?.sketch ?? null,
    });
  }
  const configuredK = config.fingerprint.distance;
  const outcomes: PairOutcome[] = pairs.map((p) => {
    const a = measured.get(p.a)!;
    const b = measured.get(p.b)!;
    return { ...p, distance: pairDistance(a, b), ...pairDecision(a, b, configuredK, config.verify) };
  });
  const rows = thresholdMetrics(outcomes, maxK);
  const bestK = bestThreshold(rows);
  const duplicates = outcomes.filter((o) => o.duplicate).length;
  return {
    pairsFile,
    params: fingerprintParamsFrom(config.fingerprint),
    pairs: outcomes.length,
    duplicates,
    distinct: outcomes.length - duplicates,
    unjudged: outcomes.filter((o) => o.distance === null).length,
    documents: docs.size,
    rows,
    bestK,
    configuredK,
    byKind: figuresByKind(outcomes, configuredK, bestK),
    decisions: decisionFigures(outcomes, config.verify.enabled),
    verify: config.verify,
    outcomes,
  };
}
