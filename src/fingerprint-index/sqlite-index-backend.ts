/** The SQLite FingerprintIndex behind the IndexBackend interface (each call runs at once; the promise only carries it). */
import type { Decision, Fingerprint, FingerprintParams, IndexCandidate, SkipReason, StoredDocument } from '../types.js';
import type { FingerprintIndex } from './fingerprint-index.js';
import type { IndexBackend } from './index-backend.js';

export class SqliteIndexBackend implements IndexBackend {
  readonly index: FingerprintIndex;

  constructor(index: FingerprintIndex) {
    this.index = index;
  }

  get params(): FingerprintParams {
    return this.index.params;
  }

  readonly callsWithin = true;

  get label(): string {
    return this.index.path;
  }

  async check(fingerprint: Fingerprint | null, textHash: string) {
    return this.index.check(fingerprint, textHash);
  }

  async checkAndInsert(doc: IndexCandidate) {
    return this.index.checkAndInsert(doc);
  }

  async checkAndInsertMany(docs: readonly IndexCandidate[], within?: (decisions: readonly Decision[]) => void) {
    return this.index.checkAndInsertMany(docs, within);
  }

  async recordSkip(url: string, reason: SkipReason, detail: string | null = null) {
    return this.index.recordSkip(url, reason, detail);
  }

  async recordLinks(fromUrl: string, toUrls: readonly string[], mainUrls: readonly string[] = []) {
    this.index.recordLinks(fromUrl, toUrls, mainUrls);
  }

  async get(id: number) {
    return this.index.get(id);
  }

  async linkRows() {
    return this.index.linkRows();
  }

  async stats() {
    return this.index.stats();
  }

  async corpusTransaction<T>(ids: readonly number[], body: (docs: ReadonlyMap<number, StoredDocument>) => T): Promise<T> {
    return this.index.exclusive(() => {
      const docs = new Map<number, StoredDocument>();
      for (const id of ids) {
        const doc = this.index.get(id);
        if (doc !== undefined) docs.set(id, doc);
      }
      return body(docs);
    });
  }

  async close() {
    this.index.close();
  }
}
