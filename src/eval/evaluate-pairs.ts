/**
 * `neardup eval`: fingerprints every document of a labelled pairs file with the given config
 * (the same analysis batch dedup and the crawl use), then scores "duplicate when distance ≤ k"
 * for k = 0..maxK, overall and per pair kind.
 */
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { InputError } from '../errors.js';
import { hammingDistance } from '../fingerprint/fingerprint-codec.js';
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

/** One pair with its measured distance (null when a side gave no fingerprint). */
export interface PairOutcome extends PairSpec {
  readonly distance: number | null;
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
  readonly outcomes: readonly PairOutcome[];
}

interface Measured {
  readonly fingerprint: Fingerprint | null;
  readonly textHash: string | null;
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
  const analyzeOptions = { stemCache: new StemCache() };
  for (const [ref, input] of docs) {
    const analysed = analyzePage(input, config, analyzeOptions);
    const analysis = analysed.analysis;
    const usable = analysed.skip === null || analysed.skip === undefined;
    measured.set(ref, {
      fingerprint: usable && analysis !== null && analysis !== undefined ? analysis.fingerprint : null,
      textHash: analysis?.textHash ?? null,
    });
  }
  const outcomes: PairOutcome[] = pairs.map((p) => ({ ...p, distance: pairDistance(measured.get(p.a)!, measured.get(p.b)!) }));
  const rows = thresholdMetrics(outcomes, maxK);
  const bestK = bestThreshold(rows);
  const configuredK = config.fingerprint.distance;
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
    outcomes,
  };
}
