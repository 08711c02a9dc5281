/**
 * Judging one document inside a SQLite index's write transaction (fingerprint-index.ts): its URL's
 * earlier decision if it has one, else an exact duplicate (same text hash), a near one (within k),
 * with the second stage a similar one, or stored; and the row recorded. The caller holds BEGIN
 * IMMEDIATE and has caught the in-memory view up, so the decision and the insert see every stored
 * document and no other writer can add one in between (the index's invariants). The count of each
 * kind the transaction added is kept here and written once, at its end.
 */
import type { Decision, IndexCandidate, SkipReason } from '../types.js';
import type { BlockLayout } from './block-layout.js';
import { findExact, findMatch, type Found } from './find-match.js';
import { IdList } from './id-list.js';
import type { InMemoryView } from './in-memory-view.js';
import { insertArguments, toPriorDecision, type IndexStatements, type PriorRow } from './index-statements.js';
import type { SecondStage } from './second-stage.js';
import { urlKey } from './url-key.js';

const KINDS = ['stored', 'exact', 'near', 'similar', 'skipped'] as const;

export class DocumentJudge {
  readonly #sql: IndexStatements;
  readonly #view: InMemoryView;
  readonly #second: SecondStage | null;
  readonly #layout: BlockLayout;
  readonly #distance: number;
  readonly #candidates = new IdList();
  /** Counter changes of the current write transaction, written once at its end. */
  readonly #pending = { stored: 0, exact: 0, near: 0, similar: 0, skipped: 0 };

  constructor(sql: IndexStatements, view: InMemoryView, second: SecondStage | null, layout: BlockLayout, distance: number) {
    this.#sql = sql;
    this.#view = view;
    this.#second = second;
    this.#layout = layout;
    this.#distance = distance;
  }

  /** The stored document with the same text hash (on its own index), else the nearest within k, or null. */
  find(hi: number, lo: number, textHash: string): Found | null {
    const exact = findExact(this.#sql.exactByText, this.#sql.candidate, textHash, hi, lo);
    return exact ?? findMatch(this.#view.table, this.#sql.candidate, this.#candidates, this.#distance, hi, lo, textHash);
  }

  /** The decision already recorded for a URL (marked `repeated`: nothing new is written), or null. */
  prior(url: string): Decision | null {
    const row = this.#view.urls.rowFor<PriorRow>(url, this.#sql.priorById, this.#sql.priorIndexed);
    if (row !== undefined) return toPriorDecision(row, this.#sql.urlOf);
    const reason = this.#sql.probeSkipped.get(url) as SkipReason | undefined;
    return reason === undefined ? null : { kind: 'skipped', reason, repeated: true };
  }

  insertSkip(url: string, reason: SkipReason, detail: string | null): Decision {
    this.#sql.insertSkipped.run(url, reason, detail, Date.now());
    this.#pending.skipped++;
    return { kind: 'skipped', reason };
  }

  /** Inside a write transaction: decide and record one document. */
  judge(doc: IndexCandidate): Decision {
    const prior = this.prior(doc.url);
    if (prior !== null) return prior;
    if (doc.fingerprint === null) {
      this.insertSkip(doc.url, 'no-text', null);
      return { kind: 'skipped', reason: 'no-text' };
    }
    const hi = doc.fingerprint.hi >>> 0;
    const lo = doc.fingerprint.lo >>> 0;
    const found = this.find(hi, lo, doc.textHash);
    const sketch = doc.sketch ?? null;
    const similar = found === null && this.#second !== null && sketch !== null ? this.#second.find(hi, lo, sketch) : null;
    const kind = found !== null ? (found.exact ? 'exact' : 'near') : similar !== null ? 'similar' : 'stored';
    const key = urlKey(doc.url);
    const id = Number(this.#sql.insert.run(...insertArguments(this.#layout, kind, doc, key, hi, lo, found ?? similar)).lastInsertRowid);
    this.#view.inserted(id, key);
    this.#pending[kind]++;
    // Stored documents and the members of their clusters are filed for the second stage (a variant of
    // a variant is a copy of the base).
    if (sketch !== null) this.#second?.add(id, hi, lo, sketch);
    if (similar !== null) {
      const { distance, similarity, containment } = similar;
      return { kind: 'similar', id, matchId: similar.id, matchUrl: similar.url, distance, similarity, containment };
    }
    if (found === null) {
      this.#view.table.add(id, hi, lo);
      return { kind: 'stored', id };
    }
    if (found.exact) return { kind: 'exact', id, matchId: found.id, matchUrl: found.url, distance: 0 };
    return { kind: 'near', id, matchId: found.id, matchUrl: found.url, distance: found.distance };
  }

  /** At the end of a write transaction, inside it: adds the kinds' counts it changed to the counts table. */
  flushCounts(): void {
    const pending = this.#pending;
    for (const kind of KINDS) {
      if (pending[kind] !== 0) {
        this.#sql.bumpCount.run(pending[kind], kind);
        pending[kind] = 0;
      }
    }
  }

  /** After a failed write transaction: its counts were rolled back with its rows. */
  dropCounts(): void {
    const pending = this.#pending;
    pending.stored = pending.exact = pending.near = pending.similar = pending.skipped = 0;
  }
}
