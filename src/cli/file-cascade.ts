/**
 * The cascade for the one-file commands (`fingerprint --json`, `compare`): the file's analysis with
 * its own flags (`homoglyph`, `generated`), and for two files whether one is a spun (`synonymised`)
 * copy of the other, or how much of one the other's paragraphs cover (`compiled` needs two sources
 * or more, so one file can only be part of a compilation).
 */
import { analyzeDocument } from '../analyze/analyze-document.js';
import type { TokenStems } from '../analyze/analyze-normalized-text.js';
import { fingerprintParamsFrom, type AnalyzeOptions } from '../analyze/analyze-text.js';
import { MemoryCascadeStore } from '../cascade/cascade-store.js';
import type { CascadeRecord } from '../cascade/cascade-record.js';
import { compiledSources } from '../cascade/compiled-flag.js';
import { localCascade } from '../cascade/run-cascade.js';
import { synonymisedFlag } from '../cascade/synonymised-flag.js';
import type { Config } from '../config.js';
import { describeInputPath, readTextInput } from '../input/read-input-file.js';
import { loadSynonymDictionary } from '../synonyms/synonym-dictionary.js';
import type { CascadeFlag, SynonymisedFlag, TextAnalysis } from '../types.js';

/** The analysis's token table (src/text/, which the CLI does not import), by the hook's type. */
type TokenTable = Parameters<NonNullable<AnalyzeOptions['onTokens']>>[1];

export interface FileCascade {
  readonly analysis: TextAnalysis;
  /** The file's own flags (stages on in config). */
  readonly flags: readonly CascadeFlag[];
  /** The record the comparing stages use, or null when they are off. */
  readonly record: CascadeRecord | null;
}

/** Reads and analyses one input file (or `-`) with the cascade's own stages; NoFeaturesError when it has no words. */
export async function analyzeFileWithCascade(path: string, config: Config, html: boolean): Promise<FileCascade> {
  const content = readTextInput(path);
  const text = html ? (await import('../extract/extract-page.js')).extractHtml(content).text : content;
  let table: TokenTable | undefined;
  let tokenStems: TokenStems | undefined;
  const options = {
    sketchSize: config.verify.enabled ? config.verify.sketchSize : 0,
    onTokens: (_n: string, t: TokenTable, s: TokenStems) => void ((table = t), (tokenStems = { stems: s.stems, stop: s.stop.slice() })),
  };
  const analysis = await analyzeDocument(text, fingerprintParamsFrom(config.fingerprint), false, describeInputPath(path), options);
  const { flags, record } = localCascade(analysis, { text, options: config.cascade, table, tokenStems });
  return { analysis, flags, record };
}

/** What comparing two files' records says about one being a copy of the other. */
export interface CopyRelation {
  /** `b` spins `a` (or `a` spins `b`), with the evidence; null when neither. */
  readonly synonymised: (SynonymisedFlag & { readonly copy: 'a' | 'b' }) | null;
  /** Share of `b`'s words in paragraphs found in `a` (0–1), and the reverse. */
  readonly bCoveredByA: number;
  readonly aCoveredByB: number;
}

function coveredShare(page: CascadeRecord, source: CascadeRecord, config: Config): number {
  const store = new MemoryCascadeStore();
  store.add({ id: 1, url: 'source', record: source });
  return compiledSources(page, store, { ...config.cascade.compiled, minSourceShare: 0 })[0]?.share ?? 0;
}

/** Whether one of two records is a spun copy of the other, and how much of each the other covers. Null when the comparing stages are off. */
export function copyRelation(a: FileCascade, b: FileCascade, config: Config, names: readonly [string, string]): CopyRelation | null {
  if (a.record === null || b.record === null) return null;
  let synonymised: CopyRelation['synonymised'] = null;
  if (config.cascade.synonymised.enabled) {
    const synonyms = loadSynonymDictionary();
    // As the pipeline judges them: a is the earlier (stored) page, so b is the copy when it spins a;
    // a is taken for the copy of b only when b is not flagged. (Both texts are each other's words or
    // their synonyms, so "explained better" cannot tell the direction: the spin's synonyms often
    // explain the original's stems better than the reverse.)
    for (const [page, source, copy, sourceName] of [[b.record, a.record, 'b', names[0]], [a.record, b.record, 'a', names[1]]] as const) {
      const store = new MemoryCascadeStore();
      store.add({ id: 1, url: sourceName, record: source });
      const flag = synonymisedFlag(page, store, synonyms, config.cascade.synonymised);
      if (flag !== null) {
        synonymised = { ...flag, copy };
        break;
      }
    }
  }
  const compiledOn = config.cascade.compiled.enabled;
  return {
    synonymised,
    bCoveredByA: compiledOn ? Number(coveredShare(b.record, a.record, config).toFixed(3)) : 0,
    aCoveredByB: compiledOn ? Number(coveredShare(a.record, b.record, config).toFixed(3)) : 0,
  };
}
