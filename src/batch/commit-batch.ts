/**
 * The commit of one analysed batch, in input order, through the pipeline: analysed documents go
 * to the index in runs (one transaction each), anything else is recorded as a skip, an ignored
 * entry or a problem, and counted.
 */
import type { AnalyzedPage } from '../analyze/analyze-page.js';
import type { BatchEntry, BatchProblem, JsonlLineEntry, PageEntry } from '../input/batch-entry.js';
import { jsonlLineToEntry } from '../input/read-jsonl.js';
import type { Pipeline } from '../pipeline.js';
import type { CascadeFlagKind, Decision, SkipReason } from '../types.js';
import type { AnalyzeResult } from './analyze-item.js';

/** Counters of a batch run, as reported while running and at the end. */
export interface BatchProgress {
  /** Documents seen: analysed, skipped before analysis, or failed. */
  documents: number;
  stored: number;
  exact: number;
  near: number;
  /** Rejected by the second stage (kind `similar`). */
  similar: number;
  /** Documents recorded as skipped (too short, no text, too large, ...). */
  skipped: number;
  skippedBy: Record<string, number>;
  /**
   * Documents whose URL was judged before (earlier in this run, or by an earlier run): the earlier
   * decision stands, and they are not counted again as stored, rejected or skipped.
   */
  repeated: number;
  /** Records that are not documents for this run (WARC requests, non-HTML responses, ...). */
  ignored: number;
  ignoredBy: Record<string, number>;
  /** Malformed lines/records and documents whose analysis failed. */
  errors: number;
  /** Flags the cascade gave judged documents, by kind (empty when it is off). */
  flagged: Partial<Record<CascadeFlagKind, number>>;
  elapsedMs: number;
  docsPerSecond: number;
}

/** An entry that goes through the analysis. */
export type AnalysedEntry = PageEntry | JsonlLineEntry;

/** Entries read in input order; `pages` are those analysed, `chars` their size. */
export interface Batch {
  readonly seq: number;
  readonly entries: BatchEntry[];
  readonly pages: AnalysedEntry[];
  readonly chars: number;
}

/** What a run has counted and the problems it keeps. */
export interface BatchTally {
  readonly progress: BatchProgress;
  readonly problems: BatchProblem[];
  readonly maxProblemsKept: number;
  readonly onProblem?: ((problem: BatchProblem) => void) | undefined;
}

export function newProgress(): BatchProgress {
  return {
    documents: 0, stored: 0, exact: 0, near: 0, similar: 0, skipped: 0, skippedBy: {}, repeated: 0, ignored: 0, ignoredBy: {}, errors: 0, flagged: {}, elapsedMs: 0, docsPerSecond: 0,
  };
}

function bump(map: Record<string, number>, key: string): void {
  map[key] = (map[key] ?? 0) + 1;
}

export function reportProblem(tally: BatchTally, p: BatchProblem): void {
  tally.progress.errors += 1;
  if (tally.problems.length < tally.maxProblemsKept) tally.problems.push(p);
  tally.onProblem?.(p);
}

function countDecision(progress: BatchProgress, d: Decision): void {
  if (d.repeated === true) {
    progress.repeated += 1;
  } else if (d.kind === 'skipped') {
    progress.skipped += 1;
    bump(progress.skippedBy, d.reason);
  } else {
    progress[d.kind] += 1;
  }
}

/** The URL of the document a JSONL line holds, parsed here (only after its worker died on it), or null. */
function urlOfLine(line: JsonlLineEntry): string | null {
  const text = Buffer.from(line.bytes.buffer, line.bytes.byteOffset, line.bytes.byteLength).toString('utf8');
  const entry = jsonlLineToEntry(text, line.file, line.position, line.maxDocumentBytes);
  return entry === null || entry.kind === 'problem' ? null : entry.kind === 'page' ? entry.input.url : entry.url;
}

/** Commits one batch's entries in order: analysed pages in runs, the rest recorded as they come. */
export async function commitBatch(pipeline: Pipeline, tally: BatchTally, batch: Batch, results: readonly AnalyzeResult[]): Promise<void> {
  const { progress } = tally;
  let r = 0;
  let run: AnalyzedPage[] = [];
  const flushRun = async () => {
    if (run.length === 0) return;
    for (const d of await pipeline.commitMany(run)) countDecision(progress, d);
    run = [];
  };
  const recordSkip = async (url: string, reason: SkipReason, detail: string) => {
    progress.documents += 1;
    await flushRun();
    countDecision(progress, await pipeline.recordSkip(url, reason, detail));
  };
  for (const entry of batch.entries) {
    if (entry.kind === 'skip') {
      await recordSkip(entry.url, entry.reason, entry.detail);
    } else if (entry.kind === 'ignored') {
      progress.ignored += 1;
      bump(progress.ignoredBy, entry.reason);
    } else if (entry.kind === 'problem') {
      reportProblem(tally, { position: entry.position, message: entry.message });
    } else {
      const result = results[r++]!;
      if (result.ok) {
        progress.documents += 1;
        run.push(result.page);
      } else if ('entry' in result) {
        // A JSONL line that held no document to analyse: blank, malformed, or too large.
        const e = result.entry;
        if (e === null) continue;
        if (e.kind === 'problem') reportProblem(tally, { position: e.position, message: e.message });
        else await recordSkip(e.url, e.reason, e.detail);
      } else {
        const url = entry.kind === 'page' ? entry.input.url : (result.url ?? urlOfLine(entry));
        if (url === null) {
          // The line's worker died on it before it was parsed, and it is no document anyway.
          reportProblem(tally, { position: entry.position, message: `analysis failed: ${result.error}` });
          continue;
        }
        await recordSkip(url, 'parse-error', result.error);
        reportProblem(tally, { position: entry.position, message: `analysis failed for \`${url}\`: ${result.error}` });
      }
    }
  }
  await flushRun();
  progress.flagged = { ...pipeline.counters.flagged };
}
