/**
 * The ranked candidates of each page's last `compiled` judgement (compiled-flag.ts), kept so that a
 * page is judged again from them and the pages stored since, not from a new count over the whole
 * store: a page's candidates are the MAX_CANDIDATES stored pages sharing the most shingles with it
 * (ties: the smaller id), so a later page either enters them or changes nothing.
 *
 * Fixed slots per page id in typed arrays (6 bytes a candidate, 61 a page), not an array per page.
 */

import { roomFor } from './room-for.js';

/** A candidate of a judgement: a stored page's id and the shingles it shares with the judged page. */
export interface RankedCandidate {
  readonly id: number;
  readonly shared: number;
}

/** Candidates a judgement keeps, at most (compiled-flag.ts ranks them). */
export const MAX_CANDIDATES = 10;

/** Shared counts are kept saturated at this (a record keeps far fewer shingles). */
const MAX_SHARED = 0xffff;

/** Whether `a` ranks before `b`: more shared, ties to the smaller (earlier) id. */
export function ranksBefore(a: RankedCandidate, b: RankedCandidate): boolean {
  return a.shared > b.shared || (a.shared === b.shared && a.id < b.id);
}

/**
 * `ranked` with `entrants` merged in, ranked, at most MAX_CANDIDATES: an entrant already listed
 * replaces its entry (its count is the newer).
 */
export function mergeRanked(ranked: readonly RankedCandidate[], entrants: readonly RankedCandidate[]): RankedCandidate[] {
  const entering = new Set(entrants.map((e) => e.id));
  const all = [...ranked.filter((c) => !entering.has(c.id)), ...entrants];
  all.sort((a, b) => (ranksBefore(a, b) ? -1 : ranksBefore(b, a) ? 1 : 0));
  return all.slice(0, MAX_CANDIDATES);
}

export class CandidateLists {
  #ids = new Int32Array(1024 * MAX_CANDIDATES);
  #shared = new Uint16Array(1024 * MAX_CANDIDATES);
  /** Per page id: 0 when not known, else 1 + the number of candidates. */
  #lengths = new Uint8Array(1024);

  /** Keeps the ranked candidates of page `id`'s last judgement (at most MAX_CANDIDATES). */
  set(id: number, ranked: readonly RankedCandidate[]): void {
    this.#reserve(id);
    const n = Math.min(ranked.length, MAX_CANDIDATES);
    const from = id * MAX_CANDIDATES;
    for (let i = 0; i < n; i++) {
      this.#ids[from + i] = ranked[i]!.id;
      this.#shared[from + i] = Math.min(MAX_SHARED, ranked[i]!.shared);
    }
    this.#lengths[id] = n + 1;
  }

  /** The candidates of page `id`'s last judgement, ranked, or undefined when not known (judged by another process, or before a reopen). */
  get(id: number): RankedCandidate[] | undefined {
    const length = id < this.#lengths.length ? this.#lengths[id]! : 0;
    if (length === 0) return undefined;
    const from = id * MAX_CANDIDATES;
    const out: RankedCandidate[] = [];
    for (let i = 0; i < length - 1; i++) out.push({ id: this.#ids[from + i]!, shared: this.#shared[from + i]! });
    return out;
  }

  /** Forgets every page's list (each is then not known). */
  clear(): void {
    this.#lengths.fill(0);
  }

  #reserve(id: number): void {
    this.#lengths = roomFor(this.#lengths, id);
    this.#ids = roomFor(this.#ids, id, MAX_CANDIDATES);
    this.#shared = roomFor(this.#shared, id, MAX_CANDIDATES);
  }
}
