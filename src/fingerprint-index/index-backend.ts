/**
 * The one interface the pipeline uses for an index, whichever holds it: SQLite under --data (one
 * machine) or PostgreSQL (--index postgres://..., many machines). Async, since a server is behind one.
 */
import type {
  Decision, Fingerprint, FingerprintParams, IndexCandidate, LinkRow, SkipReason, StoredDocument,
} from '../types.js';
import type { IndexStats, Match } from './fingerprint-index.js';

export interface IndexBackend {
  /** The fingerprint parameters the index was made with. */
  readonly params: FingerprintParams;
  /** Where the index is, for messages (a path, or a URL without its password). */
  readonly label: string;
  check(fingerprint: Fingerprint | null, textHash: string): Promise<Match | null>;
  checkAndInsert(doc: IndexCandidate): Promise<Decision>;
  /**
   * `within`: called with the decisions before they commit — SQLite: inside the same transaction
   * (writes on its connection commit with the documents); a backend that cannot (PostgreSQL) does not
   * call it, and the caller does that work after the promise resolves.
   */
  checkAndInsertMany(docs: readonly IndexCandidate[], within?: (decisions: readonly Decision[]) => void): Promise<Decision[]>;
  /** Whether checkAndInsertMany calls `within` (in its transaction). */
  readonly callsWithin?: boolean;
  /** Records a skipped URL; returns its decision: this skip, or the earlier one (marked `repeated`, nothing written). */
  recordSkip(url: string, reason: SkipReason, detail?: string | null): Promise<Decision>;
  /** Records a page's links; `mainUrls`: those inside its main text (citations, links.in_main). */
  recordLinks(fromUrl: string, toUrls: readonly string[], mainUrls?: readonly string[]): Promise<void>;
  get(id: number): Promise<StoredDocument | undefined>;
  /** Every recorded link (to, from, in_main); report/citation-counts.ts turns them into in-links. */
  linkRows(): Promise<LinkRow[]>;
  stats(): Promise<IndexStats>;
  /**
   * Runs `body` with the stored documents among `ids` whose corpus lines belong to this process's
   * corpus, while no other writer of that corpus appends. SQLite: every stored document (one corpus
   * per data folder, shared by its processes), under the database's write lock. PostgreSQL: the ones
   * this writer stored (one corpus per writer's data folder; no lock needed).
   */
  corpusTransaction<T>(ids: readonly number[], body: (docs: ReadonlyMap<number, StoredDocument>) => T): Promise<T>;
  close(): Promise<void>;
}
