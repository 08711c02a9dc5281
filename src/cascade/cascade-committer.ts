/**
 * The cascade's committing half, as the pipeline runs it (src/pipeline.ts): the comparing stages
 * (`synonymised`, `compiled`) of each judged page against the stored pages, then the record of each
 * page the index stored added to the store, and every flag written — in the order the index judged
 * the pages, so that a page sees the pages stored before it in the same batch. With SQLite this runs
 * inside the index's write transaction (the same commit as the documents); with PostgreSQL right
 * after it (src/fingerprint-index/postgres/pg-cascade-tables.ts).
 *
 * `cascade.synonymised.action: reject`: before the index, a page is compared with the pages stored
 * by earlier batches (preCheck); a spun copy is not sent to the index but recorded as skipped with
 * reason `synonymised`, its flag written with no document id.
 */
import type { CascadeFlag, CascadeFlagKind, Decision, SynonymisedFlag } from '../types.js';
import { loadSynonymDictionary } from '../synonyms/synonym-dictionary.js';
import type { CascadeOptions } from './cascade-options.js';
import type { CascadeRecord } from './cascade-record.js';
import { flagRowsOf, type FlagKey, type FlagRow } from './flag-row.js';
import { IndexedCascadeStore, type CascadeRecordSource } from './indexed-cascade-store.js';
import { compareCascade } from './run-cascade.js';
import { compiledFlag, type CompiledJudgement } from './compiled-flag.js';
import { CandidateLists, mergeRanked, type RankedCandidate } from './candidate-lists.js';
import { roomFor } from './room-for.js';
import { decodeCascadeRecord } from './cascade-record-codec.js';
import type { PageCascade } from './page-cascade.js';
import { synonymisedFlag, type SynonymLookup } from './synonymised-flag.js';

/** Where the committer keeps records and flags. */
export interface CascadePersistence extends CascadeRecordSource {
  /** Indexes into the store the records other writers added since the last call. */
  catchUp(store: IndexedCascadeStore): void;
  writeFlags(rows: readonly FlagRow[]): void;
  /** Removes the flags of these keys (those a page judged again no longer has); absent ones are no error. */
  removeFlags(keys: readonly FlagKey[]): void;
  /** Reads what other writers added (before a batch), when the tables are behind a server. */
  refresh?(): Promise<void>;
  /** Writes what was buffered (after a batch), when the tables are behind a server. */
  flush?(): Promise<void>;
}

/** One page the index judged, with its cascade result from the analysis (undefined: the cascade was off). */
export interface CascadeItem {
  readonly url: string;
  readonly cascade: PageCascade | undefined;
  readonly decision: Decision;
}

/** Counts of flags per kind. */
export type FlagCounts = Partial<Record<CascadeFlagKind, number>>;

function idOf(decision: Decision): number | null {
  return decision.kind === 'skipped' ? null : decision.id;
}

export class CascadeCommitter {
  readonly store: IndexedCascadeStore;
  readonly options: CascadeOptions;
  readonly #persistence: CascadePersistence;
  readonly #synonyms: () => SynonymLookup;
  #dictionary: SynonymLookup | null = null;
  /** Ids of stored pages this committer flagged `compiled` (a later flag of one replaces its row, counted once). */
  readonly #compiled = new Set<number>();
  /** Per stored page id, the entry bar of its last `compiled` judgement (0: not known). */
  #entryBars = new Int32Array(1024);
  /** Per stored page id, the ranked candidates of its last `compiled` judgement by this committer. */
  readonly #candidates = new CandidateLists();
  /** Filled in by each `compiled` judgement. */
  readonly #judgement: CompiledJudgement = { entryBar: 0, ranked: [] };
  /** `compiled` flags given to pages stored earlier (re-judged when a source came), not yet counted. */
  #late: CascadeFlag[] = [];
  /** `compiled` flags this committer gave and took back since the last takeWithdrawn (not yet uncounted). */
  #withdrawn = 0;
  /** The dictionary, loaded on first use (only pages with a close grammar need it). */
  readonly #lazy: SynonymLookup = {
    classesOf: (language, stem) => (this.#dictionary ??= this.#synonyms()).classesOf(language, stem),
    stemsOf: (language, classId) => (this.#dictionary ??= this.#synonyms()).stemsOf(language, classId),
  };

  /** `synonyms`: called when first needed (the dictionary is loaded lazily). @default the built-in dictionary */
  constructor(options: CascadeOptions, persistence: CascadePersistence, synonyms: () => SynonymLookup = () => loadSynonymDictionary()) {
    this.options = options;
    this.#persistence = persistence;
    this.#synonyms = synonyms;
    this.store = new IndexedCascadeStore(persistence);
    persistence.catchUp(this.store);
  }

  /**
   * Indexes what other writers stored. Their pages may belong among the candidates this committer
   * keeps for its pages, and were never merged into them: those lists are forgotten (a page is then
   * judged again from a new count, as one judged before a reopen).
   */
  #catchUp(): void {
    const before = this.store.size;
    this.#persistence.catchUp(this.store);
    if (this.store.size !== before) this.#candidates.clear();
  }

  /** Before a batch: what other writers added (a server's tables). */
  async refresh(): Promise<void> {
    await this.#persistence.refresh?.();
  }

  /** After a batch: what it added, written (a server's tables; SQLite wrote in the transaction). */
  async flush(): Promise<void> {
    await this.#persistence.flush?.();
  }

  /** Whether spun copies are rejected before the index. */
  get rejectsSpun(): boolean {
    return this.options.synonymised.enabled && this.options.synonymised.action === 'reject';
  }

  /** reject mode: the synonymised flag of a page against the pages stored so far, or null. */
  preCheck(cascade: PageCascade | undefined): SynonymisedFlag | null {
    if (!this.rejectsSpun || cascade?.record == null) return null;
    this.#catchUp();
    return synonymisedFlag(decodeCascadeRecord(cascade.record), this.store, this.#lazy, this.options.synonymised);
  }

  /** Writes the flags of a spun copy rejected by preCheck (no document id). */
  recordRejected(url: string, cascade: PageCascade | undefined, spun: SynonymisedFlag): CascadeFlag[] {
    const flags = [...(cascade?.flags ?? []), spun];
    this.#persistence.writeFlags(flagRowsOf(url, null, flags));
    return flags;
  }

  /**
   * The `compiled` flags that pages stored earlier got since the last call (when a later page turned
   * out to be one of their sources): for the counters.
   */
  takeLateFlags(): CascadeFlag[] {
    const late = this.#late;
    this.#late = [];
    return late;
  }

  /**
   * How many `compiled` flags this committer gave (and counted) were taken back since the last
   * call: a page judged again no longer compiled (e.g. a later page became its one main source).
   */
  takeWithdrawn(): number {
    const withdrawn = this.#withdrawn;
    this.#withdrawn = 0;
    return withdrawn;
  }

  /**
   * A page stored before its sources is flagged when they come: the stored pages that the new page
   * `id` may change the judgement of — it shares at least their entry bar (compiled-flag.ts
   * CompiledJudgement: it would be among their kept candidates; half of `minSourceShare` of their
   * shingles when their bar is not known, after a reopen) — get it as an entrant in `dirty`, with the
   * shingles it shares, to be judged again when the batch is stored (#rejudgeCompiled), so that
   * whether a page is `compiled`, and its sources, do not depend on the order the pages came in (a
   * crawl's order follows its fetches' timing). The flag row replaces any earlier one of the page
   * (url, kind). After a reopen the set of flagged ids starts empty: a page flagged before and again
   * is then counted again in this run's counters (its row is still one).
   */
  #markRejudged(id: number, record: CascadeRecord, dirty: Map<number, RankedCandidate[]>): void {
    const options = this.options.compiled;
    if (!options.enabled || options.test !== 'containment') return;
    for (const { id: stored, shared } of this.store.pagesSharing(record.shingles, MAX_REJUDGED + 1, options.minSourceShare / 2, this.#entryBars)) {
      if (stored === id) continue;
      const entrants = dirty.get(stored);
      if (entrants === undefined) dirty.set(stored, [{ id, shared }]);
      else entrants.push({ id, shared });
    }
  }

  /**
   * Judges again the pages marked (once each, after the whole batch is stored: a page that several
   * of the batch's pages may change is judged once); returns their flag rows. A page whose last
   * judgement's candidates this committer keeps is judged from them and its entrants (no count over
   * the store: a page enters the candidates only by sharing more than the last of them); another
   * (judged before a reopen, or stored by another process) from a new count.
   */
  #rejudgeCompiled(dirty: ReadonlyMap<number, readonly RankedCandidate[]>): { rows: FlagRow[]; removed: FlagKey[] } {
    const rows: FlagRow[] = [];
    const removed: FlagKey[] = [];
    for (const [id, entrants] of dirty) {
      const page = this.store.get(id);
      if (page === undefined) continue;
      const known = this.#candidates.get(id);
      const ranked = known === undefined ? undefined : mergeRanked(known, entrants);
      const flag = compiledFlag(page.record, this.store, this.options.compiled, { self: id, judgement: this.#judgement, ranked });
      this.#keepJudgement(id);
      if (flag === null) {
        // Its row goes: the flag this committer gave it, or one an earlier run may have (not known).
        if (this.#compiled.delete(id)) this.#withdrawn++;
        else if (known !== undefined) continue;
        removed.push({ url: page.url, kind: 'compiled' });
        continue;
      }
      if (!this.#compiled.has(id)) this.#late.push(flag);
      this.#compiled.add(id);
      rows.push(...flagRowsOf(page.url, id, [flag]));
    }
    return { rows, removed };
  }

  /** Keeps the entry bar and the candidates of the last judgement (#judgement) for page `id`. */
  #keepJudgement(id: number): void {
    if (this.options.compiled.enabled) this.#candidates.set(id, this.#judgement.ranked);
    this.#entryBars = roomFor(this.#entryBars, id);
    this.#entryBars[id] = this.#judgement.entryBar;
    this.#judgement.ranked = [];
  }

  /**
   * After the index judged `items` (in its order): each page's flags (its own and the comparing
   * stages'), records of stored pages added, flags written. Pages judged earlier (`repeated`) and
   * skipped pages get no flags. Returns the flags per item.
   */
  afterDecisions(items: readonly CascadeItem[]): CascadeFlag[][] {
    this.#catchUp();
    const out: CascadeFlag[][] = [];
    const rows: FlagRow[] = [];
    /** Stored pages to judge again once the batch is stored (#markRejudged). */
    const dirty = new Map<number, RankedCandidate[]>();
    for (const { url, cascade, decision } of items) {
      if (cascade === undefined || decision.repeated === true || decision.kind === 'skipped') {
        out.push([]);
        continue;
      }
      const record = cascade.record === null ? null : decodeCascadeRecord(cascade.record);
      // Only a page the index stored is compared: a rejected page is a copy of a stored one, and is
      // spun or compiled when that one is (its flags say so).
      this.#judgement.entryBar = 0;
      this.#judgement.ranked = [];
      const flags = record === null || decision.kind !== 'stored' ? [...cascade.flags] : [...cascade.flags, ...compareCascade(record, this.store, this.#lazy, this.options, this.#judgement)];
      if (decision.kind === 'stored' && record !== null) {
        this.#keepJudgement(decision.id);
        if (flags.some((f) => f.kind === 'compiled')) this.#compiled.add(decision.id);
        this.store.add({ id: decision.id, url, record }, cascade.record!);
        this.#markRejudged(decision.id, record, dirty);
      }
      rows.push(...flagRowsOf(url, idOf(decision), flags));
      out.push(flags);
    }
    const again = this.#rejudgeCompiled(dirty);
    rows.push(...again.rows);
    if (rows.length > 0) this.#persistence.writeFlags(rows);
    if (again.removed.length > 0) this.#persistence.removeFlags(again.removed);
    return out;
  }
}

/** Stored pages that a new page may be a source of, judged again (at most). */
const MAX_REJUDGED = 10;

/** Adds flags to counts per kind. */
export function countFlags(counts: FlagCounts, flags: readonly CascadeFlag[]): void {
  for (const f of flags) counts[f.kind] = (counts[f.kind] ?? 0) + 1;
}
